package translate

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

// loadChunkFast builds the node tree yaml.Load would build from the
// document lines, for the plain shape CHUNK replies take: block
// mappings and sequences of mappings, keys that are bare names, values
// that are one-line plain words or literal block scalars (| and |-).
// Anything else, or anything it is not sure of, returns false and the
// caller lets yaml.Load read the document, so that a reply decodes
// alike either way and every error and refusal (aliases, tags, tabs)
// stays yaml's; FuzzChunkFast holds the two to the same tree. yaml's
// general parser spends most of a large reply's reading time; this
// reads each line once.
func loadChunkFast(lines []string) (*yaml.Node, bool) {
	for _, l := range lines {
		if !yamlPlainLine(l) {
			return nil, false
		}
	}
	p := &chunkFast{lines: lines}
	p.skip()
	if p.i >= len(lines) || indentOf(lines[p.i]) != 0 {
		return nil, false
	}
	top, ok := p.mapping(0, p.i, 0)
	if !ok {
		return nil, false
	}
	if p.skip(); p.i < len(lines) {
		return nil, false
	}
	doc := p.node(yaml.Node{Kind: yaml.DocumentNode, Line: top.Line, Column: 1, Content: []*yaml.Node{top}})
	return doc, true
}

// yamlPlainLine reports whether a line holds only characters that YAML
// reads as text and no others: no control characters but tab, no
// carriage return, none of the line breaks YAML 1.1 adds (NEL, LS,
// PS), no byte-order mark, valid UTF-8.
func yamlPlainLine(l string) bool {
	for i := 0; i < len(l); {
		b := l[i]
		if b < utf8.RuneSelf {
			if b < 0x20 && b != '\t' || b == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(l[i:])
		switch {
		case r == utf8.RuneError && size == 1,
			r < 0xa0, r == 0x2028, r == 0x2029, r == 0xfeff,
			r >= 0xd800 && r < 0xe000, r == 0xfffe, r == 0xffff:
			return false
		}
		i += size
	}
	return true
}

// chunkFast reads document lines from line i on.
type chunkFast struct {
	lines []string
	i     int
	depth int // collections open, kept far below yaml's limit
	// nodes and ptrs are slabs the tree's nodes and their Content are
	// cut from, and stack holds the children of the collections open:
	// a reply of 10,000 operations makes 90,000 nodes.
	nodes []yaml.Node
	ptrs  []*yaml.Node
	stack []*yaml.Node
}

// node returns a new node holding n.
func (p *chunkFast) node(n yaml.Node) *yaml.Node {
	if len(p.nodes) == cap(p.nodes) {
		p.nodes = make([]yaml.Node, 0, 1024)
	}
	p.nodes = append(p.nodes, n)
	return &p.nodes[len(p.nodes)-1]
}

// children pops the stack down to base into a Content slice.
func (p *chunkFast) children(base int) []*yaml.Node {
	kids := p.stack[base:]
	if len(kids) > cap(p.ptrs)-len(p.ptrs) {
		p.ptrs = make([]*yaml.Node, 0, max(4096, len(kids)))
	}
	n := len(p.ptrs)
	p.ptrs = append(p.ptrs, kids...)
	p.stack = p.stack[:base]
	return p.ptrs[n:len(p.ptrs):len(p.ptrs)]
}

// chunkFastDepth is the deepest nesting loadChunkFast reads; a CHUNK
// document needs three.
const chunkFastDepth = 32

// indentOf counts a line's leading spaces.
func indentOf(l string) int { return countPrefix(l, ' ') }

// skip passes blank lines and comment lines.
func (p *chunkFast) skip() {
	for ; p.i < len(p.lines); p.i++ {
		t := strings.TrimLeft(p.lines[p.i], " ")
		if t != "" && t[0] != '#' {
			return
		}
	}
}

// significant returns the indentation and text of the next line that
// is neither blank nor a comment, having skipped to it; ok is false at
// the end.
func (p *chunkFast) significant() (indent int, text string, ok bool) {
	p.skip()
	if p.i >= len(p.lines) {
		return 0, "", false
	}
	l := p.lines[p.i]
	n := indentOf(l)
	return n, l[n:], true
}

// mapping reads a block mapping whose keys stand at column col, the
// first on line first at byte off (after a sequence's "- ").
func (p *chunkFast) mapping(col, first, off int) (*yaml.Node, bool) {
	if p.depth++; p.depth > chunkFastDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	m := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: first + 1, Column: col + 1})
	base := len(p.stack)
	for {
		text := p.lines[p.i][off:]
		key, rest, ok := cutYAMLKey(text)
		if !ok {
			return nil, false
		}
		for i := base; i < len(p.stack); i += 2 {
			if p.stack[i].Value == key {
				return nil, false // yaml's duplicate-key error, or ours: either way its path
			}
		}
		k := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: key, Line: p.i + 1, Column: col + 1})
		p.stack = append(p.stack, k)
		v, ok := p.value(col, rest, len(p.lines[p.i])-len(rest))
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, v)
		n, t, more := p.significant()
		if !more || n < col {
			m.Content = p.children(base)
			return m, true
		}
		if n > col || strings.HasPrefix(t, "-") {
			// a line deeper than the keys, or a sequence item where a
			// key belongs: yaml's to judge
			return nil, false
		}
		off = n
	}
}

// value reads the value of a key at column col whose line, after the
// colon, is rest (starting at byte at of the line), and moves past it.
func (p *chunkFast) value(col int, rest string, at int) (*yaml.Node, bool) {
	line := p.i
	v := strings.Trim(rest, " ")
	switch {
	case v == "":
		p.i++
		n, t, ok := p.significant()
		switch {
		case !ok:
			return nil, false // null: its line is yaml's to give
		case n > col && !strings.HasPrefix(t, "-"):
			return p.mapping(n, p.i, n)
		case n >= col && (t == "-" || strings.HasPrefix(t, "- ")):
			return p.sequence(n)
		}
		return nil, false
	case v == "|" || v == "|-":
		return p.literal(col, v == "|-")
	case !plainYAMLWord(v):
		return nil, false
	}
	start := strings.IndexByte(rest, v[0]) + at
	p.i++
	if n, _, ok := p.significant(); ok && n > col {
		return nil, false // a plain scalar folded over lines
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: v, Line: line + 1, Column: start + 1}), true
}

// sequence reads a block sequence whose dashes stand at column col,
// each item a mapping on the dash's line.
func (p *chunkFast) sequence(col int) (*yaml.Node, bool) {
	if p.depth++; p.depth > chunkFastDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	s := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: p.i + 1, Column: col + 1})
	base := len(p.stack)
	for {
		l := p.lines[p.i]
		if len(l) < col+2 || l[col+1] != ' ' {
			return nil, false // "-" alone: an item below it
		}
		key := col + 2 + indentOf(l[col+2:])
		item, ok := p.mapping(key, p.i, key)
		if !ok {
			return nil, false
		}
		p.stack = append(p.stack, item)
		n, t, more := p.significant()
		if !more || n < col || n == col && !strings.HasPrefix(t, "-") {
			s.Content = p.children(base)
			return s, true
		}
		if n > col || !strings.HasPrefix(t, "- ") {
			return nil, false
		}
	}
}

// literal reads a literal block scalar, its header on the current line
// under a key at column col: the lines indented as the first non-blank
// one, that indentation removed, joined with a line feed after each
// (none after the last when strip, "|-").
func (p *chunkFast) literal(col int, strip bool) (*yaml.Node, bool) {
	head := p.i
	p.i++
	if p.i >= len(p.lines) || strings.TrimLeft(p.lines[p.i], " ") == "" {
		return nil, false // leading blank lines set the indentation by rules of their own
	}
	indent := indentOf(p.lines[p.i])
	if indent <= col {
		return nil, false // empty
	}
	from, last := p.i, p.i // last: the last line with text
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		n := indentOf(l)
		if n == len(l) {
			if n > indent {
				return nil, false // spaces past the indentation are text
			}
			continue
		}
		if n < indent {
			break
		}
		last = p.i
	}
	var b strings.Builder
	size := 0
	for _, l := range p.lines[from : last+1] {
		size += len(l) + 1
	}
	b.Grow(size)
	for i, l := range p.lines[from : last+1] {
		if i > 0 {
			b.WriteByte('\n')
		}
		if len(l) > indent {
			b.WriteString(l[indent:])
		}
	}
	if !strip {
		b.WriteByte('\n')
	}
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Style: yaml.LiteralStyle, Value: b.String(), Line: head + 1}), true
}

// cutYAMLKey splits "name: rest" or "name:" where name is a bare word.
func cutYAMLKey(s string) (key, rest string, ok bool) {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '-')) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != ':' || yamlKeyword(s[:i]) {
		return "", "", false
	}
	rest = s[i+1:]
	if rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	return s[:i], rest, true
}

// plainYAMLWord reports whether a one-line plain scalar, trimmed, is
// surely the string it spells: it starts with a letter (so no
// indicator, number, date or special float), is no YAML 1.1 or 1.2
// boolean or null, and holds nothing that could end it or start a
// comment, a mapping or a flow collection.
func plainYAMLWord(v string) bool {
	c := v[0]
	if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_') {
		return false
	}
	if yamlKeyword(v) {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= utf8.RuneSelf, c == '\t', c == '#', c == ':',
			c == '[', c == ']', c == '{', c == '}', c == ',':
			return false
		}
	}
	return true
}

// yamlKeyword reports whether a word is a boolean or null in YAML 1.1
// or 1.2, in any case.
func yamlKeyword(w string) bool {
	switch strings.ToLower(w) {
	case "true", "false", "yes", "no", "on", "off", "y", "n", "null":
		return true
	}
	return false
}
