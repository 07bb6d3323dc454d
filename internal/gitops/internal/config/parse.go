package config

// The syntax of a configuration file, as git's config.c parses it
// (git_parse_source): sections "[name]", "[name "subsection"]" and the
// older "[name.subsection]", variables "name = value" or a bare "name"
// (true), '#' and ';' comments, quoted values, the escapes \" \\ \n \t
// \b and a backslash ending a line to continue it. Parsed here rather
// than with go-git's gcfg, whose encoding/gob and math/big imports
// cost every run their package initialisation.

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// parseFile calls fn with each variable of a configuration file in
// order: its section (as written), subsection (case kept), name (as
// written), value, and blank when the variable has no "=" (a bare
// name, which git takes as true). An error names the line.
func parseFile(data []byte, fn func(sect, sub, key, value string, blank bool) error) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	p := &parser{data: data, line: 1}
	var sect, sub string
	for {
		p.skipSpace(true)
		c, ok := p.peek()
		if !ok {
			return nil
		}
		switch {
		case c == '\n':
			p.next()
		case c == '#' || c == ';':
			p.skipLine()
		case c == '[':
			p.next()
			var err error
			if sect, sub, err = p.header(); err != nil {
				return p.fail(err)
			}
		case isAlpha(c):
			// git accepts a variable before any section; its name has
			// no section, and no key names it.
			key, value, blank, err := p.variable()
			if err != nil {
				return p.fail(err)
			}
			if err := fn(sect, sub, key, value, blank); err != nil {
				return err
			}
		default:
			return p.fail(fmt.Errorf("unexpected %q", c))
		}
	}
}

type parser struct {
	data []byte
	pos  int
	line int
}

func (p *parser) fail(err error) error { return fmt.Errorf("line %d: %w", p.line, err) }

// peek returns the next character, a "\r\n" read as "\n".
func (p *parser) peek() (byte, bool) {
	if p.pos >= len(p.data) {
		return 0, false
	}
	c := p.data[p.pos]
	if c == '\r' && p.pos+1 < len(p.data) && p.data[p.pos+1] == '\n' {
		return '\n', true
	}
	return c, true
}

func (p *parser) next() (byte, bool) {
	c, ok := p.peek()
	if !ok {
		return 0, false
	}
	if p.data[p.pos] == '\r' && c == '\n' {
		p.pos++
	}
	p.pos++
	if c == '\n' {
		p.line++
	}
	return c, true
}

// skipSpace skips spaces and tabs (and line ends when lines is set).
func (p *parser) skipSpace(lines bool) {
	for {
		c, ok := p.peek()
		if !ok || !(isSpace(c) || lines && c == '\n') {
			return
		}
		p.next()
	}
}

func (p *parser) skipLine() {
	for {
		c, ok := p.next()
		if !ok || c == '\n' {
			return
		}
	}
}

// header reads a section header after its '['.
func (p *parser) header() (sect, sub string, err error) {
	var name strings.Builder
	for {
		c, ok := p.next()
		switch {
		case !ok || c == '\n':
			return "", "", errors.New("unterminated section header")
		case c == ']':
			if name.Len() == 0 {
				return "", "", errors.New("empty section name")
			}
			return name.String(), "", nil
		case isSpace(c):
			if name.Len() == 0 {
				return "", "", errors.New("empty section name")
			}
			p.skipSpace(false)
			if c, _ := p.next(); c != '"' {
				return "", "", errors.New("malformed section header: a subsection must be quoted")
			}
			s, err := p.subsection()
			return name.String(), s, err
		case isAlnum(c) || c == '-' || c == '.':
			name.WriteByte(c)
		default:
			return "", "", fmt.Errorf("invalid character %q in a section name", c)
		}
	}
}

// subsection reads a quoted subsection name after its '"', and the
// header's closing ']'.
func (p *parser) subsection() (string, error) {
	var b strings.Builder
	for {
		c, ok := p.next()
		if !ok || c == '\n' {
			return "", errors.New("unterminated subsection name")
		}
		if c == '"' {
			break
		}
		if c == '\\' {
			if c, ok = p.next(); !ok || c == '\n' {
				return "", errors.New("unterminated subsection name")
			}
		}
		b.WriteByte(c)
	}
	if c, _ := p.next(); c != ']' {
		return "", errors.New("malformed section header: no ']' after the subsection")
	}
	return b.String(), nil
}

// variable reads a variable's name and, after an '=', its value.
func (p *parser) variable() (key, value string, blank bool, err error) {
	start := p.pos
	for {
		c, ok := p.peek()
		if !ok || !(isAlnum(c) || c == '-') {
			break
		}
		p.next()
	}
	key = string(p.data[start:p.pos])
	p.skipSpace(false)
	c, ok := p.peek()
	switch {
	case !ok || c == '\n':
		p.next()
		return key, "", true, nil
	case c != '=': // a comment too, as for git
		return "", "", false, fmt.Errorf("invalid character %q in variable %s", c, key)
	}
	p.next()
	value, err = p.value()
	return key, value, false, err
}

// value reads a value up to its line's end (git's parse_value):
// leading and trailing blanks dropped, blanks inside kept (each as a
// space) unless quoted, comments outside quotes dropped.
func (p *parser) value() (string, error) {
	var b strings.Builder
	quote, comment := false, false
	spaces := 0
	for {
		c, ok := p.next()
		if !ok || c == '\n' {
			if quote {
				return "", errors.New("unterminated quoted value")
			}
			return b.String(), nil
		}
		if comment {
			continue
		}
		if isSpace(c) && !quote {
			if b.Len() > 0 {
				spaces++
			}
			continue
		}
		if !quote && (c == ';' || c == '#') {
			comment = true
			continue
		}
		for ; spaces > 0; spaces-- {
			b.WriteByte(' ')
		}
		switch c {
		case '\\':
			e, ok := p.next()
			switch {
			case !ok:
				return b.String(), nil // git reads the file's end as a line's
			case e == '\n':
				continue // the value goes on on the next line
			case e == 't':
				e = '\t'
			case e == 'b':
				e = '\b'
			case e == 'n':
				e = '\n'
			case e == '\\' || e == '"':
			default:
				return "", fmt.Errorf("unknown escape \\%c", e)
			}
			b.WriteByte(e)
		case '"':
			quote = !quote
		default:
			b.WriteByte(c)
		}
	}
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' }
func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isAlnum(c byte) bool { return isAlpha(c) || c >= '0' && c <= '9' }
