package translate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The tool-calls reader needs the reply line of every call, however
// deep in a record it stands, and a record may be megabytes of JSON.
// encoding/json checks the syntax (and names the offset of an error);
// once a value is known to be valid, the spans below walk it in place,
// so that each call's offset is known without decoding its record
// twice and nothing is copied until a call's own fields are decoded.

// jsonValues splits src into its top-level JSON values (one value, an
// array, JSON Lines or values one after another), calling each with the
// byte span it occupies, in order. A syntax error stops the split: it
// returns the offset in src where the error was seen and the decoder's
// message.
func jsonValues(src string, each func(start, end int)) (errAt int, err error) {
	dec := json.NewDecoder(strings.NewReader(src))
	var skip json.RawMessage
	for {
		start := int(dec.InputOffset())
		start = skipSpace(src, start)
		e := dec.Decode(&skip)
		if e == io.EOF {
			return 0, nil
		}
		if e != nil {
			// Input cut short: the error is where the text stops.
			at := len(strings.TrimRight(src, " \t\r\n"))
			var se *json.SyntaxError
			if errors.As(e, &se) {
				at = int(se.Offset)
				if at > 0 {
					at-- // Offset counts the byte the error was seen at
				}
			}
			return min(at, len(src)), e
		}
		each(start, int(dec.InputOffset()))
	}
}

// skipSpace returns the first offset at or after i that is not JSON
// white space.
func skipSpace[T ~string | ~[]byte](s T, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	return i
}

// jsonEnd returns the end of the valid JSON value starting at i.
func jsonEnd[T ~string | ~[]byte](s T, i int) int {
	switch s[i] {
	case '"':
		return stringEnd(s, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(s); j++ {
			switch s[j] {
			case '"':
				j = stringEnd(s, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(s)
	}
	for j := i; j < len(s); j++ {
		switch s[j] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return j
		}
	}
	return len(s)
}

// stringEnd returns the end of the JSON string whose quote is at i.
func stringEnd[T ~string | ~[]byte](s T, i int) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(s)
}

// jsonFields calls each with the key and value span of every member of
// the valid JSON object starting at i, in order; it stops early when
// each returns false.
func jsonFields(s string, i int, each func(key string, start, end int) bool) {
	i = skipSpace(s, i+1)
	for i < len(s) && s[i] == '"' {
		kend := stringEnd(s, i)
		key := s[i+1 : kend-1]
		if strings.IndexByte(key, '\\') >= 0 {
			json.Unmarshal([]byte(s[i:kend]), &key)
		}
		vs := skipSpace(s, skipSpace(s, kend)+1) // past the colon
		ve := jsonEnd(s, vs)
		if !each(key, vs, ve) {
			return
		}
		i = skipSpace(s, ve)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
		}
	}
}

// jsonItems calls each with the span of every element of the valid
// JSON array starting at i.
func jsonItems(s string, i int, each func(start, end int)) {
	i = skipSpace(s, i+1)
	for i < len(s) && s[i] != ']' {
		e := jsonEnd(s, i)
		each(i, e)
		i = skipSpace(s, e)
		if i < len(s) && s[i] == ',' {
			i = skipSpace(s, i+1)
		}
	}
}

// jsonString decodes the JSON string value s (quotes included).
func jsonString(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' {
		return "", false
	}
	if inner := s[1 : len(s)-1]; strings.IndexByte(inner, '\\') < 0 {
		return inner, true
	}
	var out string
	return out, json.Unmarshal([]byte(s), &out) == nil
}

// unquote is the string the valid JSON string raw holds, as
// json.Unmarshal reads it (an escape of a lone surrogate, and each byte
// that is no UTF-8, become U+FFFD), in one pass and without
// reflection; false when raw is no string or not one unquote reads,
// which the caller leaves to json.Unmarshal.
func unquote(raw []byte) (string, bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", false
	}
	in := raw[1 : len(raw)-1]
	if bytes.IndexByte(in, '\\') < 0 && utf8.Valid(in) {
		for _, c := range in {
			if c < 0x20 || c == '"' {
				return "", false
			}
		}
		return string(in), true
	}
	// One allocation: the Builder's buffer becomes the string.
	var out strings.Builder
	out.Grow(len(in))
	for i := 0; i < len(in); {
		c := in[i]
		switch {
		case c == '\\':
			if i+1 >= len(in) {
				return "", false
			}
			i += 2
			switch e := in[i-1]; e {
			case '"', '\\', '/':
				out.WriteByte(e)
			case 'b':
				out.WriteByte('\b')
			case 'f':
				out.WriteByte('\f')
			case 'n':
				out.WriteByte('\n')
			case 'r':
				out.WriteByte('\r')
			case 't':
				out.WriteByte('\t')
			case 'u':
				r := hex4(in[i-2:])
				if r < 0 {
					return "", false
				}
				i += 4
				if utf16.IsSurrogate(r) {
					if d := utf16.DecodeRune(r, hex4(in[i:])); d != utf8.RuneError {
						r = d
						i += 6
					} else {
						r = utf8.RuneError
					}
				}
				out.WriteRune(r)
			default:
				return "", false
			}
		case c == '"' || c < 0x20:
			return "", false
		case c < utf8.RuneSelf:
			out.WriteByte(c)
			i++
		default:
			r, size := utf8.DecodeRune(in[i:])
			if r == utf8.RuneError && size == 1 {
				out.WriteRune(utf8.RuneError)
			} else {
				out.Write(in[i : i+size])
			}
			i += size
		}
	}
	return out.String(), true
}

// UnquoteJSON is unquote for the readers of session logs, which scan
// their records in place as the tool-calls reader does.
func UnquoteJSON(raw []byte) (string, bool) { return unquote(raw) }

// hex4 is the code point of the escape \uXXXX that b starts with; -1
// when b does not start with one.
func hex4(b []byte) rune {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range b[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r<<4 | rune(c)
	}
	return r
}

// lineIndex maps byte offsets of a text to 1-based lines and columns.
type lineIndex struct {
	text   string
	starts []int // offset of each line's first byte
	first  int   // the line number of the text's first line
}

func newLineIndex(text string, first int) *lineIndex {
	starts := []int{0}
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
		starts = append(starts, i)
	}
	return &lineIndex{text: text, starts: starts, first: first}
}

// line is the 1-based line holding offset at; column is its 1-based
// column in characters.
func (x *lineIndex) line(at int) (line, column int) {
	n := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > at }) - 1
	n = max(n, 0)
	if at > len(x.text) {
		at = len(x.text)
	}
	return x.first + n, utf8.RuneCountInString(x.text[x.starts[n]:at]) + 1
}

// decodeField decodes the JSON value raw into v, saying in a sentence
// what is wrong when its type is not v's. v is a string, a boolean, an
// integer or a list of args, none of which holds a number of unknown
// type, so json.Unmarshal serves: a Decoder per field allocated and
// filled a buffer of its own for every argument of every call.
func decodeField(name string, raw []byte, v any) error {
	if err := json.Unmarshal(raw, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return fmt.Errorf("%s is %s, not %s", name, jsonKind(raw), goKind(v))
		}
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// jsonKind names the JSON type of raw, for messages.
func jsonKind(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "empty"
	}
	switch raw[0] {
	case '"':
		return "a string"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

func goKind(v any) string {
	switch v.(type) {
	case *string:
		return "a string"
	case *bool:
		return "a boolean"
	case *int:
		return "an integer"
	}
	return "the expected type"
}

// validJSON is json.Valid in one direct pass: encoding/json's scanner
// steps a state function per byte, and checking each call's arguments
// with it was a tenth of the time of reading a long session. Nesting
// deeper than real arguments go is left to json.Valid.
func validJSON(b []byte) bool {
	v := jsonCheck{b: b}
	v.space()
	if !v.value(0) {
		return v.deep && json.Valid(b)
	}
	v.space()
	return v.i == len(b)
}

// JSONValueEnd checks the JSON value that starts at b[i] as
// encoding/json checks it and returns where it ends. ok is false for a
// value that is not valid and for one nested deeper than real tool
// arguments and log records go (deep then says so), which a caller
// leaves to encoding/json.
func JSONValueEnd(b []byte, i int) (end int, ok, deep bool) {
	v := jsonCheck{b: b, i: i}
	ok = v.value(0)
	return v.i, ok, v.deep
}

type jsonCheck struct {
	b    []byte
	i    int
	deep bool // the value nests deeper than value follows
}

func (v *jsonCheck) space() {
	for v.i < len(v.b) {
		switch v.b[v.i] {
		case ' ', '\t', '\n', '\r':
			v.i++
		default:
			return
		}
	}
}

// eat consumes c, after white space.
func (v *jsonCheck) eat(c byte) bool {
	v.space()
	if v.i < len(v.b) && v.b[v.i] == c {
		v.i++
		return true
	}
	return false
}

func (v *jsonCheck) value(depth int) bool {
	if depth > 200 {
		v.deep = true
		return false
	}
	if v.i >= len(v.b) {
		return false
	}
	switch c := v.b[v.i]; c {
	case '"':
		return v.str()
	case '{':
		v.i++
		if v.eat('}') {
			return true
		}
		for {
			v.space()
			if !v.str() || !v.eat(':') {
				return false
			}
			v.space()
			if !v.value(depth + 1) {
				return false
			}
			if v.eat(',') {
				continue
			}
			return v.eat('}')
		}
	case '[':
		v.i++
		if v.eat(']') {
			return true
		}
		for {
			v.space()
			if !v.value(depth + 1) {
				return false
			}
			if v.eat(',') {
				continue
			}
			return v.eat(']')
		}
	case 't':
		return v.word("true")
	case 'f':
		return v.word("false")
	case 'n':
		return v.word("null")
	}
	return v.number()
}

func (v *jsonCheck) word(w string) bool {
	if len(v.b)-v.i >= len(w) && string(v.b[v.i:v.i+len(w)]) == w {
		v.i += len(w)
		return true
	}
	return false
}

// str checks the string that stands here (JSONStringEnd).
func (v *jsonCheck) str() bool {
	end, _, ok := JSONStringEnd(v.b, v.i)
	if ok {
		v.i = end
	}
	return ok
}

// JSONStringEnd is the end of the JSON string whose quote is at b[i],
// checked as encoding/json checks it (escapes, no control characters;
// bytes that are no UTF-8 pass), and whether it is plain: ASCII
// without escapes, its bytes between the quotes its value.
func JSONStringEnd(b []byte, i int) (end int, plain, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return 0, false, false
	}
	plain = true
	for j := i + 1; j < len(b); j++ {
		switch c := b[j]; {
		case c == '"':
			return j + 1, plain, true
		case c == '\\':
			plain = false
			if j+1 >= len(b) {
				return 0, false, false
			}
			j++
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if hex4(b[j-1:]) < 0 {
					return 0, false, false
				}
				j += 4
			default:
				return 0, false, false
			}
		case c < 0x20:
			return 0, false, false
		case c >= 0x80:
			plain = false
		}
	}
	return 0, false, false
}

// number checks -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (v *jsonCheck) number() bool {
	b, i := v.b, v.i
	digits := func() bool {
		j := i
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	v.i = i
	return true
}
