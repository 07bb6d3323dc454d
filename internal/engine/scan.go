package engine

import "strings"

// scanner finds the structural characters of code lines (brackets,
// braces, colons) outside strings and comments, carrying the state of
// block comments and multi-line strings from one line to the next.
type scanner struct {
	python bool
	quotes string // single-line string quotes
	raw    bool   // backtick strings span lines (Go, JavaScript)
	rust   bool
	// state between lines: inside a block comment, or a multi-line
	// string that ends with close.
	inBlock bool
	close   string
}

// token is a structural character and its byte offset in the line.
type token struct {
	c  byte
	at int
}

func newScanner(lang string) *scanner {
	switch lang {
	case "py", "pyi":
		return &scanner{python: true, quotes: `"'`}
	case "go", "js", "jsx", "mjs", "cjs", "ts", "tsx":
		return &scanner{quotes: `"'`, raw: true}
	case "rs":
		return &scanner{quotes: `"'`, rust: true}
	}
	return &scanner{quotes: `"'`}
}

// inString reports whether the next line starts inside a multi-line
// string.
func (s *scanner) inString() bool { return s.close != "" }

// tokens returns the structural characters of one line.
func (s *scanner) tokens(line string) []token {
	var out []token
	i := 0
	for i < len(line) {
		switch {
		case s.inBlock:
			end := strings.Index(line[i:], "*/")
			if end < 0 {
				return out
			}
			i, s.inBlock = i+end+2, false
			continue
		case s.close != "":
			end := strings.Index(line[i:], s.close)
			if end < 0 {
				return out
			}
			i, s.close = i+end+len(s.close), ""
			continue
		}
		rest := line[i:]
		c := line[i]
		switch {
		case s.python && c == '#', !s.python && strings.HasPrefix(rest, "//"):
			return out
		case !s.python && strings.HasPrefix(rest, "/*"):
			i, s.inBlock = i+2, true
		case s.python && (strings.HasPrefix(rest, `"""`) || strings.HasPrefix(rest, "'''")):
			i, s.close = i+3, rest[:3]
		case !s.python && c == 'R' && strings.HasPrefix(rest, `R"`) && strings.Contains(rest, "("):
			delim := rest[2:strings.Index(rest, "(")]
			i, s.close = i+3+len(delim), ")"+delim+`"`
		case s.rust && c == 'r' && (strings.HasPrefix(rest, `r"`) || strings.HasPrefix(rest, `r#`)):
			hashes := len(rest[1:]) - len(strings.TrimLeft(rest[1:], "#"))
			if !strings.HasPrefix(rest[1+hashes:], `"`) {
				i++
				continue
			}
			i, s.close = i+2+hashes, `"`+strings.Repeat("#", hashes)
		case s.raw && c == '`':
			i, s.close = i+1, "`"
		case c == '\'' && !s.python && !charLiteral(rest):
			i++ // a Rust lifetime or an apostrophe, not a quote
		case strings.IndexByte(s.quotes, c) >= 0:
			i = skipString(line, i)
		case strings.IndexByte("{}()[]:", c) >= 0:
			out = append(out, token{c, i})
			i++
		default:
			i++
		}
	}
	return out
}

// charLiteral reports whether rest (starting with a quote) opens a
// character literal: 'x' or an escape.
func charLiteral(rest string) bool {
	return len(rest) >= 3 && (rest[1] == '\\' || rest[2] == '\'')
}

// skipString returns the offset after the string literal opened at i.
func skipString(line string, i int) int {
	q := line[i]
	for j := i + 1; j < len(line); j++ {
		switch line[j] {
		case '\\':
			j++
		case q:
			return j + 1
		}
	}
	return len(line)
}
