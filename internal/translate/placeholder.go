package translate

import (
	"bytes"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// IsPlaceholder reports whether line is an elision placeholder: what a
// model writes instead of code it did not want to repeat. That is a
// bare ellipsis ("...", "…"), or a comment ("//", "///", "//!", "#",
// "/*", "{/*", "*", "<!--", "--", ";", "%") whose text is one of:
//
//   - only an ellipsis: "// ...", "/* … */", "// [...]";
//   - a short text (at most eight words) wrapped in ellipses:
//     "// ... existing code ...", "# ... handle errors ...";
//   - a short text with an ellipsis at one end whose every word belongs
//     to the vocabulary of placeholders, one of them saying that code
//     was left out or stays as it was: "// ... other methods", "# rest
//     of code ...", "// your code here...";
//   - without an ellipsis, such words saying that existing code stands
//     elsewhere: "existing" or "rest of" before a noun such as code,
//     file or methods, or "remaining", "other" or "previous" before
//     one and a word such as unchanged, same, before or here after it:
//     "// existing code here", "# Rest of the file remains the same",
//     "// remaining methods unchanged".
//
// An ellipsis is three to six dots or one or two "…"; a longer run of
// dots is a rule drawn across a comment. Comments that merely use such
// words in a sentence ("// the value is unchanged if err is nil",
// "## Other functions", "# the remaining functions", "// Original
// file unchanged.") are not placeholders: a word outside the
// vocabulary, or words in another order, make the text prose, which
// keeps ordinary comments of real code from being taken for elisions.
func IsPlaceholder(line string) bool {
	t := strings.TrimSpace(line)
	if t == "..." || t == "…" {
		return true
	}
	_, kind := classifyPlaceholder(t)
	return kind != notPlaceholder
}

// IsElision reports whether line, standing where an edit removes lines,
// says that they are kept elsewhere. That is every placeholder
// IsPlaceholder knows, and also a comment of at most ten words that all
// belong to the vocabulary of placeholders, one of them saying that
// code stays, was left out or is the rest: "// (unchanged)", "//
// [unchanged]", "// keep the rest as is", "// TODO: rest", "// etc.",
// "# same as before", "// no changes here". Read alone such a comment
// is as often an ordinary one ("// Original file unchanged.", "# The
// rest"), so only a caller that knows what the line replaces may ask;
// FindDebris does not.
func IsElision(line string) bool {
	return mayElide(line) && elision(strings.TrimSpace(line))
}

// elision is IsElision of the trimmed line t, without mayElide.
func elision(t string) bool {
	if IsPlaceholder(t) || isBraceEllipsis(t) {
		return true
	}
	opener, body := splitComment(t)
	return opener != "" && saysKept(body)
}

// mayElide reports whether line may be an elision: whether its first
// byte after ASCII white space may start an ellipsis ("...", "…"), a
// comment (see commentOpener) or "{{". A byte of 0x80 or more may start
// a Unicode space, which strings.TrimSpace takes off. The elision check
// asks it of every line of a whole new file first.
func mayElide(line string) bool {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r' || line[i] == '\n' || line[i] == '\f' || line[i] == '\v') {
		i++
	}
	if i == len(line) {
		return false
	}
	switch c := line[i]; c {
	case '.', '/', '{', '<', '-', '#', ';', '*', '%':
		return true
	default:
		return c >= 0x80
	}
}

// isBraceEllipsis reports whether the trimmed line t is an ellipsis in
// double braces, "{{ ... }}": the placeholder Windsurf's edit_file asks
// for where code is unchanged (an elision wherever code goes, never a
// template's expression, which names something).
func isBraceEllipsis(t string) bool {
	in, ok := strings.CutPrefix(t, "{{")
	if in, ok2 := strings.CutSuffix(in, "}}"); ok && ok2 {
		in = strings.TrimSpace(in)
		return in == "..." || in == "…"
	}
	return false
}

// IsLazyMarker reports whether line is a marker of a lazy edit (SPEC
// section 5): a line that is only a comment, in any common comment
// syntax ("//", "#", "--", "/* */", "<!-- -->", ";", "%"), or a bare
// ellipsis, whose words say that code is kept: "// ... existing code
// ...", "# ... rest of the code ...", "// ... keep existing ...". It is
// IsElision: the one definition of such words, which the elision
// check and the lazy merge share. JSON has no comments, but models
// write "// ... existing code ..." in it all the same, and it counts.
// Windsurf's "{{ ... }}" and Continue's "// UNCHANGED CODE" count too.
func IsLazyMarker(line string) bool { return IsElision(line) }

// maxKeptWords bounds the words of a comment IsElision reads: an
// elision is short, a longer comment is a sentence.
const maxKeptWords = 10

// saysKept reports whether the text of a comment says that code is
// kept elsewhere, in the wide sense IsElision gives it.
func saysKept(s string) bool {
	if len(s) > 120 {
		return false
	}
	// A task label before the words: "TODO: rest".
	for _, label := range [...]string{"todo", "fixme", "xxx", "note"} {
		if len(s) > len(label) && strings.EqualFold(s[:len(label)], label) && strings.ContainsRune(": ", rune(s[len(label)])) {
			s = strings.TrimLeft(s[len(label):], ": ")
			break
		}
	}
	words, says, negated := 0, false, false
	var buf [24]byte
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case strings.HasPrefix(s[i:], "…"):
			i += len("…")
			continue
		case c >= utf8.RuneSelf:
			return false // another script, or a symbol of code
		case !isWordByte(c):
			if !strings.ContainsRune(" \t.,:;!?()[]-\"", rune(c)) {
				return false // "=", "{", "/": code, not words
			}
			i++
			continue
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		w := strings.ToLower(strings.Trim(s[i:j], "'"))
		i = j
		if words++; words > maxKeptWords {
			return false
		}
		class, ok := lookupWord(w, &buf)
		cue, extra := keptWords[w]
		switch {
		case !ok && !extra:
			return false
		case cue, class&(cueWord|stateWord|leftoverWord|restWord|existingWord) != 0:
			says = true
		case negated && (w == "change" || w == "changes" || w == "changed"):
			says = true // "no changes", "not changed"
		}
		negated = w == "no" || w == "not"
	}
	return says
}

// keptWords are the words IsElision reads besides the vocabulary of
// placeholders; true for those that say code is kept or left out.
var keptWords = map[string]bool{
	"etc": true, "keep": true, "kept": true, "keeping": true, "remainder": true,
	"elsewhere": true, "verbatim": true, "unaltered": true, "todo": false,
	"page": false, "text": false, "docs": false, "document": false, "readme": false,
	"paragraph": false, "paragraphs": false,
}

// placeholderKind is how surely a comment is a placeholder.
type placeholderKind uint8

const (
	notPlaceholder placeholderKind = iota
	// loosePlaceholder: prose wrapped in ellipses, "# ... handle errors
	// ...". Where a model's new lines replace code it is an elision;
	// in a file it is as often a sentence trailing off ("# ... but not
	// again ...").
	loosePlaceholder
	// weakPlaceholder: a placeholder on its own, but a line inside a
	// block of comments can read so too: the "// ..." of an example in
	// a doc comment, pseudo-code's "... body of loop ...", a sentence
	// wrapped onto "// rest of the file.".
	weakPlaceholder
	// strongPlaceholder: words of the vocabulary wrapped in ellipses,
	// one of them saying that something was left out: "// ... existing
	// code ...", "# ... rest unchanged ...". No sentence reads so.
	strongPlaceholder
)

// classifyPlaceholder says whether the trimmed line t is a comment
// whose text is a placeholder, and returns the comment's opener ("//",
// "#", ...; "" when t is no comment).
func classifyPlaceholder(t string) (opener string, kind placeholderKind) {
	opener, body := splitComment(t)
	if opener == "" {
		return "", notPlaceholder
	}
	return opener, placeholderText(body)
}

// commentOpener returns the opener of the comment the trimmed line t
// starts with, as splitComment names it; "" when none.
func commentOpener(t string) string {
	switch {
	case t == "":
		return ""
	case strings.HasPrefix(t, "//"):
		return "//"
	case strings.HasPrefix(t, "/*"), strings.HasPrefix(t, "{/*"):
		return "/*"
	case strings.HasPrefix(t, "<!--"):
		return "<!--"
	case strings.HasPrefix(t, "--"):
		return "--"
	case t[0] == '#' || t[0] == ';' || t[0] == '*' || t[0] == '%':
		return t[:1]
	}
	return ""
}

// splitComment returns the opener of the comment the trimmed line t
// is (see commentOpener) and its text, without opener and closer, trimmed.
func splitComment(t string) (opener, body string) {
	opener = commentOpener(t)
	switch opener {
	case "":
		return "", ""
	case "//":
		body = strings.TrimPrefix(strings.TrimLeft(t, "/"), "!")
	case "/*":
		body = strings.TrimLeft(strings.TrimPrefix(t, "{"), "/*")
	case "<!--":
		body = t[4:]
	default:
		body = strings.TrimLeft(t, opener[:1])
	}
	body = strings.TrimSpace(body)
	for _, closer := range [...]string{"*/}", "*/", "-->"} {
		if s, ok := strings.CutSuffix(body, closer); ok {
			body = strings.TrimSpace(s)
			break
		}
	}
	return opener, body
}

// maxPlaceholderWords bounds the words of a placeholder: models write
// short ones, and a longer comment is prose whatever its words.
const maxPlaceholderWords = 8

// placeholderText says whether the text of a comment is a placeholder
// (see IsPlaceholder). Most comments are prose whose first word settles
// it, so it reads word by word and stops at the first that no
// placeholder would hold, without allocating.
func placeholderText(s string) placeholderKind {
	if len(s) > 120 {
		return notPlaceholder
	}
	lead := hasEllipsisPrefix(strings.TrimLeft(s, "([ \t"))
	trail := hasEllipsisSuffix(strings.TrimRight(s, ")] \t"))
	wrapped := lead && trail
	var classes [maxPlaceholderWords]wordClass
	words, prose, symbols := 0, false, false
	var buf [24]byte
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '.' || strings.HasPrefix(s[i:], "…"):
			j, dots := i, 0
			for j < len(s) && (s[j] == '.' || strings.HasPrefix(s[j:], "…")) {
				if s[j] == '.' {
					dots, j = dots+1, j+1
				} else {
					dots, j = dots+3, j+len("…")
				}
			}
			if dots > 6 {
				return notPlaceholder // a rule of dots, not an ellipsis
			}
			i = j
			continue
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(s[i:])
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				// A word in another script is no word of the
				// vocabulary.
				if !wrapped {
					return notPlaceholder
				}
				prose = true
			}
			symbols = true
			i += n
			continue
		case !isWordByte(c):
			symbols = symbols || !strings.ContainsRune(" \t()[]", rune(c))
			i++
			continue
		}
		j := i
		for j < len(s) && isWordByte(s[j]) {
			j++
		}
		if words == maxPlaceholderWords {
			return notPlaceholder
		}
		class, ok := lookupWord(s[i:j], &buf)
		switch {
		case !ok && !wrapped:
			return notPlaceholder
		case !ok:
			prose = true
		}
		classes[words] = class
		words++
		i = j
	}
	w := classes[:words]
	switch {
	case words == 0:
		if wrapped && !symbols {
			return weakPlaceholder
		}
		return notPlaceholder
	case wrapped && prose:
		return loosePlaceholder
	case wrapped && anyClass(w, cueWord):
		return strongPlaceholder
	case wrapped:
		return weakPlaceholder
	case (lead || trail) && anyClass(w, cueWord|leftoverWord|stateWord):
		return weakPlaceholder
	case saysElided(w):
		return weakPlaceholder
	}
	return notPlaceholder
}

// saysElided reports whether the words of a text without ellipsis say
// that existing code stands elsewhere (see IsPlaceholder).
func saysElided(w []wordClass) bool {
	// codeAt reports whether w[i], or the word after an article there,
	// names code.
	codeAt := func(i int) bool {
		if i < len(w) && w[i]&articleWord != 0 {
			i++
		}
		return i < len(w) && w[i]&codeWord != 0
	}
	for i := 0; i+1 < len(w); i++ {
		switch {
		case w[i]&existingWord != 0 && codeAt(i+1):
			return true
		case w[i]&restWord != 0 && w[i+1]&ofWord != 0 && codeAt(i+2):
			return true
		case w[i]&leftoverWord != 0 && w[i+1]&codeWord != 0 && anyClass(w[i+2:], stateWord):
			return true
		}
	}
	return false
}

func anyClass(w []wordClass, c wordClass) bool {
	for _, x := range w {
		if x&c != 0 {
			return true
		}
	}
	return false
}

// lookupWord finds a word in placeholderWords, in any case and without
// the quotes around it; buf keeps the lower-cased copy off the heap.
func lookupWord(w string, buf *[24]byte) (wordClass, bool) {
	if len(w) > len(buf) {
		return 0, false
	}
	b := buf[:len(w)]
	for k := range b {
		b[k] = lowerASCII(w[k])
	}
	b = bytes.Trim(b, "'")
	class, ok := placeholderWords()[string(b)]
	return class, ok
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\''
}

func lowerASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func hasEllipsisPrefix(s string) bool {
	return strings.HasPrefix(s, "...") || strings.HasPrefix(s, "…")
}

func hasEllipsisSuffix(s string) bool {
	return strings.HasSuffix(s, "...") || strings.HasSuffix(s, "…")
}

// wordClass says what a word of the vocabulary may do in a
// placeholder; a bit set.
type wordClass uint8

const (
	cueWord      wordClass = 1 << iota // says that something was left out
	codeWord                           // names code: code, file, methods
	articleWord                        // the, this, your
	existingWord                       // "existing"
	restWord                           // "rest"
	ofWord                             // "of"
	leftoverWord                       // remaining, other, previous
	stateWord                          // says the code stays: unchanged, same, here
)

// placeholderWords is the vocabulary of placeholders: the words of
// "rest of the code remains unchanged", "existing methods here",
// "other imports", "omitted for brevity" and their kin, each with what
// it may do. Verbs a sentence would go on with ("omit", "add", "use")
// stay out.
var placeholderWords = sync.OnceValue(func() map[string]wordClass {
	m := map[string]wordClass{}
	add := func(c wordClass, words string) {
		for _, w := range strings.Fields(words) {
			m[w] |= c
		}
	}
	add(0, `a all an and any are as be continue continues else etc
		everything for from go goes in is it its keep kept keeping left
		more my no not on or our so still that the there these this
		those to was were with your yours similar earlier change changes
		changed shown stay stays remain remains remainder original`)
	add(0, `code file files function functions func method methods
		class classes implementation implementations logic content
		contents import imports line lines body component components
		module modules definition definitions declaration declarations
		helper helpers field fields props properties member members
		attribute attributes test tests case cases handler handlers route
		routes style styles setup stuff things part parts section sections
		statement statements block blocks snippet script markup template
		program constructor loop items entries variables constants types
		structs interfaces exports dependencies rules`)
	add(codeWord, `code file function functions method methods class
		classes implementation logic content contents imports module body
		component`)
	add(articleWord, "the this that your my our its")
	add(cueWord, `existing rest remaining unchanged untouched unmodified
		omitted elided snip snipped truncated abbreviated brevity same`)
	add(existingWord, "existing")
	add(restWord, "rest")
	add(ofWord, "of")
	add(leftoverWord, "remaining other others previous")
	add(stateWord, `unchanged untouched unmodified same before above below
		here intact preserved identical omitted elided brevity previously`)
	return m
})
