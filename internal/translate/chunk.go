package translate

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.yaml.in/yaml/v4"
)

// FormatChunk is the CHUNK YAML patch format: a YAML document whose
// operations list names ops such as replace_text and create_file.
const FormatChunk = "chunk"

// MaxChunkReply is the largest reply, in bytes, the CHUNK reader reads.
const MaxChunkReply = 8 << 20

// readChunk reads a reply in the CHUNK format: a YAML document with
// description, language and operations, standing alone or inside a
// ```` ```yaml ```` or ```` ```yml ```` fence (or an unlabelled fence
// holding an operations key). Several such fences are read in order.
// The reply's lines outside them are Reply.Prose, fenced shell
// commands Reply.Shell, and description is Reply.Description.
//
// Every operation gets Format "chunk", the reply line of its list item,
// its comment, and the document's language. create_file is a Create
// that overwrites, delete_file a Delete, and the text and block ops
// Edits (never FirstMatch: a marker found in several places is
// ambiguous). A language other than those the engine knows is kept,
// with a warning.
//
// It returns what it parsed so far together with any error: a
// *ParseError naming the reply line for a reply larger than
// MaxChunkReply, malformed YAML, YAML anchors or aliases, duplicate
// keys, unknown fields, an unknown op or indent mode, or a missing
// required field; ErrNoEdits when the reply holds no CHUNK document or
// its operations list is empty.
func readChunk(text string) (*Reply, error) {
	r := &Reply{Format: FormatChunk}
	if len(text) > MaxChunkReply {
		return r, parseErr(FormatChunk, 1, "the reply is %d bytes; a CHUNK reply may hold at most %d", len(text), MaxChunkReply)
	}
	lines := splitLines(text)
	sp := splitChunk(lines)
	r.Prose, r.Shell = sp.prose, sp.shell
	if len(sp.docs) == 0 {
		return r, ErrNoEdits
	}
	var descs []string
	for _, d := range sp.docs {
		c := &chunkReader{reply: r, lines: lines, doc: d}
		err := c.read()
		if c.desc != "" {
			descs = append(descs, c.desc)
		}
		r.Description = strings.Join(descs, "\n\n")
		if err != nil {
			return r, err
		}
	}
	sortWarnings(r.Warnings)
	if len(r.Ops) == 0 {
		return r, ErrNoEdits
	}
	return r, nil
}

// chunkDoc is the part of a reply that holds one CHUNK document: the
// 0-based lines [start, end).
type chunkDoc struct{ start, end int }

// chunkSplit is what splitChunk found in a reply.
type chunkSplit struct {
	docs  []chunkDoc
	prose []string
	shell []Shell
}

var (
	// chunkOpsKey is a top-level operations key.
	chunkOpsKey = lazyRegexpOf(`^operations[ \t]*:`)
	// yamlKey is a top-level key of a YAML mapping.
	yamlKey = lazyRegexpOf(`^[A-Za-z_][\w.-]*[ \t]*:([ \t]|$)`)
)

// splitChunk finds the CHUNK documents of a reply: the fences labelled
// yaml, yml or chunk, or unlabelled, whose content has a top-level
// operations key; when there is none, the reply from its first
// top-level operations key to its end, together with the lines right
// above that key that read as YAML (see yamlish), so that a misspelt
// key is reported rather than taken for prose. A fence holding a
// document closes only at a backtick line indented at most three
// spaces, so that a payload may hold fences of its own.
func splitChunk(lines []string) chunkSplit {
	var sp chunkSplit
	kind := make([]lineKind, len(lines))
	for i := 0; i < len(lines); {
		f, ok := openFence(strings.TrimSpace(lines[i]))
		if !ok {
			i++
			continue
		}
		lang := f.lang()
		doc := lang == "yaml" || lang == "yml" || lang == "chunk" || lang == ""
		j := i + 1
		for ; j < len(lines); j++ {
			if doc && f.ticks > 0 {
				if leadingSpaces(lines[j]) <= 3 && f.closes(strings.TrimSpace(lines[j])) {
					break
				}
			} else if f.closes(strings.TrimSpace(lines[j])) {
				break
			}
		}
		end := min(j+1, len(lines)) // the line after the closing fence
		k := kFenced
		switch {
		case doc && hasLine(lines[i+1:j], chunkOpsKey):
			sp.docs = append(sp.docs, chunkDoc{i + 1, j})
			k = kBlock
		case f.isShell():
			sp.shell = append(sp.shell, Shell{Line: i + 1, Lang: f.info, Text: joinLines(lines[i+1 : j])})
			k = kShell
		}
		for x := i; x < end; x++ {
			kind[x] = k
		}
		i = end
	}
	if len(sp.docs) == 0 {
		start := -1
		for i, l := range lines {
			if kind[i] == kProse && chunkOpsKey.MatchString(l) {
				start = i
				break
			}
		}
		if start < 0 {
			sp.prose = collapseProse(lines, kind, len(lines), proseKinds)
			return sp
		}
		ops := start
		for i := ops - 1; i >= 0 && kind[i] == kProse && yamlish(lines[i], lines[i+1]); i-- {
			start = i
		}
		for start < ops && strings.TrimSpace(lines[start]) == "" {
			start++
		}
		sp.docs = []chunkDoc{{start, len(lines)}}
		var shell []Shell
		for _, s := range sp.shell {
			if s.Line-1 < start {
				shell = append(shell, s)
			}
		}
		sp.shell = shell
		sp.prose = collapseProse(lines, kind, start, proseKinds)
		return sp
	}
	sp.prose = collapseProse(lines, kind, len(lines), proseKinds)
	return sp
}

// yamlish reports whether line l, above a bare document's operations
// key and followed by next, may belong to the document: a blank line,
// a comment, "---", an indented line, or a top-level key with a value
// on its line or indented below it (a prose heading such as "Patch:"
// right above the document is not).
func yamlish(l, next string) bool {
	t := strings.TrimSpace(l)
	switch {
	case t == "" || t == "---" || strings.HasPrefix(t, "#") || l[0] == ' ' || l[0] == '\t':
		return true
	case !yamlKey.MatchString(l):
		return false
	}
	_, value, _ := strings.Cut(l, ":")
	return strings.TrimSpace(value) != "" || next != "" && (next[0] == ' ' || next[0] == '\t')
}

func hasLine(lines []string, re *lazyRegexp) bool {
	for _, l := range lines {
		if re.MatchString(l) {
			return true
		}
	}
	return false
}

func joinLines(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

func leadingSpaces(s string) int { return countPrefix(s, ' ') }

// detectChunk reports whether a reply holds a CHUNK document (for
// --format auto): a top-level operations key, fenced or not.
func detectChunk(text string) bool {
	// A document starts at an "operations:" line: a reply without the
	// word is not cut into lines to find that out.
	if len(text) > MaxChunkReply || !strings.Contains(text, "operations") {
		return false
	}
	return len(splitChunk(splitLines(text)).docs) > 0
}

// chunkReader reads one CHUNK document into a Reply.
type chunkReader struct {
	reply *Reply
	lines []string // the whole reply
	doc   chunkDoc
	lang  string
	desc  string
}

// line turns a line of the YAML document into a reply line, within
// the document (or on the fence line before an empty one).
func (c *chunkReader) line(yamlLine int) int {
	lo, hi := c.doc.start+1, c.doc.end
	if hi < lo {
		lo, hi = c.doc.start, c.doc.start
	}
	l := c.doc.start + yamlLine
	return max(1, min(max(l, lo), hi))
}

func (c *chunkReader) errorf(yamlLine int, format string, args ...any) error {
	return parseErr(FormatChunk, c.line(yamlLine), format, args...)
}

func (c *chunkReader) warnf(yamlLine int, format string, args ...any) {
	c.reply.warnf(c.line(yamlLine), format, args...)
}

// read decodes the document and appends its operations to the reply.
func (c *chunkReader) read() error {
	root, ok := loadChunkFast(c.lines[c.doc.start:c.doc.end])
	if !ok {
		root = new(yaml.Node)
		if err := yaml.Load([]byte(joinLines(c.lines[c.doc.start:c.doc.end])), root); err != nil {
			return c.yamlError(err)
		}
		if err := c.refuseAliases(root); err != nil {
			return err
		}
	}
	top := root
	if top.Kind == yaml.DocumentNode && len(top.Content) == 1 {
		top = top.Content[0]
	}
	if top.Kind != yaml.MappingNode {
		return c.errorf(top.Line, "a CHUNK document is a mapping with description, language and operations; this one is %s", nodeKind(top))
	}
	f, err := c.fields(top, "the document", "description", "language", "operations")
	if err != nil {
		return err
	}
	if n := f.get("description"); n != nil {
		s, err := c.text(n, "description")
		if err != nil {
			return err
		}
		c.desc = strings.TrimSpace(s)
	}
	if n := f.get("language"); n != nil {
		s, err := c.text(n, "language")
		if err != nil {
			return err
		}
		c.lang = strings.ToLower(strings.TrimSpace(s))
		if c.lang != "" && !chunkLanguages()[c.lang] {
			c.warnf(n.Line, "language %q is not one whose comments are known (c++, python, or a file extension such as go); comments will not be ignored when matching", c.lang)
		}
	}
	ops := f.get("operations")
	switch {
	case ops == nil:
		return c.errorf(top.Line, "the document has no operations list")
	case ops.Kind == yaml.ScalarNode && ops.Tag == "!!null":
		return nil
	case ops.Kind != yaml.SequenceNode:
		return c.errorf(ops.Line, "operations must be a list, each item starting with \"- path:\"; it is %s", nodeKind(ops))
	}
	c.reply.Ops = slices.Grow(c.reply.Ops, len(ops.Content))
	for i, item := range ops.Content {
		op, err := c.operation(i+1, item)
		if err != nil {
			return err
		}
		c.reply.Ops = append(c.reply.Ops, op)
	}
	return nil
}

// yamlError turns a YAML decoding error into a *ParseError on the
// reply line where the decoder stopped.
func (c *chunkReader) yamlError(err error) error {
	var le *yaml.LoadError
	var les *yaml.LoadErrors
	switch {
	case errors.As(err, &le):
	case errors.As(err, &les) && len(les.Errors) > 0:
		le = les.Errors[0]
	default:
		return c.errorf(0, "YAML: %v", err)
	}
	msg := strings.TrimPrefix(le.Message, "yaml: ")
	line := le.Mark.Line
	switch msg {
	case "no documents in stream":
		msg = "the document is empty"
	case "expected single document, found multiple":
		msg = "the YAML holds several documents (\"---\"); a CHUNK reply is one document"
		line = c.secondDocument()
	}
	if line == 0 {
		line = le.ContextMark.Line
	}
	if le.ContextMsg != "" {
		msg += " (" + le.ContextMsg
		if cl := c.line(le.ContextMark.Line); le.ContextMark.Line > 0 && cl != c.line(line) {
			msg += fmt.Sprintf(", from line %d", cl)
		}
		msg += ")"
	}
	if l := c.line(line) - 1; line > 0 && l < len(c.lines) && strings.HasPrefix(strings.TrimLeft(c.lines[l], " "), "\t") {
		msg += "; YAML indentation must be spaces, not tabs"
	}
	return c.errorf(line, "YAML: %s", msg)
}

// secondDocument returns the YAML line of the first "---" that follows
// content (0 when there is none).
func (c *chunkReader) secondDocument() int {
	content := false
	for i, l := range c.lines[c.doc.start:c.doc.end] {
		t := strings.TrimSpace(l)
		switch {
		case l == "---" || strings.HasPrefix(l, "--- ") || strings.HasPrefix(l, "---\t"):
			if content {
				return i + 1
			}
		case t != "" && !strings.HasPrefix(t, "#"):
			content = true
		}
	}
	return 0
}

// refuseAliases returns an error for the first anchor or alias in the
// tree: a reply must spell out every text it means.
func (c *chunkReader) refuseAliases(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode {
		return c.errorf(n.Line, "YAML aliases (*%s) are not allowed; write the text out", n.Value)
	}
	if n.Anchor != "" {
		return c.errorf(n.Line, "YAML anchors (&%s) are not allowed; write the text out", n.Anchor)
	}
	for _, k := range n.Content {
		if err := c.refuseAliases(k); err != nil {
			return err
		}
	}
	return nil
}

// fields reads the mapping m, whose keys must be among known and
// unique, into its values and key lines by key.
func (c *chunkReader) fields(m *yaml.Node, where string, known ...string) (f yamlFields, err error) {
	f.known = known
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return f, c.errorf(k.Line, "a key of %s is %s, not a name", where, nodeKind(k))
		}
		name := k.Value
		x := f.index(name)
		if x < 0 {
			return f, c.errorf(k.Line, "unknown field %q in %s (known: %s)", name, where, strings.Join(known, ", "))
		}
		if f.val[x] != nil {
			return f, c.errorf(k.Line, "duplicate key %q in %s (first at line %d)", name, where, c.line(f.line[x]))
		}
		f.val[x], f.line[x] = v, k.Line
	}
	return f, nil
}

// yamlFields are the values of a mapping's keys, and the YAML lines of
// the keys, in the order of the keys known (arrays, not maps: a reply
// holds thousands of operations).
type yamlFields struct {
	known []string
	val   [8]*yaml.Node
	line  [8]int
}

func (f *yamlFields) index(name string) int {
	for i, k := range f.known {
		if k == name {
			return i
		}
	}
	return -1
}

// get returns the value of key name, nil when it is absent.
func (f *yamlFields) get(name string) *yaml.Node {
	if i := f.index(name); i >= 0 {
		return f.val[i]
	}
	return nil
}

// keyLine returns the YAML line of key name.
func (f *yamlFields) keyLine(name string) int {
	if i := f.index(name); i >= 0 {
		return f.line[i]
	}
	return 0
}

// text returns the string a scalar holds: "" for null.
func (c *chunkReader) text(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode {
		return "", c.errorf(n.Line, "%s must be text (a YAML string such as |-), not %s", what, nodeKind(n))
	}
	switch n.Tag {
	case "!!null":
		return "", nil
	case "", "!!str", "!!int", "!!float", "!!bool", "!!timestamp":
		return n.Value, nil
	}
	return "", c.errorf(n.Line, "%s: YAML tag %s is not allowed; write plain text", what, n.Tag)
}

// nodeKind names a node's kind for messages.
func nodeKind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return "empty"
		}
		return "a scalar"
	}
	return "something else"
}

// chunkOp says what one CHUNK op reads and how it becomes an
// Operation.
type chunkOp struct {
	marker  bool // needs a marker (and takes before/after and options)
	payload bool // needs a payload
	text    bool // a text or block op: takes options
}

// chunkOps are the ops of the CHUNK format, by normalised name.
var chunkOps = map[string]chunkOp{
	"create_file":           {payload: true},
	"delete_file":           {},
	"replace_text":          {marker: true, payload: true, text: true},
	"insert_after_text":     {marker: true, payload: true, text: true},
	"insert_before_text":    {marker: true, payload: true, text: true},
	"delete_text":           {marker: true, text: true},
	"prepend_text":          {payload: true, text: true},
	"append_text":           {payload: true, text: true},
	"replace_c_style_block": {marker: true, payload: true, text: true},
	"replace_py_block":      {marker: true, payload: true, text: true},
}

// chunkOpNames lists the ops in the order the format describes them.
var chunkOpNames = []string{
	"create_file", "delete_file", "replace_text", "insert_after_text", "insert_before_text",
	"delete_text", "prepend_text", "append_text", "replace_c_style_block", "replace_py_block",
}

// chunkFields are the fields of an operation.
var chunkFields = []string{"path", "op", "comment", "marker", "before", "after", "payload", "options"}

// chunkLanguages are the language values whose comments the engine
// knows: the two CHUNK names, the names it takes for languages, and
// the file extensions of its comment table (engine/comments.go).
var chunkLanguages = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, l := range strings.Fields(`c++ cplusplus python python3 golang javascript typescript rust
		ruby shell csharp c# kotlin perl
		cpp c cc cxx h hpp hh py pyi
		go java js jsx mjs cjs ts tsx cs swift kt kts scala dart groovy gradle m mm proto zig v sol
		rs css scss less php rb sh bash zsh fish pl pm yaml yml toml r cmake mk dockerfile makefile
		conf ps1 nim jl ex exs coffee tf hcl sql lua hs elm ada lisp clj el scm asm s ini tex erl
		html htm xml svg vue`) {
		m[l] = true
	}
	return m
})

// normOpName folds an op name: case, and "-" for "_".
func normOpName(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
}

// operation reads the n-th item of the operations list: its op and
// path, the fields every op takes, the texts its op takes, and then the
// Operation they make.
func (c *chunkReader) operation(n int, item *yaml.Node) (Operation, error) {
	op := Operation{Format: FormatChunk, Line: c.line(item.Line), Placement: Placement{Language: c.lang}}
	if item.Kind != yaml.MappingNode {
		return op, c.errorf(item.Line, "operation %d is %s; write a mapping with path, op and the op's fields", n, nodeKind(item))
	}
	it := &chunkItem{c: c, node: item, where: "operation " + strconv.Itoa(n)}
	var err error
	if it.f, err = c.fields(item, it.where, chunkFields...); err != nil {
		return op, err
	}
	if err = it.op(); err != nil {
		return op, err
	}
	if op.Path, err = it.path(); err != nil {
		return op, err
	}
	if op.Comment, err = it.str("comment"); err != nil {
		return op, err
	}
	op.Comment = strings.TrimSpace(op.Comment)
	it.warnUnused()
	op.Indent = IndentAsIs
	if it.spec.text {
		if op.Indent, err = c.indent(it.f.get("options"), it.where); err != nil {
			return op, err
		}
	}
	t, err := it.texts()
	if err != nil {
		return op, err
	}
	t.fill(&op, it.name)
	return op, nil
}

// chunkItem is one item of the operations list while operation reads
// it.
type chunkItem struct {
	c     *chunkReader
	node  *yaml.Node
	where string // "operation N", for messages
	f     yamlFields
	// name is the item's op, normalised, and spec what it reads; set
	// by op.
	name string
	spec chunkOp
}

// str returns the text of the field name, "" when it is absent.
func (it *chunkItem) str(name string) (string, error) {
	if it.f.get(name) == nil {
		return "", nil
	}
	return it.c.text(it.f.get(name), name)
}

// op reads the item's op, which must be one of chunkOps.
func (it *chunkItem) op() error {
	c, f := it.c, &it.f
	if f.get("op") == nil {
		return c.errorf(it.node.Line, "%s has no op (one of %s)", it.where, strings.Join(chunkOpNames, ", "))
	}
	raw, err := it.str("op")
	if err != nil {
		return err
	}
	it.name = normOpName(raw)
	var ok bool
	if it.spec, ok = chunkOps[it.name]; !ok {
		return c.errorf(f.get("op").Line, "unknown op %q (known: %s)", raw, strings.Join(chunkOpNames, ", "))
	}
	return nil
}

// path reads the item's path: one file name, backquotes around it
// dropped.
func (it *chunkItem) path() (string, error) {
	c, f := it.c, &it.f
	if f.get("path") == nil {
		return "", c.errorf(it.node.Line, "%s (%s) has no path", it.where, it.name)
	}
	raw, err := it.str("path")
	if err != nil {
		return "", err
	}
	path := strings.TrimSpace(raw)
	if len(path) > 2 && path[0] == '`' && path[len(path)-1] == '`' {
		path = strings.TrimSpace(path[1 : len(path)-1])
	}
	if path == "" || strings.ContainsAny(path, "\r\n") {
		return path, c.errorf(f.get("path").Line, "%s (%s): the path %q is not a file name", it.where, it.name, raw)
	}
	return path, nil
}

// warnUnused warns about each field the item's op does not use: they
// are ignored.
func (it *chunkItem) warnUnused() {
	for _, u := range [...]struct {
		field string
		used  bool
	}{{"marker", it.spec.marker}, {"before", it.spec.marker}, {"after", it.spec.marker}, {"payload", it.spec.payload}, {"options", it.spec.text}} {
		if field := u.field; it.f.get(field) != nil && !u.used {
			it.c.warnf(it.f.keyLine(field), "%s: %s does not use %s; ignored", it.where, it.name, field)
		}
	}
}

// chunkTexts are the texts of one item, as lines.
type chunkTexts struct {
	marker, before, after, payload []string
}

// texts reads the texts the item's op takes: the marker (not empty)
// with the context before and after it (nil when blank), and the
// payload.
func (it *chunkItem) texts() (chunkTexts, error) {
	var t chunkTexts
	c, f := it.c, &it.f
	if it.spec.marker {
		if f.get("marker") == nil {
			return t, c.errorf(it.node.Line, "%s (%s) has no marker", it.where, it.name)
		}
		s, err := it.str("marker")
		if err != nil {
			return t, err
		}
		if t.marker = textLines(s); blank(t.marker) {
			return t, c.errorf(f.get("marker").Line, "%s (%s): the marker is empty", it.where, it.name)
		}
		if s, err = it.str("before"); err != nil {
			return t, err
		}
		if t.before = textLines(s); blank(t.before) {
			t.before = nil
		}
		if s, err = it.str("after"); err != nil {
			return t, err
		}
		if t.after = textLines(s); blank(t.after) {
			t.after = nil
		}
	}
	if it.spec.payload {
		if f.get("payload") == nil {
			return t, c.errorf(it.node.Line, "%s (%s) has no payload (write payload: \"\" for an empty one)", it.where, it.name)
		}
		s, err := it.str("payload")
		if err != nil {
			return t, err
		}
		t.payload = textLines(s)
	}
	return t, nil
}

// fill sets what op name makes of the texts in op.
func (t chunkTexts) fill(op *Operation, name string) {
	before, marker, after, payload := t.before, t.marker, t.after, t.payload
	switch name {
	case "create_file":
		op.Kind, op.New, op.Overwrite = Create, payload, true
	case "delete_file":
		op.Kind = Delete
	case "replace_text":
		op.Before, op.Old, op.After, op.New = before, marker, after, payload
	case "insert_after_text":
		op.Before, op.After, op.New = concatLines(before, marker), after, payload
	case "insert_before_text":
		op.Before, op.After, op.New = before, concatLines(marker, after), payload
	case "delete_text":
		op.Before, op.Old, op.After = before, marker, after
	case "prepend_text":
		op.Where, op.New, op.Indent = AtStart, payload, IndentAsIs
	case "append_text":
		op.Where, op.New, op.Indent = AtEnd, payload, IndentAsIs
	case "replace_c_style_block":
		op.Before, op.Old, op.After, op.New, op.Block = before, marker, after, payload, CBraces
	case "replace_py_block":
		op.Before, op.Old, op.After, op.New, op.Block = before, marker, after, payload, PyIndent
	}
	op.IndentFrom = len(before) // the marker's first line sets the indentation
}

// indent reads options.indent: the marker's indentation unless it says
// none or as-is.
func (c *chunkReader) indent(options *yaml.Node, where string) (IndentMode, error) {
	if options == nil || options.Kind == yaml.ScalarNode && options.Tag == "!!null" {
		return IndentAnchor, nil
	}
	if options.Kind != yaml.MappingNode {
		return IndentAnchor, c.errorf(options.Line, "%s: options must be a mapping (indent: ...), not %s", where, nodeKind(options))
	}
	f, err := c.fields(options, where+" options", "indent")
	if err != nil || f.get("indent") == nil {
		return IndentAnchor, err
	}
	s, err := c.text(f.get("indent"), "options.indent")
	if err != nil {
		return IndentAnchor, err
	}
	switch strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "_", "-") {
	case "from-marker", "marker", "auto", "":
		return IndentAnchor, nil
	case "none", "as-is":
		return IndentAsIs, nil
	}
	return IndentAnchor, c.errorf(f.get("indent").Line, "%s: unknown options.indent %q (from-marker, marker or auto: align to the marker; none or as-is: keep the payload's indentation)", where, s)
}

// concatLines returns a followed by b in a new slice.
func concatLines(a, b []string) []string {
	out := make([]string, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}
