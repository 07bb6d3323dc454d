package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// A messages log is the "messages" array of a chat API request: OpenAI
// Chat Completions (role user / assistant / tool; an assistant's
// tool_calls[].function.{name, arguments} with arguments a JSON
// string, answered by tool messages naming the tool_call_id) or
// Anthropic Messages (content lists of text, tool_use and tool_result
// items), bare or as the "messages" member of an object.
//
// The array is one JSON value, but it is still read one message at a
// time with a json.Decoder (Token to enter the array, Decode for each
// element), so that memory stays bounded by the largest message, as for
// the line-based logs. Lines come from counting the newlines the
// decoder consumed.
//
// A user message is a request unless all it holds are tool results.
// Tool calls are read by translate.ToolCall; an Anthropic tool_result
// with is_error is skipped. OpenAI tool messages carry no error flag,
// so every OpenAI call is replayed. An assistant message with no tool
// calls is read by translate.Parse in "auto": a reply in an edit format
// (SEARCH/REPLACE, apply-patch, ...) edits too.
type messagesReader struct {
	src   *countingReader
	dec   *json.Decoder
	n     int
	b     builder
	calls []claudeCall
	res   map[string]claudeResult
	state int // 0: before the array, 1: in it, 2: after it
	kind  Kind
	// cline: the array is a Cline task history (see cline.go).
	cline bool
	xml   []clineUnit      // Cline: the XML calls awaiting their results
	saved map[string]Saved // Cline: the saved content a native call's result carries, by call id
}

type chatMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	IsError    bool            `json:"is_error"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

func newMessagesReader(r *bufio.Reader) *messagesReader {
	src := &countingReader{r: r, line: 1}
	return &messagesReader{src: src, dec: json.NewDecoder(src), kind: Messages}
}

func (m *messagesReader) errAt(msg string) error {
	return &LineError{Kind: m.kind, Line: m.src.lineAt(m.dec.InputOffset()), Msg: msg}
}

// enter reads up to the first message: "[" or {..."messages": [.
func (m *messagesReader) enter() error {
	tok, err := m.dec.Token()
	if err != nil {
		return m.errAt("not JSON: " + err.Error())
	}
	if tok == json.Delim('[') {
		return nil
	}
	if tok != json.Delim('{') {
		return m.errAt("not a messages array")
	}
	for m.dec.More() {
		key, err := m.dec.Token()
		if err != nil {
			return m.errAt(err.Error())
		}
		if key == "messages" {
			if tok, err := m.dec.Token(); err != nil || tok != json.Delim('[') {
				return m.errAt("\"messages\" is not an array")
			}
			return nil
		}
		var skip json.RawMessage
		if err := m.dec.Decode(&skip); err != nil {
			return m.errAt(err.Error())
		}
	}
	return m.errAt("no \"messages\" array")
}

func (m *messagesReader) next() (*Turn, error) {
	if m.state == 0 {
		if err := m.enter(); err != nil {
			return nil, err
		}
		m.state = 1
	}
	for m.state == 1 {
		if !m.dec.More() {
			m.state = 2
			break
		}
		var raw json.RawMessage
		if err := m.dec.Decode(&raw); err != nil {
			return nil, m.errAt("not JSON: " + err.Error())
		}
		// The element ends where the decoder stands; it starts as many
		// lines above as it holds.
		line := m.src.lineAt(m.dec.InputOffset()) - bytes.Count(raw, []byte("\n"))
		var msg chatMessage
		if err := json.Unmarshal(raw, &msg); err != nil {
			return nil, &LineError{Kind: m.kind, Line: line, Msg: "not a message object: " + err.Error()}
		}
		items, text, err := contentItems(msg.Content)
		if err != nil {
			return nil, &LineError{Kind: m.kind, Line: line, Msg: "content: " + err.Error()}
		}
		if msg.Role == "user" && !m.cline && m.n == 0 && isClineTask(items, text) {
			m.cline = true
		}
		switch msg.Role {
		case "user":
			if m.cline {
				req, ok := m.clineUser(items, text, line)
				if !ok {
					continue
				}
				var done *Turn
				if !m.b.empty() {
					done = m.finish()
				}
				m.n++
				m.b.open(m.n, line, req)
				if done != nil {
					return done, nil
				}
				continue
			}
			if req, ok := chatRequest(items, text); ok {
				var done *Turn
				if !m.b.empty() {
					done = m.finish()
				}
				m.n++
				m.b.open(m.n, line, req)
				if done != nil {
					return done, nil
				}
				continue
			}
			for _, it := range items {
				if it.Type == "tool_result" {
					m.result(it.ToolUseID, it.IsError, resultText(it.Content))
				}
			}
		case "tool":
			m.result(msg.ToolCallID, msg.IsError, text)
		case "assistant":
			m.assistant(&msg, items, text, line)
		}
	}
	if m.state == 2 {
		if _, err := m.dec.Token(); err != nil && !errors.Is(err, io.EOF) {
			return nil, m.errAt(err.Error())
		}
		m.state = 3
	}
	if m.b.empty() {
		return nil, io.EOF
	}
	return m.finish(), nil
}

func (m *messagesReader) result(id string, isErr bool, text string) {
	if id == "" {
		return
	}
	if m.res == nil {
		m.res = map[string]claudeResult{}
	}
	m.res[id] = claudeResult{isError: isErr, text: text}
}

func (m *messagesReader) assistant(msg *chatMessage, items []anthropicItem, text string, line int) {
	var texts []string
	if text != "" {
		texts = append(texts, text)
	}
	calls := 0
	for _, it := range items {
		switch it.Type {
		case "text":
			texts = append(texts, it.Text)
		case "tool_use":
			m.calls = append(m.calls, claudeCall{id: it.ID, name: it.Name, input: it.Input, line: line})
			calls++
		}
	}
	for _, tc := range msg.ToolCalls {
		m.calls = append(m.calls, claudeCall{id: tc.ID, name: tc.Function.Name, input: json.RawMessage(tc.Function.Arguments), line: line})
		calls++
	}
	all := strings.Join(texts, "\n")
	if calls > 0 || strings.TrimSpace(all) == "" {
		m.b.say(all)
		return
	}
	// A text reply: it may edit in a format of its own. The message's
	// lines are not the log's (its text is a JSON string), so every
	// edit names the message's line.
	r, err := translate.Parse(all, translate.ParseOptions{Format: "auto"})
	if r == nil || errors.Is(err, translate.ErrNoEdits) && len(r.Ops) == 0 {
		m.b.say(all)
		return
	}
	m.b.say(strings.Join(r.Prose, "\n"))
	if m.cline {
		m.xml = append(m.xml, clineUnits(r, line)...)
	} else {
		for _, op := range r.Ops {
			op.Line = line
			m.b.ops = append(m.b.ops, op)
		}
		for _, f := range r.Failed {
			f.Line = line
			m.b.failed = append(m.b.failed, f)
		}
	}
	var perr *translate.ParseError
	if errors.As(err, &perr) {
		m.b.failed = append(m.b.failed, translate.Failure{Line: line, Msg: fmt.Sprintf("reply line %d: %s", perr.Line, perr.Msg)})
	}
	for _, w := range r.Warnings {
		m.b.warn(line, w.Msg)
	}
	for _, s := range r.Shell {
		s.Line = line
		m.b.shell = append(m.b.shell, s)
	}
}

func (m *messagesReader) finish() *Turn {
	if m.cline {
		m.clineResolve(nil, 0)
		return m.b.finish()
	}
	for _, call := range m.calls {
		ops, path := m.callOps(call)
		if len(ops) == 0 {
			continue
		}
		if res, answered := m.res[call.id]; answered && res.isError {
			m.b.skip(call.line, path, call.name+" failed: "+errorText(res.text))
			continue
		}
		m.b.ops = append(m.b.ops, ops...)
	}
	m.calls, m.res = nil, nil
	return m.b.finish()
}

// callOps reads a native call with toolOps, its warning noted, and
// names the file it edits: its input's path, else its first
// operation's. No operations: the call edits nothing.
func (m *messagesReader) callOps(call claudeCall) ([]translate.Operation, string) {
	path := inputPath(call.input)
	ops, warn := toolOps(call.name, call.input, "", call.line)
	if warn != "" {
		m.b.warn(call.line, warn)
	}
	if len(ops) > 0 && path == "" {
		path = ops[0].Path
	}
	return ops, path
}

// chatRequest reports whether a user message is a request: not only
// tool results.
func chatRequest(items []anthropicItem, text string) (string, bool) {
	if len(items) == 0 {
		return strings.TrimSpace(text), true
	}
	var parts []string
	req := false
	for _, it := range items {
		switch it.Type {
		case "tool_result":
		case "text":
			parts = append(parts, it.Text)
			req = true
		default:
			req = true
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n\n")), req
}

// countingReader counts the lines of what a json.Decoder reads. The
// decoder reads ahead, so the bytes it has read but not yet consumed
// are kept until lineAt, asked for offsets in order, counts them.
type countingReader struct {
	r       io.Reader
	pending []byte // bytes read from offset base on
	base    int64
	line    int // the line at offset base
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.pending = append(c.pending, p[:n]...)
	return n, err
}

// lineAt is the 1-based line of byte offset off, which is at or after
// the offset of the last call.
func (c *countingReader) lineAt(off int64) int {
	k := int(off - c.base)
	if k < 0 {
		k = 0
	}
	if k > len(c.pending) {
		k = len(c.pending)
	}
	c.line += bytes.Count(c.pending[:k], []byte("\n"))
	c.base += int64(k)
	c.pending = c.pending[:copy(c.pending, c.pending[k:])]
	return c.line
}
