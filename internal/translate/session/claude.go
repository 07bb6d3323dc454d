package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
)

// Claude Code keeps each session as JSON Lines under
// ~/.claude/projects/<dir>/<session>.jsonl. Each line is one record:
// {"type": "user"|"assistant"|"summary"|"system"|..., "uuid",
// "parentUuid", "isSidechain", "isMeta", "cwd", "message": {...}}, the
// message an Anthropic Messages API message whose content is a string
// or a list of text / tool_use / tool_result / thinking items (the
// shape public readers of these logs rely on, e.g. ccusage's
// data-loader and claude-code-log's models).
//
// A turn starts at a user record that is a request:
//   - not a tool_result list (the answers to the agent's calls);
//   - not isMeta (notes Claude Code adds, such as the caveat before
//     local command output), nor isCompactSummary (the summary that
//     continues a compacted session);
//   - not a sidechain (the prompt of a Task subagent; the subagent's
//     edits are real and belong to the turn that started it);
//   - not local command output (<local-command-stdout>, <bash-input>,
//     <bash-stdout>, ...) nor "[Request interrupted by user...]".
//
// A slash command (<command-name>/review</command-name> with
// <command-args>) is a request, written "/review args": a custom
// command is a prompt the agent acts on, and a built-in one (/clear)
// just gives a turn without edits.
//
// Every tool_use is read by translate.ToolCall with the session's top
// as root: the first cwd the log records, established once (SPEC
// section 5). A later record's cwd (the session cd'd into a
// subdirectory, or another project) is no new top: its absolute paths
// are placed by where they stand relative to the first. The gitBranch
// each record carries names a branch, not a directory, so it places
// nothing. A call whose tool_result has is_error (failures and the user's
// rejections alike) is skipped; so is a call with no result in the log:
// the session ended before the call ran or reported (a permission
// prompt left unanswered, a killed session), and an edit the session
// never saw happen is not replayed.
type claudeReader struct {
	lines lines
	n     int // requests so far
	b     builder
	calls []claudeCall
	res   map[string]claudeResult
	seen  map[string]bool
	top   string // the first cwd of the log: the session's top
	// items and strs are claudeScan's buffers, kept from line to line.
	items []anthropicItem
	strs  strTable
}

type claudeCall struct {
	id, name, root string
	input          json.RawMessage
	line           int
}

type claudeResult struct {
	isError bool
	text    string
}

type claudeRecord struct {
	Type             string          `json:"type"`
	IsSidechain      bool            `json:"isSidechain"`
	IsMeta           bool            `json:"isMeta"`
	IsCompactSummary bool            `json:"isCompactSummary"`
	Cwd              string          `json:"cwd"`
	Message          json.RawMessage `json:"message"`
	line             int
}

type anthropicMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// anthropicItem is one item of an Anthropic content list.
type anthropicItem struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	IsError   bool            `json:"is_error"`
	Content   json.RawMessage `json:"content"`
}

func newClaudeReader(r *bufio.Reader) *claudeReader {
	// A record's line is read in place (claudeScan copies what the
	// reader keeps; encoding/json copies all it reads).
	return &claudeReader{lines: lines{r: r, reuse: true}}
}

func (c *claudeReader) next() (*Turn, error) {
	for {
		raw, ok := c.lines.next()
		if !ok {
			if c.lines.err != nil {
				return nil, c.lines.err
			}
			if c.b.empty() {
				return nil, io.EOF
			}
			return c.finish(), nil
		}
		line := c.lines.n
		if len(bytes.TrimSpace(raw)) == 0 {
			continue
		}
		rec, items, text, err := c.line(raw)
		if err != nil {
			return nil, &LineError{Kind: ClaudeCode, Line: line, Msg: err.Error()}
		}
		rec.line = line
		if c.top == "" {
			c.top = rec.Cwd
		}
		switch rec.Type {
		case "user":
			if req, ok := claudeRequest(&rec, items, text); ok {
				var done *Turn
				if !c.b.empty() {
					done = c.finish()
				}
				c.n++
				c.b.open(c.n, line, req)
				if done != nil {
					return done, nil
				}
				continue
			}
			for _, it := range items {
				if it.Type == "tool_result" && it.ToolUseID != "" {
					if c.res == nil {
						c.res = map[string]claudeResult{}
					}
					// The text matters only for an error: reading every
					// result's content cost a decoding per call.
					r := claudeResult{isError: it.IsError}
					if it.IsError {
						r.text = resultText(it.Content)
					}
					c.res[it.ToolUseID] = r
				}
			}
		case "assistant":
			if !rec.IsSidechain {
				c.b.say(text)
			}
			for _, it := range items {
				switch it.Type {
				case "text":
					if !rec.IsSidechain {
						c.b.say(it.Text)
					}
				case "tool_use":
					// Claude Code writes one record per content item and
					// may repeat a message; a call counts once.
					if c.seen == nil {
						c.seen = map[string]bool{}
					}
					if it.ID != "" && c.seen[it.ID] {
						continue
					}
					c.seen[it.ID] = true
					c.calls = append(c.calls, claudeCall{id: it.ID, name: it.Name, input: it.Input, root: c.top, line: line})
				}
			}
		}
	}
}

// finish resolves the turn's calls against their results. The path
// a skip names is read from the call's input only for a skip: reading
// it for every call parsed each input once more.
func (c *claudeReader) finish() *Turn {
	// Most calls give one operation; growing the list call by call
	// copied a turn's operations some twenty times over at 10,000 calls.
	c.b.ops = slices.Grow(c.b.ops, len(c.calls))
	for _, call := range c.calls {
		res, answered := c.res[call.id]
		ops, warn := toolOps(call.name, call.input, call.root, call.line)
		if warn != "" {
			c.b.warn(call.line, warn)
		}
		if len(ops) == 0 {
			continue
		}
		skipPath := func() string {
			if p := inputPath(call.input); p != "" {
				return p
			}
			return ops[0].Path
		}
		if answered && res.isError {
			c.b.skip(call.line, skipPath(), call.name+" failed: "+errorText(res.text))
			continue
		}
		if !answered {
			c.b.skip(call.line, skipPath(), call.name+" has no result in the log: the session ended before it ran or reported")
			continue
		}
		c.b.ops = append(c.b.ops, ops...)
	}
	c.calls, c.res, c.seen = nil, nil, nil
	return c.b.finish()
}

// line reads one record of the log with its message's content: a list
// of items, or a string (text). A record is scanned in place
// (claudeScan); one the scan cannot vouch for is read by encoding/json
// (claudeLineJSON), which also says what is wrong with it. The items
// are good until the next line.
func (c *claudeReader) line(raw []byte) (claudeRecord, []anthropicItem, string, error) {
	if rec, items, text, ok := claudeScan(raw, c.items, &c.strs); ok {
		c.items = items
		return rec, items, text, nil
	}
	return claudeLineJSON(raw)
}

// claudeLine reads a record as the reader does, on its own.
func claudeLine(raw []byte) (claudeRecord, []anthropicItem, string, error) {
	return new(claudeReader).line(raw)
}

// claudeLineJSON reads a record with encoding/json. The common record,
// whose content is a list, is decoded in one pass over the line;
// decoding the record, then its message, then the content, each from
// the raw bytes of the one before, validated and scanned the line
// three times. A record the one pass refuses (a content that is a
// string, or anything not of the shape) is read level by level, which
// also says which level is wrong.
func claudeLineJSON(raw []byte) (claudeRecord, []anthropicItem, string, error) {
	var fast struct {
		claudeRecord
		Message *struct {
			Content []anthropicItem `json:"content"`
		} `json:"message"`
	}
	if json.Unmarshal(raw, &fast) == nil {
		var items []anthropicItem
		if fast.Message != nil {
			items = fast.Message.Content
		}
		return fast.claudeRecord, items, "", nil
	}
	var rec claudeRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return rec, nil, "", errors.New("not a JSON record: " + err.Error())
	}
	var msg anthropicMessage
	if len(rec.Message) > 0 && string(rec.Message) != "null" {
		if err := json.Unmarshal(rec.Message, &msg); err != nil {
			return rec, nil, "", errors.New("message: " + err.Error())
		}
	}
	items, text, err := contentItems(msg.Content)
	if err != nil {
		return rec, nil, "", errors.New("message content: " + err.Error())
	}
	return rec, items, text, nil
}

// claudeRequest reports whether a user record is a request, and its
// text.
func claudeRequest(rec *claudeRecord, items []anthropicItem, text string) (string, bool) {
	if rec.IsMeta || rec.IsSidechain || rec.IsCompactSummary {
		return "", false
	}
	var parts []string
	if text != "" {
		parts = append(parts, text)
	}
	for _, it := range items {
		switch it.Type {
		case "tool_result":
			return "", false
		case "text":
			parts = append(parts, it.Text)
		}
	}
	req := strings.TrimSpace(strings.Join(parts, "\n\n"))
	if strings.HasPrefix(req, "[Request interrupted by user") {
		return "", false
	}
	for _, tag := range []string{"<local-command-stdout>", "<local-command-stderr>", "<bash-input>", "<bash-stdout>", "<bash-stderr>", "<user-memory-input>"} {
		if strings.HasPrefix(req, tag) {
			return "", false
		}
	}
	if name := tagText(req, "command-name"); name != "" {
		if !strings.HasPrefix(name, "/") {
			name = "/" + name
		}
		if args := tagText(req, "command-args"); args != "" {
			name += " " + args
		}
		return name, true
	}
	return req, true
}

// tagText is the text of <tag>...</tag> in s, trimmed.
func tagText(s, tag string) string {
	i := strings.Index(s, "<"+tag+">")
	if i < 0 {
		return ""
	}
	rest := s[i+len(tag)+2:]
	j := strings.Index(rest, "</"+tag+">")
	if j < 0 {
		return ""
	}
	return strings.TrimSpace(rest[:j])
}

// contentItems reads an Anthropic content field: a string or a list.
func contentItems(raw json.RawMessage) ([]anthropicItem, string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return nil, s, err
	}
	var items []anthropicItem
	err := json.Unmarshal(raw, &items)
	return items, "", err
}

// resultText is a tool_result's content as text.
func resultText(raw json.RawMessage) string {
	items, text, err := contentItems(raw)
	if err != nil {
		return ""
	}
	for _, it := range items {
		if it.Type == "text" {
			text += it.Text
		}
	}
	return text
}

// inputPath is the file a tool call's input names, for reports.
func inputPath(input json.RawMessage) string {
	var in map[string]json.RawMessage
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	for _, k := range []string{"file_path", "path", "absolute_path", "notebook_path", "target_file"} {
		if s := jsonString(in[k]); s != "" {
			return s
		}
	}
	return ""
}

// errorText is the first line of a tool's error, without the
// <tool_use_error> tags Claude Code wraps some in.
func errorText(s string) string {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "<tool_use_error>")
	return firstLine(strings.TrimSpace(strings.TrimSuffix(s, "</tool_use_error>")))
}
