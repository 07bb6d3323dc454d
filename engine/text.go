package engine

import (
	"bytes"
	"strings"
)

// doc is a text file as the engine edits it: its lines with their own
// terminators, so that every line an edit does not touch is written
// back byte for byte.
type doc struct {
	lines []string // each with its terminator ("\n", "\r\n", or "" for a last line without one)
	eol   string   // the file's line ending for lines the reply adds
	final bool     // the file ends with a line terminator (or is empty)
}

func newDoc(data []byte) *doc {
	d := &doc{final: true}
	s := string(data)
	crlf, lf := 0, 0
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			d.lines = append(d.lines, s)
			d.final = false
			break
		}
		line := s[:i+1]
		if i > 0 && s[i-1] == '\r' {
			crlf++
		} else {
			lf++
		}
		d.lines = append(d.lines, line)
		s = s[i+1:]
	}
	d.eol = "\n"
	if crlf > lf {
		d.eol = "\r\n"
	}
	return d
}

// content returns line i without its terminator (a CR before the LF
// counts as part of the terminator: CRLF and LF are the same).
func (d *doc) content(i int) string { return trimEOL(d.lines[i]) }

func trimEOL(s string) string {
	s = strings.TrimSuffix(s, "\n")
	return strings.TrimSuffix(s, "\r")
}

// bytes joins the lines, giving every line but the last a terminator
// and the last one the file's original final-newline state.
func (d *doc) bytes() []byte {
	var b bytes.Buffer
	for i, l := range d.lines {
		last := i == len(d.lines)-1
		body := trimEOL(l)
		term := l[len(body):]
		switch {
		case last && !d.final:
			term = ""
		case term == "":
			term = d.eol
		}
		b.WriteString(body)
		b.WriteString(term)
	}
	return b.Bytes()
}

// splice replaces lines [from, to) with repl.
func (d *doc) splice(from, to int, repl []string) {
	tail := append([]string(nil), d.lines[to:]...)
	d.lines = append(append(d.lines[:from], repl...), tail...)
}

// isBinary reports whether data looks binary the way git decides it: a
// NUL byte in the first 8000 bytes.
func isBinary(data []byte) bool {
	if len(data) > 8000 {
		data = data[:8000]
	}
	return bytes.IndexByte(data, 0) >= 0
}

// indentUnit guesses one level of indentation in the file: "\t" when
// tab-indented lines dominate, else the most common step between the
// indents of consecutive lines, else four spaces.
func (d *doc) indentUnit() string {
	tabs, spaces := 0, 0
	steps := map[int]int{}
	prev := 0
	for i := range d.lines {
		c := d.content(i)
		if strings.TrimSpace(c) == "" {
			continue
		}
		ws := c[:len(c)-len(strings.TrimLeft(c, " \t"))]
		switch {
		case strings.HasPrefix(ws, "\t"):
			tabs++
		case ws != "":
			spaces++
		}
		n := len(strings.TrimLeft(ws, "\t"))
		if !strings.HasPrefix(ws, "\t") && n > prev {
			steps[n-prev]++
		}
		prev = n
	}
	if tabs > spaces {
		return "\t"
	}
	best, bestN := 4, 0
	for step, n := range steps {
		if n > bestN || (n == bestN && step < best) {
			best, bestN = step, n
		}
	}
	return strings.Repeat(" ", best)
}
