package session

import (
	"regexp"
	"strings"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Cline keeps each task's API history as
// tasks/<id>/api_conversation_history.json, an Anthropic messages array
// read by the messages reader, with these rules of its own (grounded in
// github:cline/cline, src/core/task/index.ts, src/core/prompts/
// responses.ts and src/core/task/tools/):
//
//   - The first user message is the task, "<task>\n...\n</task>"
//     (startTask). The user speaks again only inside tags: <feedback>
//     (on a completion, or with a rejection or approval of a tool),
//     <answer> (to ask_followup_question), <user_message> (when a task
//     is resumed, or in plan mode). Each such message starts a turn,
//     its request the tags' text. Every other user message (tool
//     results, environment_details, "[ERROR] You did not use a tool")
//     continues the turn: a task of one request is one turn, however
//     many tool results it took.
//   - A tool result is a text "[tool for 'path'] Result:" followed by
//     the result (toolDescription / getDescription, pushToolResult; the
//     older Cline.ts put the result in a text block of its own after
//     the header), or a tool_result block with that text when the
//     assistant called the tool natively (tool_use).
//   - The result of a call that failed is formatResponse.toolError
//     ("The tool execution failed with the following error:") or
//     toolDenied ("The user denied this operation."); such calls are
//     skipped. A call with no result was never run (Cline runs one tool
//     a message unless parallel calling is on, and says "Tool [...] was
//     not executed"); it is skipped too.
//   - A successful edit's result carries the file as saved
//     (fileEditWithoutUserChanges / fileEditWithUserChanges:
//     <final_file_content path="relPath">\n...\n</final_file_content>),
//     kept in Turn.Saved for replay to compare.

// clineTags are the tags a user's own words stand in.
var clineTags = []string{"task", "feedback", "answer", "user_message"}

// isClineTask reports whether a first user message is Cline's task.
func isClineTask(items []anthropicItem, text string) bool {
	if strings.HasPrefix(strings.TrimSpace(text), "<task>") {
		return true
	}
	for _, it := range items {
		if it.Type == "text" {
			return strings.HasPrefix(strings.TrimSpace(it.Text), "<task>")
		}
	}
	return false
}

// clineUnit is one XML call of an assistant message: the operations and
// failures of one path, read by the cline format's reader.
type clineUnit struct {
	path   string
	line   int
	ops    []translate.Operation
	failed []translate.Failure
}

// clineUnits groups the edits of an assistant message into its calls:
// a run of operations of one path and group (one replace_in_file's
// blocks), or one write; a failure joins the call of its path.
func clineUnits(r *translate.Reply, line int) []clineUnit {
	var units []clineUnit
	for i, op := range r.Ops {
		op.Line = line
		if i > 0 {
			prev := r.Ops[i-1]
			if prev.Path == op.Path && op.Group != 0 && prev.Group == op.Group {
				units[len(units)-1].ops = append(units[len(units)-1].ops, op)
				continue
			}
		}
		units = append(units, clineUnit{path: op.Path, line: line, ops: []translate.Operation{op}})
	}
next:
	for _, f := range r.Failed {
		f.Line = line
		for i := range units {
			if units[i].path == f.Path {
				units[i].failed = append(units[i].failed, f)
				continue next
			}
		}
		units = append(units, clineUnit{path: f.Path, line: line, failed: []translate.Failure{f}})
	}
	return units
}

// clineResult is one tool result of a user message.
type clineResult struct {
	tool, path, body string
}

var clineHeader = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[([A-Za-z0-9_]+)(?: for '(.*)')?\] Result:`) })

// clineResults reads the tool results among the texts of a user
// message: each header opens one, and the texts after it that open
// none belong to it.
func clineResults(texts []string) []clineResult {
	var out []clineResult
	for _, t := range texts {
		s := strings.TrimLeft(t, " \t\r\n")
		m := clineHeader().FindStringSubmatch(firstLine(s))
		if m == nil {
			if len(out) > 0 {
				out[len(out)-1].body += "\n" + t
			}
			continue
		}
		out = append(out, clineResult{tool: m[1], path: m[2], body: s[len(m[0]):]})
	}
	return out
}

// clineFailed reports whether a result's body says the call failed.
func clineFailed(body string) bool {
	b := strings.TrimSpace(body)
	return strings.HasPrefix(b, "The tool execution failed") || strings.HasPrefix(b, "The user denied this operation") ||
		strings.HasPrefix(b, "Error")
}

// clineError is the first line of what a failed result says: the
// error inside toolError's <error> tags, else the body's first line.
func clineError(body string) string {
	if e := tagText(body, "error"); e != "" {
		return firstLine(e)
	}
	return firstLine(strings.TrimSpace(body))
}

// clineSaved is the content of the <final_file_content> a result
// carries, and the path it names.
func clineSaved(body string) (name, content string, ok bool) {
	const open, end = `<final_file_content path="`, "\n</final_file_content>"
	i := strings.Index(body, open)
	if i < 0 {
		return "", "", false
	}
	rest := body[i+len(open):]
	q := strings.Index(rest, "\">\n")
	if q < 0 {
		return "", "", false
	}
	name, rest = rest[:q], rest[q+3:]
	j := strings.Index(rest, end)
	if j < 0 {
		return "", "", false
	}
	return name, rest[:j], true
}

// clineRequest is the user's words in a message's texts, or "" and
// false when it holds none. File contents and environment details are
// left out first, so that a tag inside a file is no request.
func clineRequest(texts []string) (string, bool) {
	var parts []string
	for _, t := range texts {
		for _, block := range []string{"final_file_content", "file_content", "environment_details"} {
			t = dropElements(t, block)
		}
		for _, tag := range clineTags {
			for rest := t; ; {
				i := strings.Index(rest, "<"+tag+">")
				if i < 0 {
					break
				}
				rest = rest[i+len(tag)+2:]
				j := strings.Index(rest, "</"+tag+">")
				if j < 0 {
					break
				}
				parts = append(parts, strings.TrimSpace(rest[:j]))
				rest = rest[j:]
			}
		}
	}
	if len(parts) == 0 {
		return "", false
	}
	return strings.Join(parts, "\n\n"), true
}

// dropElements removes every <tag ...>...</tag> from s.
func dropElements(s, tag string) string {
	for {
		i := strings.Index(s, "<"+tag)
		if i < 0 || len(s) == i+len(tag)+1 || (s[i+len(tag)+1] != '>' && s[i+len(tag)+1] != ' ') {
			return s
		}
		j := strings.Index(s[i:], "</"+tag+">")
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+j+len(tag)+3:]
	}
}

// clineUser reads a user message of a Cline history: the results it
// carries settle the calls before it, and its user's words, if any,
// are the request of a new turn.
func (m *messagesReader) clineUser(items []anthropicItem, text string, line int) (string, bool) {
	var texts []string
	if text != "" {
		texts = append(texts, text)
	}
	for _, it := range items {
		switch it.Type {
		case "text":
			texts = append(texts, it.Text)
		case "tool_result":
			body := resultText(it.Content)
			texts = append(texts, body)
			if rs := clineResults([]string{body}); len(rs) > 0 {
				body = rs[0].body
			}
			m.result(it.ToolUseID, it.IsError || clineFailed(body), body)
			if name, content, ok := clineSaved(body); ok && it.ToolUseID != "" {
				if m.saved == nil {
					m.saved = map[string]Saved{}
				}
				m.saved[it.ToolUseID] = Saved{Line: line, Name: name, Content: content}
			}
		}
	}
	m.clineResolve(clineResults(texts), line)
	// The results of a message are settled before its words open a
	// turn: they answer the calls of the turn before.
	req, ok := clineRequest(texts)
	if !ok && m.n == 0 {
		return strings.TrimSpace(strings.Join(texts, "\n\n")), true
	}
	return req, ok
}

// clineResolve settles the calls awaiting results: the XML calls by
// the results rs (matched by path, in order), the native calls by the
// results read by id. A call without a result was not run. line is
// the log line of the message carrying rs.
func (m *messagesReader) clineResolve(rs []clineResult, line int) {
	used := make([]bool, len(rs))
	for _, u := range m.xml {
		k := -1
		for i, r := range rs {
			if !used[i] && translate.LooksLikeEdit(r.tool, nil) && samePath(r.path, u.path) {
				k = i
				break
			}
		}
		if k < 0 {
			m.b.skip(u.line, u.path, "Cline has no result of it in the log: it was not run")
			continue
		}
		used[k] = true
		if clineFailed(rs[k].body) {
			m.b.skip(u.line, u.path, rs[k].tool+" failed: "+clineError(rs[k].body))
			continue
		}
		var saved *Saved
		if name, content, ok := clineSaved(rs[k].body); ok {
			saved = &Saved{Line: line, Name: name, Content: content}
		}
		m.b.failed = append(m.b.failed, u.failed...)
		m.b.keep(u.ops, saved)
	}
	m.xml = nil
	for _, call := range m.calls {
		ops, path := m.callOps(call)
		if len(ops) == 0 {
			continue
		}
		res, answered := m.res[call.id]
		switch {
		case !answered:
			m.b.skip(call.line, path, call.name+" has no result in the log: Cline did not run it")
		case res.isError:
			m.b.skip(call.line, path, call.name+" failed: "+clineError(res.text))
		default:
			var saved *Saved
			if s, ok := m.saved[call.id]; ok {
				saved = &s
			}
			m.b.keep(ops, saved)
		}
	}
	m.calls, m.res, m.saved = nil, nil, nil
}

// keep adds a call's operations to the turn with the content the
// session saved of its file, if known: it replaces what was saved of
// the file before, and an edit with no saved content leaves nothing to
// compare.
func (b *builder) keep(ops []translate.Operation, saved *Saved) {
	b.ops = append(b.ops, ops...)
	kept := b.t.Saved[:0]
	for _, s := range b.t.Saved {
		drop := false
		for _, op := range ops {
			drop = drop || op.Path == s.Path || op.NewPath == s.Path
		}
		if !drop {
			kept = append(kept, s)
		}
	}
	b.t.Saved = kept
	if saved != nil && len(ops) > 0 {
		saved.Path = ops[0].Path
		b.t.Saved = append(b.t.Saved, *saved)
	}
}
