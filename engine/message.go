package engine

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"
)

// maxSubject is git's customary limit for a commit subject.
const maxSubject = 72

// CommitMessage builds a commit message (SPEC sections 3 and 6): the
// -m override, else the reply's subject and body, else "Apply N edits
// to <files>"; a subject too long is cut at a word and given in full in
// the body; the trailer LLM-Edit-Format ends it.
func CommitMessage(override, subject, body, format string, changes []FileChange, edits int) string {
	if o := strings.TrimSpace(override); o != "" {
		subject, body, _ = strings.Cut(o, "\n")
		body = strings.TrimSpace(body)
	}
	subject = strings.TrimSpace(subject)
	if subject == "" {
		subject = fallbackSubject(changes, edits)
	}
	if utf8.RuneCountInString(subject) > maxSubject {
		body = strings.TrimSpace(subject + "\n\n" + body)
		subject = cutAtWord(subject, maxSubject-3) + "..."
	}
	var b strings.Builder
	b.WriteString(subject)
	b.WriteString("\n\n")
	if body != "" {
		b.WriteString(body)
		b.WriteString("\n\n")
	}
	b.WriteString("LLM-Edit-Format: " + format + "\n")
	return b.String()
}

func fallbackSubject(changes []FileChange, edits int) string {
	names := make([]string, 0, len(changes))
	for _, c := range changes {
		names = append(names, path.Base(c.Path()))
	}
	what := "edit"
	if edits != 1 {
		what = "edits"
	}
	s := fmt.Sprintf("Apply %d %s to %s", edits, what, strings.Join(names, ", "))
	if len(changes) == 0 {
		s = fmt.Sprintf("Apply %d %s", edits, what)
	}
	return s
}

// cutAtWord shortens s to at most n runes, at a space when there is one.
func cutAtWord(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	cut := string(r[:n])
	if i := strings.LastIndexByte(cut, ' '); i > n/2 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ,;:-")
}

// Slug turns a subject into a branch name component: lower-case
// letters, digits and dashes, at most 40 characters ("reply" if none).
func Slug(subject string) string {
	var b strings.Builder
	dash := false
	for _, c := range strings.ToLower(subject) {
		if c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			dash = false
			continue
		}
		dash = true
	}
	s := b.String()
	if len(s) > 40 {
		s = s[:40]
		if i := strings.LastIndexByte(s, '-'); i > 20 {
			s = s[:i]
		}
	}
	if s == "" {
		return "reply"
	}
	return strings.Trim(s, "-")
}
