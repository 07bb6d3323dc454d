package message

import (
	"path"
	"strings"
	"unicode/utf8"
)

// A default branch name is read in `git branch` lists and typed in
// `git switch`: a few words that say what the reply does, as a person
// would name the branch. The words come from the subject without the
// model's openers ("I'll", "Let's", "Here's", "To fix X, we need to")
// and without articles, so "I'll add a --mini option to set the model."
// is add-mini-option-set-model, not i-ll-add-a-mini-option-to-set.

// maxBranchWords is how many dash-separated words a branch slug keeps.
const maxBranchWords = 5

// maxBranchSlug bounds a slug of long words.
const maxBranchSlug = 40

// openers are the phrases a model opens a sentence or a clause with
// that say nothing of the change.
var openers = [][]string{
	{"sure"}, {"okay"}, {"ok"}, {"yes"}, {"certainly"}, {"alright"}, {"great"}, {"so"}, {"now"},
	{"then"}, {"first"}, {"next"}, {"finally"}, {"also"}, {"please"}, {"additionally"},
	{"i'll"}, {"i", "will"}, {"i'm", "going", "to"}, {"i", "am", "going", "to"}, {"i'd", "like", "to"},
	{"i", "would"}, {"i've"}, {"i", "have"}, {"i", "need", "to"}, {"i", "can"},
	{"let's"}, {"let", "us"}, {"let", "me"}, {"we'll", "need", "to"}, {"we'll"}, {"we", "will", "need", "to"},
	{"we", "will"}, {"we", "need", "to"}, {"we", "should"}, {"we", "can"}, {"we", "must"},
	{"we", "have", "to"}, {"we", "want", "to"}, {"you", "can"}, {"you", "need", "to"}, {"you", "should"},
	{"here's"}, {"here", "is"}, {"here", "are"}, {"this", "is"}, {"it", "is"}, {"it's"}, {"and"},
	{"there's"}, {"there", "is"}, {"there", "are"}, {"it", "appears", "that"}, {"it", "seems", "that"},
	{"it", "seems"}, {"it", "looks", "like"},
	{"make", "the", "changes", "to"}, {"make", "the", "necessary", "changes", "to"},
	{"make", "the", "necessary", "change", "to"}, {"make", "the", "change", "to"},
	// A restated request: what follows it is the change.
	{"i", "understand", "that", "you", "want", "to"}, {"i", "understand", "that", "you", "want", "me", "to"},
	{"i", "understand", "that", "we", "need", "to"}, {"i", "understand", "you", "want", "to"},
	{"i", "understand", "that", "you", "want"}, {"i", "understand", "you", "want"},
	{"i", "understand", "that"}, {"i", "understand"}, {"i", "see", "that"}, {"you", "want", "to"},
	{"you", "want", "me", "to"}, {"you'd", "like", "to"}, {"you", "would", "like", "to"},
}

// skipped are words no branch name needs, wherever they stand.
var skipped = map[string]bool{"a": true, "an": true, "the": true, "this": true, "these": true, "those": true, "that": true, "some": true}

// trailing are words a branch name does not end with.
var trailing = map[string]bool{
	"and": true, "or": true, "but": true, "to": true, "of": true, "in": true, "into": true, "on": true,
	"onto": true, "at": true, "by": true, "for": true, "from": true, "with": true, "without": true,
	"as": true, "so": true, "than": true, "then": true, "if": true, "when": true, "where": true,
	"while": true, "because": true, "since": true, "its": true, "their": true, "our": true, "your": true,
	"my": true, "is": true, "are": true, "be": true, "will": true, "would": true, "should": true,
	"can": true, "could": true, "must": true, "need": true, "needs": true, "we": true, "i": true,
	"you": true, "which": true, "via": true, "also": true, "not": true, "all": true,
	"due": true, "they": true, "there": true,
}

// BranchSlug returns the words of a default branch name after "llm/"
// (SPEC section 2): up to five words of the subject's first line,
// lower-case ASCII letters and digits joined by dashes, without the
// model's openers and articles and without a dangling word at the end.
// A subject that leaves no word gives "edit-" and the base names of
// paths (edit-app-py), or "edit". The result is a valid branch name
// component (git check-ref-format).
func BranchSlug(subject string, paths []string) string {
	subject, _, _ = strings.Cut(subject, "\n")
	// Control characters and bytes that are not UTF-8 part words, as
	// any character that is no letter or digit does.
	subject = strings.Map(func(r rune) rune {
		if r < ' ' || r >= 0x7f && r <= 0x9f || r == utf8.RuneError {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(subject, " "))
	var words []string
	clause := true // at the start of a sentence or a clause
	tokens := strings.Fields(foldText(subject))
	for i := 0; i < len(tokens); {
		if clause {
			if n := openerAt(tokens[i:]); n > 0 {
				i += n
				continue
			}
			if i == 0 && trimToken(tokens[0]) == "to" {
				i++ // "To fix X, ..." names the branch by what it does
				continue
			}
		}
		tok := tokens[i]
		i++
		clause = strings.ContainsAny(tok[len(tok)-1:], ",;:")
		w := trimToken(tok)
		if w == "" || skipped[w] {
			continue
		}
		words = append(words, w)
	}
	slug := slugWords(words)
	if slug == "" {
		names := []string{"edit"}
		seen := map[string]bool{}
		for _, p := range paths {
			if n := foldText(path.Base(p)); p != "" && !seen[n] {
				seen[n] = true
				names = append(names, n)
			}
		}
		slug = slugWords(names)
	}
	return slug
}

// openerAt returns how many tokens an opener at the start of tokens
// spans (0 when none).
func openerAt(tokens []string) int {
	for _, o := range openers {
		if len(o) > len(tokens) {
			continue
		}
		match := true
		for j, w := range o {
			match = match && trimToken(tokens[j]) == w
		}
		if match {
			return len(o)
		}
	}
	return 0
}

// trimToken is a token without the punctuation around it.
func trimToken(t string) string {
	return strings.Trim(t, ".,;:!?\"'`*_()[]{}<>")
}

// slugWords joins the letters and digits of at most maxBranchWords
// words with dashes, within maxBranchSlug bytes, ending in no word of
// trailing. A word of several parts (get_counts, app.py) counts as one
// and is kept whole, unless it comes first and alone is too long.
func slugWords(words []string) string {
	var kept [][]string
	for _, w := range words {
		w = strings.ReplaceAll(w, "'", "") // don't: dont
		wp := strings.FieldsFunc(w, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
		if len(wp) > 0 {
			kept = append(kept, wp)
		}
		if len(kept) == maxBranchWords {
			break
		}
	}
	join := func() string {
		var parts []string
		for _, wp := range kept {
			parts = append(parts, wp...)
		}
		return strings.Join(parts, "-")
	}
	for len(kept) > 2 && len(join()) > maxBranchSlug || len(kept) > 1 && len(kept[len(kept)-1]) == 1 && trailing[kept[len(kept)-1][0]] {
		kept = kept[:len(kept)-1]
	}
	s := join()
	if len(s) <= maxBranchSlug {
		return s
	}
	// Two words too long together: cut the second at a dash.
	s = s[:maxBranchSlug+1]
	for {
		i := strings.LastIndexByte(s, '-')
		if i <= 0 {
			return strings.TrimRight(s[:min(len(s), maxBranchSlug)], "-")
		}
		s = s[:i]
		if len(s) <= maxBranchSlug && !trailing[s[strings.LastIndexByte(s, '-')+1:]] {
			return s
		}
	}
}

// foldText lower-cases s and writes its Latin letters with accents as
// the plain letters (é as e, ß as ss), typographic apostrophes as
// "'", so that a subject in French or German still names its branch.
func foldText(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r == '\u2019' || r == '\u2018':
			b.WriteByte('\'')
		case strings.ContainsRune("àáâãäåā", r):
			b.WriteByte('a')
		case strings.ContainsRune("çćč", r):
			b.WriteByte('c')
		case strings.ContainsRune("èéêëēė", r):
			b.WriteByte('e')
		case strings.ContainsRune("ìíîïī", r):
			b.WriteByte('i')
		case strings.ContainsRune("ñń", r):
			b.WriteByte('n')
		case strings.ContainsRune("òóôõöøō", r):
			b.WriteByte('o')
		case strings.ContainsRune("ùúûüū", r):
			b.WriteByte('u')
		case strings.ContainsRune("ýÿ", r):
			b.WriteByte('y')
		case strings.ContainsRune("šś", r):
			b.WriteByte('s')
		case strings.ContainsRune("žźż", r):
			b.WriteByte('z')
		case r == 'ß':
			b.WriteString("ss")
		case r == 'æ':
			b.WriteString("ae")
		case r == 'œ':
			b.WriteString("oe")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
