package main

// Reply text on a terminal: a reply (and the repository's files it
// quotes) is untrusted, and an ESC or CSI sequence in a description, a
// reason or a quoted line could clear the screen, retitle the window
// or rewrite what the report says (SPEC section 5, "Messages and
// terminal").

import (
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// controlRune reports whether r is a control character a terminal acts
// on: C0 but line feed and tab, DEL, and C1 (U+0080-U+009F, which
// terminals also read as single bytes).
func controlRune(r rune) bool {
	return r < ' ' && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f
}

// termText escapes s for a terminal: each control character (see
// controlRune) is written as \xNN (C0 and DEL) or \u00NN (C1), and each
// byte that is not UTF-8 as \xNN, since a terminal reading Latin-1 takes
// the byte 0x9b for CSI. Line feeds and tabs stay: they lay the report
// out, and the quoted lines keep their indentation. Backslashes stay as
// they are, so that quoted code can be pasted back.
func termText(s string) string {
	if utf8.ValidString(s) && !strings.ContainsFunc(s, controlRune) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r < 0x80 && controlRune(r):
			fmt.Fprintf(&b, `\x%02x`, r)
		case controlRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// termWriter passes everything written to it through termText: the
// human report goes to standard error through it, so that no reply
// text, wherever the report quotes it, reaches the terminal unescaped.
// Each write must be whole (fmt.Fprintf's are).
type termWriter struct{ w io.Writer }

func (t termWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(t.w, termText(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// forTerminal returns w, or w through termWriter when w is a terminal:
// what a command writes on standard output for other programs (the
// diff translate prints for git apply) stays byte for byte on a pipe
// or in a file, and a person reading it on a terminal reads the reply's
// control characters escaped, as everywhere else.
func forTerminal(w io.Writer) io.Writer {
	if isTerminal(w) {
		return termWriter{w}
	}
	return w
}

// displayPath quotes a path holding a control character or bytes that
// are not UTF-8, as git quotes such paths, so that the path:line form
// and the report's lines stay whole.
func displayPath(p string) string {
	if !utf8.ValidString(p) || strings.ContainsFunc(p, func(r rune) bool { return r < ' ' || controlRune(r) }) {
		return strconv.Quote(p)
	}
	return p
}

// jsonSafe escapes, in JSON that encoding/json wrote, the C1 control
// characters and DEL it leaves raw (they are valid in JSON strings):
// \u0080-\u009f and \u007f decode to the same strings. They can only
// stand inside strings, as JSON's own syntax is printable ASCII.
func jsonSafe(b []byte) []byte {
	if !bytes.ContainsFunc(b, func(r rune) bool { return r >= 0x7f && r <= 0x9f }) {
		return b
	}
	var out bytes.Buffer
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r >= 0x7f && r <= 0x9f {
			fmt.Fprintf(&out, `\u%04x`, r)
		} else {
			out.Write(b[i : i+n])
		}
		i += n
	}
	return out.Bytes()
}
