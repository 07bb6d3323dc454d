package session

import (
	"bufio"
	"encoding/json"
	"io"
	"strings"
)

// Gemini CLI's --output-format stream-json writes one JSON event a line
// (JsonStreamEvent in packages/core/src/output/types.ts, emitted by
// packages/cli/src/nonInteractiveCli.ts):
//
//   - {"type": "init", "session_id", "model"}: the session starts; it
//     names no working directory, so Gemini's absolute file_path
//     arguments are mapped by the tracked paths they end in (SPEC
//     section 5);
//   - {"type": "message", "role": "user"|"assistant", "content",
//     "delta"}: the user's request, or a piece of the assistant's text
//     (delta: the pieces of one message follow each other);
//   - {"type": "tool_use", "tool_name", "tool_id", "parameters"}: a call,
//     read by translate.ToolCall (replace, write_file);
//   - {"type": "tool_result", "tool_id", "status": "success"|"error",
//     "output", "error": {"type", "message"}}: what the call did;
//   - {"type": "error"} and {"type": "result"}: warnings and the end.
//
// A turn starts at a user message. A call whose result has status
// "error" (or carries an error) failed in Gemini and is skipped, and so
// is a call without a result: the run ended before it reported.
type geminiReader struct {
	lines lines
	n     int
	b     builder
	calls []claudeCall
	res   map[string]claudeResult
	text  strings.Builder // the assistant's message being streamed
}

type geminiEvent struct {
	Type       string          `json:"type"`
	Role       string          `json:"role"`
	Content    string          `json:"content"`
	Delta      bool            `json:"delta"`
	ToolName   string          `json:"tool_name"`
	ToolID     string          `json:"tool_id"`
	Parameters json.RawMessage `json:"parameters"`
	Status     string          `json:"status"`
	Output     string          `json:"output"`
	Error      *struct {
		Message string `json:"message"`
	} `json:"error"`
}

func newGeminiReader(r *bufio.Reader) *geminiReader {
	return &geminiReader{lines: lines{r: r}}
}

func (g *geminiReader) next() (*Turn, error) {
	for {
		raw, ok := g.lines.next()
		if !ok {
			if g.lines.err != nil {
				return nil, g.lines.err
			}
			g.said()
			if g.b.empty() {
				return nil, io.EOF
			}
			return g.finish(), nil
		}
		line := g.lines.n
		if strings.TrimSpace(string(raw)) == "" {
			continue
		}
		var ev geminiEvent
		if err := json.Unmarshal(raw, &ev); err != nil {
			return nil, &LineError{Kind: Gemini, Line: line, Msg: "not a JSON event: " + err.Error()}
		}
		switch ev.Type {
		case "message":
			if ev.Role == "user" {
				g.said()
				var done *Turn
				if !g.b.empty() {
					done = g.finish()
				}
				g.n++
				g.b.open(g.n, line, strings.TrimSpace(ev.Content))
				if done != nil {
					return done, nil
				}
				continue
			}
			if !ev.Delta {
				g.said()
			}
			g.text.WriteString(ev.Content)
		case "tool_use":
			g.said()
			g.calls = append(g.calls, claudeCall{id: ev.ToolID, name: ev.ToolName, input: ev.Parameters, line: line})
		case "tool_result":
			g.said()
			if ev.ToolID == "" {
				continue
			}
			if g.res == nil {
				g.res = map[string]claudeResult{}
			}
			r := claudeResult{isError: ev.Status == "error" || ev.Error != nil, text: ev.Output}
			if ev.Error != nil {
				r.text = ev.Error.Message
			}
			g.res[ev.ToolID] = r
		}
	}
}

// said ends the assistant's message being streamed.
func (g *geminiReader) said() {
	if g.text.Len() > 0 {
		g.b.say(g.text.String())
		g.text.Reset()
	}
}

// finish resolves the turn's calls against their results.
func (g *geminiReader) finish() *Turn {
	for _, call := range g.calls {
		res, answered := g.res[call.id]
		path := inputPath(call.input)
		ops, warn := toolOps(call.name, call.input, "", call.line)
		if warn != "" {
			g.b.warn(call.line, warn)
		}
		if len(ops) == 0 {
			continue
		}
		if path == "" {
			path = ops[0].Path
		}
		switch {
		case answered && res.isError:
			g.b.skip(call.line, path, call.name+" failed: "+errorText(res.text))
		case !answered:
			g.b.skip(call.line, path, call.name+" has no result in the log: the run ended before it ran or reported")
		default:
			g.b.ops = append(g.b.ops, ops...)
		}
	}
	g.calls, g.res = nil, nil
	return g.b.finish()
}
