package patch

// The mail headers of a patch file as git writes them: the Date,
// From and Subject lines, RFC 2047 encoding and folding.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// rfc2822Date formats t as git's DATE_RFC2822. git keeps a zone as
// hours and minutes and computes the wall clock from it, so an offset
// with seconds (old local mean times) is cut to the minute first.
func rfc2822Date(t time.Time) string {
	_, off := t.Zone()
	mins := off / 60
	local := time.Unix(t.Unix()+int64(mins)*60, 0).UTC()
	return fmt.Sprintf("%s, %d %s %d %02d:%02d:%02d %+05d",
		local.Weekday().String()[:3], local.Day(), local.Month().String()[:3], local.Year(),
		local.Hour(), local.Minute(), local.Second(), mins/60*100+mins%60)
}

// splitIdent splits "Name <email>" as git's split_ident_line does: the
// name is what precedes the first '<', less trailing white space, the
// address what follows it up to the next '>'.
func splitIdent(ident string) (name, mail string, ok bool) {
	lt := strings.IndexByte(ident, '<')
	if lt < 0 {
		return "", "", false
	}
	gt := strings.IndexByte(ident[lt+1:], '>')
	if gt < 0 {
		return "", "", false
	}
	return trimSpaceRight(ident[:lt]), ident[lt+1 : lt+1+gt], true
}

// writeFromHeader writes the From header as pp_user_info does: the name
// RFC 2047-encoded when it holds non-ASCII, else in quotes when it
// holds an RFC 822 special, folded at spaces past 78 columns (76 for
// encoded words); the address goes on a line of its own when it would
// not fit on the name's.
func writeFromHeader(b *bytes.Buffer, author string) {
	name, mail, _ := splitIdent(author)
	h := []byte("From: ")
	limit := maxHeaderLine
	switch {
	case needsRFC2047(name):
		h = appendRFC2047(h, name, true)
		limit = 76
	case strings.ContainsAny(name, `()<>[]:;@,."\`):
		h = appendWrapped(h, quoteRFC822(name), len(h), maxHeaderLine)
	default:
		h = appendWrapped(h, name, len(h), maxHeaderLine)
	}
	if limit < lastLineLen(h)+len(" <")+len(mail)+len(">") {
		h = append(h, '\n')
	}
	b.Write(h)
	fmt.Fprintf(b, " <%s>\n", mail)
}

func quoteRFC822(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// writeSubjectHeader writes the Subject header with its "[PATCH n/m] "
// prefix, n zero-padded to the digits of m as git does.
func writeSubjectHeader(b *bytes.Buffer, subject string, n, total int) {
	h := []byte("Subject: [PATCH] ")
	if total > 1 {
		h = fmt.Appendf(nil, "Subject: [PATCH %0*d/%d] ", len(strconv.Itoa(total)), n, total)
	}
	if needsRFC2047(subject) {
		h = appendRFC2047(h, subject, false)
	} else {
		h = appendWrapped(h, subject, len(h), maxHeaderLine)
	}
	b.Write(h)
	b.WriteByte('\n')
}

func lastLineLen(b []byte) int {
	return len(b) - (bytes.LastIndexByte(b, '\n') + 1)
}

// needsRFC2047 is git's needs_rfc2047_encoding: non-ASCII, a newline,
// or "=?", which a reader would take for the start of an encoded word.
func needsRFC2047(s string) bool {
	for i := 0; i < len(s); i++ {
		if nonASCII(s[i]) || s[i] == '\n' {
			return true
		}
	}
	return strings.Contains(s, "=?")
}

// appendRFC2047 appends s as Q-encoded UTF-8 words, as git's add_rfc2047
// does: every byte of a multi-byte character and every special byte as
// =XX (spaces too, since many readers leave '_' alone), a word ended
// and a new line started before a character that would push the line
// past 76 columns, characters never split. A phrase (the From name)
// allows fewer bytes in the clear than a subject.
func appendRFC2047(b []byte, s string, phrase bool) []byte {
	const prefix, limit = "=?UTF-8?q?", 76
	lineLen := lastLineLen(b) + len(prefix)
	b = append(b, prefix...)
	for len(s) > 0 {
		n := utf8CharLen(s)
		special := n > 1 || rfc2047Special(s[0], phrase)
		encLen := n
		if special {
			encLen = 3 * n
		}
		if lineLen+encLen+len("?=") > limit {
			b = append(b, "?=\n "+prefix...)
			lineLen = len(prefix) + 1
		}
		for i := 0; i < n; i++ {
			if special {
				b = fmt.Appendf(b, "=%02X", s[i])
			} else {
				b = append(b, s[i])
			}
		}
		lineLen += encLen
		s = s[n:]
	}
	return append(b, "?="...)
}

// utf8CharLen is the length of the character s starts with, or 1 for
// a byte that starts no valid one. git's decoder also refuses U+FFFE
// and U+FFFF, which Go accepts.
func utf8CharLen(s string) int {
	r, n := utf8.DecodeRuneInString(s)
	if r == 0xfffe || r == 0xffff {
		return 1
	}
	return n
}

// rfc2047Special is git's is_rfc2047_special: bytes that must be
// encoded; in a phrase only letters, digits and "!*+-/" may stay.
func rfc2047Special(c byte, phrase bool) bool {
	if nonASCII(c) || c < 0x20 || c == 0x7f || c == ' ' || c == '=' || c == '?' || c == '_' {
		return true
	}
	if !phrase {
		return false
	}
	alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	return !alnum && !strings.ContainsRune("!*+-/", rune(c))
}

// appendWrapped appends ASCII text folded as git's
// strbuf_add_wrapped_text folds headers: used columns are taken on the
// current line, a line breaks at the space before the word that takes
// it past width columns and goes on indented by one space, and a word
// that fits on no line is put alone on a line of its own (so a header
// may end in a space). Tabs advance to the next multiple of 8 and
// control characters count as -1 column, as git's wcwidth has them.
func appendWrapped(b []byte, text string, used, width int) []byte {
	const indent = 1
	bol, space := 0, 0 // space < 0: no break point on this line yet
	w, lineIndent := used, 0
	i := 0
	for {
		if i < len(text) && !isCSpace(text[i]) {
			if c := text[i]; c < 0x20 || c == 0x7f {
				w--
			} else {
				w++
			}
			i++
			continue
		}
		if w <= width || space < 0 {
			if i == len(text) && i == bol {
				return b
			}
			start := bol
			if space >= 0 {
				start = space
			} else {
				b = append(b, strings.Repeat(" ", lineIndent)...)
			}
			b = append(b, text[start:i]...)
			if i == len(text) {
				return b
			}
			space = i
			if text[i] == '\t' {
				w |= 7
			}
			w++
			i++
			continue
		}
		b = append(b, '\n')
		bol = space
		if isCSpace(text[space]) {
			bol++
		}
		i, space = bol, -1
		w, lineIndent = indent, indent
	}
}

func isCSpace(c byte) bool {
	return c == ' ' || c >= '\t' && c <= '\r'
}
