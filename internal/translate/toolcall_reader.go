package translate

import (
	"fmt"
	"strings"
)

// readToolCalls reads a reply made of JSON tool calls, as agents emit
// and record them. Each call is read by ToolCall; the shapes that hold
// calls are:
//
//   - a call object: {"name": N, "input": {...}} (or "arguments" or
//     "args", an object or a string holding one), {"tool": N, ...}
//     whose input is "input"/"arguments"/"args" or the object's other
//     fields, {"tool_name": N, "tool_input": {...}} (a Claude Code
//     hook's), {"type": "tool_use", "tool_name": N, "parameters":
//     {...}} (an event of Gemini CLI's --output-format stream-json,
//     ToolUseEvent in packages/core/src/output/types.ts);
//   - an array of them, or JSON Lines (one value per line), or values
//     one after another;
//   - an OpenAI message: {"tool_calls": [{"function": {"name": N,
//     "arguments": "<JSON>"}}], "content": TEXT}, also inside
//     {"choices": [{"message": ...}]}, and the Responses API's items
//     ({"type": "function_call"}, "custom_tool_call",
//     "local_shell_call", inside "output" or a Codex rollout line's
//     "payload");
//   - an Anthropic message: {"content": [{"type": "text"}, {"type":
//     "tool_use", "name": N, "input": {...}}]}, also as a Claude Code
//     log line {"type": "assistant", "message": {...}, "cwd": DIR};
//   - Gemini's {"parts": [{"text": T}, {"functionCall": {"name": N,
//     "args": {...}}}]}, also inside {"candidates": [{"content": ...}]};
//   - a messages array of any of these: user, system and tool turns
//     are skipped.
//
// The first "cwd" a record names is the Root of every call's
// operations, the session's top (SPEC section 5): a later record's cwd
// (a subdirectory the agent moved to, another project) is no new top,
// so its absolute paths are placed by where they stand below the
// first.
// Text items ({"type": "text"}, an OpenAI message's content, a Gemini
// text part) are the reply's prose; tool results and reasoning are not.
//
// A reply whose first character (white space and a byte order mark
// aside) is "{" or "[" is JSON throughout: malformed JSON stops the
// reader with a *ParseError naming the reply line and column where it
// was seen. Otherwise the reply is Markdown, and the calls are the
// ```json (or ```jsonl, or bare) fences in it that hold tool calls of
// tools this reader knows; the lines outside fences are prose, a
// fence of other JSON is code, and a fence that holds an edit tool's
// arguments but no valid JSON is a *ParseError.
//
// A call the tool would refuse (an argument missing or of the wrong
// type, an unknown command, undo_edit) is a Reply.Failed entry naming
// the call's line, and the calls after it still count; a call of a
// tool the reader does not know is skipped with a warning, and read
// tools (Read, view, Grep, a shell command) give nothing. A call of a
// tool it does not know that looks like an edit is a Reply.Unread
// entry (see LooksLikeEdit), which Parse fails or skips. The error is
// ErrNoEdits when no call edits a file.
func readToolCalls(text string) (*Reply, error) {
	c := &callReader{r: &Reply{Format: FormatToolCalls}}
	var err error
	if jsonReply(text) {
		c.warnUnknown = true
		err = c.readJSON(blankBOM(text), 1)
		c.r.Prose = trimProse(c.prose)
	} else {
		err = c.readMarkdown(text)
	}
	sortWarnings(c.r.Warnings)
	if err != nil {
		return c.r, err
	}
	if len(c.r.Ops)+len(c.r.Failed) == 0 {
		if len(c.names) == 0 {
			return c.r, fmt.Errorf("%w: the reply holds no JSON tool call", ErrNoEdits)
		}
		return c.r, fmt.Errorf("%w: the reply's tool calls (%s) edit no file", ErrNoEdits, strings.Join(c.names, ", "))
	}
	return c.r, nil
}

// jsonReply reports whether text is JSON throughout: its first
// character, white space and a byte order mark aside, opens a value.
func jsonReply(text string) bool {
	t := strings.TrimLeft(strings.TrimPrefix(text, "\uFEFF"), " \t\r\n")
	return t != "" && (t[0] == '{' || t[0] == '[')
}

// blankBOM replaces a leading byte order mark by spaces, keeping every
// offset where it was.
func blankBOM(text string) string {
	if strings.HasPrefix(text, "\uFEFF") {
		return "   " + text[3:]
	}
	return text
}

// callReader gathers what the calls of a reply give.
type callReader struct {
	r     *Reply
	src   string
	idx   *lineIndex
	root  string   // the first cwd a record named: the session's top
	prose []string // text items, a blank line between two
	names []string // the tools called, each once, for ErrNoEdits
	seen  map[string]bool
	// calls counts the calls of known tools; warnUnknown warns about
	// the others (in a Markdown fence they are just JSON).
	calls       int
	warnUnknown bool
	lastDelta   bool // the last prose came from a streamed piece
}

// readJSON reads src, JSON text whose first line is reply line first.
func (c *callReader) readJSON(src string, first int) error {
	c.src, c.idx = src, newLineIndex(src, first)
	at, err := jsonValues(src, func(start, _ int) { c.value(start, true, 0) })
	if err == nil {
		return nil
	}
	line, col := c.idx.line(at)
	msg := strings.TrimPrefix(err.Error(), "json: ")
	if msg == "unexpected EOF" {
		msg = "the JSON ends inside a value (unexpected end of input)"
	}
	return &ParseError{Format: FormatToolCalls, Line: line, Msg: fmt.Sprintf("malformed JSON at column %d: %s", col, msg)}
}

// maxDepth bounds how deep in a record calls are looked for: the
// deepest shape (choices, message, tool_calls, function) is four
// levels down. Each level scans the text below it once more, so the
// bound keeps the reader linear in the size of the reply.
const maxDepth = 8

// value reads the valid JSON value at offset i, depth levels down; top
// says it is a record (a top-level value, an element of a top-level
// array, or a record's payload), whose cwd holds for the records after
// it. An array holds records or items, not arrays.
func (c *callReader) value(i int, top bool, depth int) {
	if depth > maxDepth {
		return
	}
	switch c.src[i] {
	case '[':
		jsonItems(c.src, i, func(s, _ int) {
			if c.src[s] == '{' {
				c.object(s, top, depth+1)
			}
		})
	case '{':
		c.object(i, top, depth)
	}
}

// field is one member of a JSON object: its value's span.
type field struct {
	key        string
	start, end int
}

// skippedRoles are the turns of a conversation that hold no reply.
var skippedRoles = map[string]bool{"user": true, "system": true, "developer": true, "tool": true, "function": true}

// skippedTypes are records and items that hold no call of the reply:
// a user turn of a Claude Code log, tool results, reasoning.
var skippedTypes = map[string]bool{
	"user": true, "system": true, "summary": true, "tool_result": true, "function_call_output": true,
	"custom_tool_call_output": true, "reasoning": true, "thinking": true, "redacted_thinking": true,
}

func (c *callReader) object(i int, top bool, depth int) {
	if depth > maxDepth {
		return
	}
	var fields []field
	jsonFields(c.src, i, func(k string, s, e int) bool {
		fields = append(fields, field{k, s, e})
		return true
	})
	get := func(k string) (field, bool) {
		for _, f := range fields {
			if f.key == k {
				return f, true
			}
		}
		return field{}, false
	}
	str := func(k string) string {
		if f, ok := get(k); ok {
			s, _ := jsonString(c.src[f.start:f.end])
			return s
		}
		return ""
	}
	typ, role := str("type"), str("role")
	if skippedRoles[role] || skippedTypes[typ] {
		return
	}
	if cwd := str("cwd"); cwd != "" && c.root == "" {
		c.root = cwd
	}
	line, _ := c.idx.line(i)
	call := func(name string, keys ...string) {
		for _, k := range keys {
			if f, ok := get(k); ok {
				c.call(name, c.src[f.start:f.end], line)
				return
			}
		}
		c.call(name, "", line)
	}
	objectAt := func(k string) (int, bool) {
		f, ok := get(k)
		return f.start, ok && c.src[f.start] == '{'
	}
	switch {
	case typ == "text" || typ == "output_text":
		c.text(str("text"))
		return
	case typ == "function_call":
		call(str("name"), "arguments")
		return
	case typ == "custom_tool_call":
		call(str("name"), "input")
		return
	case typ == "local_shell_call":
		call("local_shell", "action")
		return
	}
	if at, ok := objectAt("function"); ok {
		c.nested(at, line, "arguments")
		return
	}
	if at, ok := objectAt("functionCall"); ok {
		c.nested(at, line, "args")
		return
	}
	switch {
	case str("name") != "" && hasAny(get, "input", "arguments", "args", "parameters"):
		call(str("name"), "input", "arguments", "args", "parameters")
		return
	case str("tool_name") != "":
		call(str("tool_name"), "tool_input", "input", "parameters")
		return
	case str("tool") != "":
		if hasAny(get, "input", "arguments", "args", "parameters") {
			call(str("tool"), "input", "arguments", "args", "parameters")
		} else {
			c.call(str("tool"), c.src[i:jsonEnd(c.src, i)], line)
		}
		return
	}
	for _, f := range fields {
		switch f.key {
		case "message", "payload":
			if c.src[f.start] == '{' {
				c.object(f.start, top && f.key == "payload", depth+1)
			}
		case "content":
			switch c.src[f.start] {
			case '"':
				s, _ := jsonString(c.src[f.start:f.end])
				if d, ok := get("delta"); ok && c.src[d.start:d.end] == "true" {
					c.delta(s) // a piece of a Gemini CLI stream-json message
				} else {
					c.text(s)
				}
			case '[', '{':
				c.value(f.start, false, depth+1)
			}
		case "tool_calls", "choices", "candidates", "parts", "messages", "output":
			if c.src[f.start] == '[' {
				c.value(f.start, false, depth+1)
			}
		case "text":
			if typ == "" {
				s, _ := jsonString(c.src[f.start:f.end])
				c.text(s)
			}
		}
	}
}

// hasAny reports whether the object get reads has one of keys.
func hasAny(get func(string) (field, bool), keys ...string) bool {
	for _, k := range keys {
		if _, ok := get(k); ok {
			return true
		}
	}
	return false
}

// nested reads a call whose name and input are members of the object at
// i (OpenAI's "function", Gemini's "functionCall"), at reply line line.
func (c *callReader) nested(i, line int, key string) {
	var name, input string
	jsonFields(c.src, i, func(k string, s, e int) bool {
		switch k {
		case "name":
			name, _ = jsonString(c.src[s:e])
		case key:
			input = c.src[s:e]
		}
		return true
	})
	c.call(name, input, line)
}

// call reads one call of the tool name whose input is the JSON value
// raw ("" when the call has none): an object, or a string holding the
// object (OpenAI's arguments) or the input itself (a custom tool's).
func (c *callReader) call(name, raw string, line int) {
	c.lastDelta = false // the pieces after a call are another message
	if name == "" {
		c.r.failf(line, "", "a tool call without the name of its tool")
		return
	}
	input := raw
	if strings.HasPrefix(raw, `"`) {
		input, _ = jsonString(raw)
	}
	res := readCall(name, []byte(input), c.root, line)
	if res.unread != "" {
		// Kept in a Markdown fence too: it counts when the fence holds
		// calls of known tools.
		c.r.Unread = append(c.r.Unread, Failure{Line: line, Path: res.path, Msg: res.unread})
	}
	if !res.known && !c.warnUnknown {
		return
	}
	if !c.seen[name] {
		if c.seen == nil {
			c.seen = map[string]bool{}
		}
		c.seen[name] = true
		c.names = append(c.names, name)
	}
	if res.known {
		c.calls++
	}
	c.r.Warnings = append(c.r.Warnings, res.warns...)
	if res.err != nil {
		c.r.failf(line, res.path, "%s", res.err)
		return
	}
	c.r.Ops = append(c.r.Ops, res.ops...)
}

// text adds a text item to the prose, a blank line after the one
// before.
func (c *callReader) text(s string) {
	c.lastDelta = false
	if strings.TrimSpace(s) == "" {
		return
	}
	if len(c.prose) > 0 {
		c.prose = append(c.prose, "")
	}
	for _, l := range splitLines(s) {
		if keepProse(c.prose, l) {
			c.prose = append(c.prose, l)
		}
	}
}

// delta continues the prose with s, a piece of a message streamed in
// pieces (Gemini CLI's stream-json "delta": true), where the last
// piece stopped.
func (c *callReader) delta(s string) {
	if !c.lastDelta || len(c.prose) == 0 {
		c.text(s)
		c.lastDelta = len(c.prose) > 0
		if !strings.HasSuffix(s, "\n") {
			return
		}
		s = "\n" // the piece's line ends: the next piece starts a line
	}
	parts := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	c.prose[len(c.prose)-1] += parts[0]
	c.prose = append(c.prose, parts[1:]...)
}

// trimProse drops the blank lines that end prose.
func trimProse(prose []string) []string {
	for len(prose) > 0 && strings.TrimSpace(prose[len(prose)-1]) == "" {
		prose = prose[:len(prose)-1]
	}
	return prose
}
