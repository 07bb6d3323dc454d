package translate

// The tag reader of udiffx: opening tags with their quoted attributes,
// closing tags, and where they stand in the reply text.

import (
	"fmt"
	"strings"
)

// udxTag is an opening tag as read.
type udxTag struct {
	name  string            // upper-cased
	attrs map[string]string // by lower-cased name, values trimmed
	order []string          // attribute names in the order written
	self  bool              // self-closing ("/>")
	end   int               // offset after its ">"
}

// attr returns the first non-empty value of the attributes names.
func (t udxTag) attr(names ...string) string {
	for _, n := range names {
		if v := t.attrs[n]; v != "" {
			return v
		}
	}
	return ""
}

// somePath names the file a tag is about, for a failure: the value of
// its first path-like attribute, even a misspelt one.
func (t udxTag) somePath() string {
	return t.attr("file_path", "from_path", "path", "file", "to_path")
}

// udxOpenTag reads the opening tag at offset at of s ("<FILE_..."):
// attributes with single, double or typographic quotes or none, spaces
// anywhere between them, over up to udxTagLines lines as long as no
// line starts with "<" first. bad says what is wrong with a tag that cannot be
// read; the tag holds what was read before.
func udxOpenTag(s string, at int) (tag udxTag, bad string) {
	i := at + 1
	j := i
	for j < len(s) && udxNameByte(s[j]) {
		j++
	}
	tag.name, tag.attrs = strings.ToUpper(s[i:j]), map[string]string{}
	i = j
	newlines := 0
	for {
		for i < len(s) && (udxBlank(s[i]) || s[i] == '\n') {
			if s[i] == '\n' {
				if newlines++; newlines >= udxTagLines {
					return tag, `has no closing ">"`
				}
				if k := udxSkipBlanks(s, i+1); k < len(s) && s[k] == '<' {
					return tag, `has no closing ">"`
				}
			}
			i++
		}
		if i >= len(s) {
			return tag, `has no closing ">"`
		}
		switch s[i] {
		case '>':
			tag.end = i + 1
			return tag, ""
		case '/':
			if k := udxSkipBlanks(s, i+1); k < len(s) && s[k] == '>' {
				tag.self, tag.end = true, k+1
				return tag, ""
			}
			i++ // a stray slash
			continue
		}
		j = i
		for j < len(s) && !strings.ContainsRune(" \t\r\n=>/\"'", rune(s[j])) {
			j++
		}
		if j == i {
			return tag, fmt.Sprintf("has %q where an attribute name belongs", s[i:i+1])
		}
		name := strings.ToLower(s[i:j])
		i = udxSkipBlanks(s, j)
		value := ""
		if i < len(s) && s[i] == '=' {
			v, next, ok := udxValue(s, udxSkipBlanks(s, i+1))
			if !ok {
				return tag, fmt.Sprintf("has no closing quote after %s=", name)
			}
			value, i = v, next
		}
		if _, dup := tag.attrs[name]; !dup {
			tag.attrs[name] = strings.TrimSpace(value)
			tag.order = append(tag.order, name)
		}
	}
}

// udxTagLines bounds the lines one tag may span.
const udxTagLines = 20

// udxQuotes pairs the quotes an attribute value may stand in.
var udxQuotes = [][2]string{{`"`, `"`}, {"'", "'"}, {"\u201c", "\u201d"}, {"\u201d", "\u201d"}, {"\u2018", "\u2019"}, {"\u2019", "\u2019"}}

// udxValue reads the attribute value at offset i of s: quoted (the
// closing quote on the same line) or bare (up to a blank or ">"). It
// returns the value and the offset after it; ok is false for a quote
// that is not closed on its line.
func udxValue(s string, i int) (value string, next int, ok bool) {
	for _, q := range udxQuotes {
		if !strings.HasPrefix(s[i:], q[0]) {
			continue
		}
		rest := s[i+len(q[0]):]
		k := strings.Index(rest, q[1])
		if nl := strings.IndexAny(rest, "\r\n"); k < 0 || nl >= 0 && nl < k {
			return "", i, false
		}
		return rest[:k], i + len(q[0]) + k + len(q[1]), true
	}
	j := i
	for j < len(s) && !strings.ContainsRune(" \t\r\n>", rune(s[j])) {
		j++
	}
	if j > i && s[j-1] == '/' && j < len(s) && s[j] == '>' {
		j-- // "file_path=a.txt/>": the slash closes the tag
	}
	return s[i:j], j, true
}

// udxSkipBlanks skips blanks from offset i of s.
func udxSkipBlanks(s string, i int) int {
	for i < len(s) && udxBlank(s[i]) {
		i++
	}
	return i
}

// udxBlank reports whether c is a blank within a line (a lone "\r"
// counts: a line break that splitLines kept).
func udxBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// udxNameByte reports whether c may stand in a tag name.
func udxNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// udxTagAt returns the upper-cased name of the "<FILE_..." tag (with
// closing, also "</FILE_...") at offset off of s; "" when there is none.
func udxTagAt(s string, off int, closing bool) string {
	i := off + 1
	if closing && i < len(s) && s[i] == '/' {
		i++
	}
	if off >= len(s) || s[off] != '<' || len(s)-i < 5 || !strings.EqualFold(s[i:i+5], "FILE_") {
		return ""
	}
	j := i + 5
	for j < len(s) && udxNameByte(s[j]) {
		j++
	}
	return strings.ToUpper(s[i:j])
}

// udxIndexClose returns the offset of the first closing tag of name
// ("</NAME", any case, not followed by a name character) in s from
// offset from on; -1 when there is none.
func udxIndexClose(s string, from int, name string) int {
	for off := from; off < len(s); {
		i := strings.Index(s[off:], "</")
		if i < 0 {
			return -1
		}
		off += i
		if udxTagAt(s, off, true) == name {
			return off
		}
		off += 2
	}
	return -1
}

// udxCloseTag reads the closing tag at offset at of s and returns its
// upper-cased name and the offset after it (after its ">" when one
// follows, blanks aside).
func udxCloseTag(s string, at int) (string, int) {
	i := at + 2
	j := i
	for j < len(s) && udxNameByte(s[j]) {
		j++
	}
	end := j
	if k := udxSkipBlanks(s, j); k < len(s) && s[k] == '>' {
		end = k + 1
	}
	return strings.ToUpper(s[i:j]), end
}
