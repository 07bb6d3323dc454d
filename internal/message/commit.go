package message

import (
	"fmt"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// maxSubject is git's customary limit for a commit subject.
const maxSubject = translate.MaxSubject

// Commit builds a commit message (SPEC sections 3 and 6): the
// -m override, else the reply's subject and body, else "Apply N edits
// to <files>"; a subject too long is shortened to a part that reads
// whole (translate.ShortSubject) and given in full in the body; the
// trailer LLM-Edit-Format ends it, followed by trailers, each a
// "Key: value" line (replay's LLM-Session), cleaned like a subject. The
// message is valid UTF-8 with no control character but line feeds, and
// tabs in the body (see cleanText).
func Commit(override, subject, body, format string, changes []patch.FileChange, edits int, trailers ...string) string {
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
		subject = translate.ShortSubject(subject, maxSubject)
	}
	var b strings.Builder
	b.WriteString(subject)
	b.WriteString("\n\n")
	if body != "" {
		b.WriteString(body)
		b.WriteString("\n\n")
	}
	b.WriteString("LLM-Edit-Format: " + format + "\n")
	for _, t := range trailers {
		if t = strings.TrimSpace(cleanText(t, false)); t != "" {
			b.WriteString(t + "\n")
		}
	}
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

// fallbackSubject names the edits and the files they change, as many
// files as fit in a subject ("Apply 9 edits to a.go, b.go and 7 more
// files").
func fallbackSubject(changes []patch.FileChange, edits int) string {
	what := "edit"
	if edits != 1 {
		what = "edits"
	}
	s := fmt.Sprintf("Apply %d %s", edits, what)
	if len(changes) == 0 {
		return s
	}
	names := make([]string, 0, len(changes))
	for _, c := range changes {
		names = append(names, path.Base(c.Path()))
	}
	list := s + " to " + strings.Join(names, ", ")
	for n := len(names) - 1; n >= 1 && utf8.RuneCountInString(list) > maxSubject; n-- {
		others := "files"
		if len(names)-n == 1 {
			others = "file"
		}
		list = fmt.Sprintf("%s to %s and %d more %s", s, strings.Join(names[:n], ", "), len(names)-n, others)
	}
	return list
}
