package translate

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A commit subject is written in git's voice, the imperative ("Add a
// --verbose flag"), where a model writes in a person's: "I'll add a
// --verbose flag", "Let's add ...", "We need to add ...", "Here's a
// patch that adds ...". imperative turns such an opener into git's
// voice when the word after it reads as a verb; otherwise the sentence
// stays as it is.

// firstPerson opens a sentence with what the writer will do; its group
// is the verb that follows.
var firstPerson = openingRegexpOf(`(?i)^(?:i(?:['\x{2019}]ll| will| am going to|['\x{2019}]m going to| would like to|['\x{2019}]d like to| need to| should| can| have to| want to)|let(?:['\x{2019}]s| us| me)|we(?:['\x{2019}]ll| will| need to| should| can| could| must| have to| are going to|['\x{2019}]re going to| want to))\s+(?:also\s+|now\s+|first\s+|just\s+|simply\s+|then\s+)?([a-z][a-z-]*)\b`,
	"i'", "i\u2019", "i ", "let", "we'", "we\u2019", "we ")

// presentation opens a sentence that presents the change and then says
// what it does: "Here's a patch that makes ...", "Here is the change to
// add ...", "Here is the updated file with a --bold option". Its groups
// are the joining word and the word after it.
var presentation = openingRegexpOf(`(?i)^here(?:['\x{2019}]s| is| are)\s+(?:the|a|an|my|some)\s+(?:[\w-]+\s+){0,3}?(?:change|changes|patch|patches|fix|fixes|update|updates|version|code|implementation|file|files|diff|edit|edits|modification|modifications|solution)\s+(that|which|to|with)\s+([a-z][a-z-]*)\b`, "here")

// notVerbs are words that follow "I'll" or "we can" without being the
// action: the sentence is left alone.
var notVerbs = wordSet(`be have the a an this that these those it its there here so not also now then
	first just help need try start begin go continue look`)

// imperative returns s with a first-person or presenting opener turned
// into git's imperative voice, or s unchanged.
func imperative(s string) string {
	if m := firstPerson.FindStringSubmatchIndex(s); m != nil {
		verb := strings.ToLower(s[m[2]:m[3]])
		if notVerbs()[verb] {
			return s
		}
		return capitalise(verb + s[m[3]:])
	}
	if m := presentation.FindStringSubmatchIndex(s); m != nil {
		join, word := strings.ToLower(s[m[2]:m[3]]), s[m[4]:m[5]]
		switch join {
		case "to":
			if notVerbs()[strings.ToLower(word)] {
				return s
			}
			return capitalise(word + s[m[5]:])
		case "with":
			return "Add " + s[m[4]:]
		default: // that, which: "makes" becomes "Make"
			if base, ok := baseForm(strings.ToLower(word)); ok {
				return capitalise(base + s[m[5]:])
			}
		}
	}
	return s
}

// baseForm is the verb of a third-person singular form ("adds" "add",
// "fixes" "fix", "applies" "apply"), and false for a word that is not
// one.
func baseForm(w string) (string, bool) {
	switch w {
	case "does":
		return "do", true
	case "goes":
		return "go", true
	case "has":
		return "have", true
	case "is", "was":
		return "", false
	}
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y", true
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "shes"), strings.HasSuffix(w, "ches"),
		strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "zzes"), strings.HasSuffix(w, "oes"):
		return w[:len(w)-2], true
	case len(w) > 2 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us"):
		return w[:len(w)-1], true
	}
	return "", false
}

func capitalise(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}
