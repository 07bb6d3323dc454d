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
// the body; the trailer LLM-Edit-Format ends it. The message is valid
// UTF-8 with no control character but line feeds, and tabs in the body
// (see cleanText).
func CommitMessage(override, subject, body, format string, changes []FileChange, edits int) string {
	if o := strings.TrimSpace(cleanText(override, true)); o != "" {
		subject, body, _ = strings.Cut(o, "\n")
	}
	subject = strings.TrimSpace(cleanText(subject, false))
	body = strings.TrimSpace(cleanText(body, true))
	if subject == "" {
		subject = cleanText(fallbackSubject(changes, edits), false)
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

// cleanText makes text a reply (or -m) supplies fit for a commit
// message. Invalid UTF-8 becomes U+FFFD, so that the message is
// UTF-8 as its encoding header (none) says. A NUL would cut the message
// where git reads it (git fsck reports nulInCommit) and the other
// control characters (C0, DEL and C1: U+0080-U+009F) would reach the
// terminal of whoever runs git log, where ESC and CSI sequences can
// clear the screen or rewrite what is shown: all are removed, except
// that CR LF and a lone CR are line breaks like LF, and that a body
// (multiline) keeps its line feeds and tabs, which git itself keeps in
// messages. In a subject (not multiline) line breaks and tabs become
// spaces.
func cleanText(s string, multiline bool) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '\r' && i+1 < len(s) && s[i+1] == '\n':
			continue
		case r == '\r' || r == '\n' || r == '\t':
			if !multiline {
				r = ' '
			} else if r == '\r' {
				r = '\n'
			}
		case r < ' ' || r >= 0x7f && r <= 0x9f:
			continue
		}
		b.WriteRune(r)
	}
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
