package session

import (
	"bufio"
	"encoding/json"
	"io"
	"path"
	"strconv"
	"strings"
)

// Codex CLI writes each session as JSON Lines under
// ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl. Today each line is a
// RolloutLine (codex-rs/protocol/src/protocol.rs): {"timestamp", "type":
// "session_meta"|"response_item"|"event_msg"|"turn_context"|
// "compacted", "payload"}; older logs wrote a session meta object
// ({"id", "timestamp", "instructions"}) and then the bare ResponseItems
// of codex-rs/protocol/src/models.rs, with {"record_type": "state"}
// lines between.
//
// Requests are user_message events; the user messages among the
// response items repeat them, together with the environment context
// and the user instructions, and are read only in old logs, which have
// no events (then a user message that is neither context nor
// instructions is the request). Edits are apply_patch calls: the
// apply_patch function ({"input": PATCH}), the freeform custom tool
// (its input is the patch), and shell calls that run apply_patch
// (["apply_patch", PATCH], or a `bash -lc` script `apply_patch
// <<'EOF'` ... EOF, maybe after `cd DIR &&`), the forms codex-rs
// apply-patch's maybe_parse_apply_patch accepts. Their paths are
// relative to the call's workdir, else the cwd in force (session_meta
// and turn_context). Other shell commands are not replayed.
//
// The session's top is the first cwd the log records (the
// session_meta's, codex-rs protocol SessionMeta.cwd), established once
// (SPEC section 5): it is the Root of every operation. A later cwd (a
// turn_context in a subdirectory, or another project) is no new top:
// a relative path of a call made there is made absolute under it, and
// placed by where it stands relative to the top. The git info of
// session_meta (commit, branch, remote URL) names no directory.
//
// A call is skipped when its output reports failure: a shell output
// whose exit code is not 0 ({"metadata": {"exit_code"}} or "Exit code:
// N"), an error, a rejection by the user, or an exec_command_end /
// patch_apply_end event saying so.
type codexReader struct {
	lines    lines
	n        int
	b        builder
	cwd      string // the cwd in force
	top      string // the first cwd: the session's top
	envelope bool
	calls    []codexCall
	failed   map[string]string // call id: why it failed
	agent    []string          // agent_message events, when no assistant items
	said     bool              // the turn had assistant response items
}

type codexCall struct {
	id, patch, dir string
	cwd            string // the cwd in force when the call was made
	line           int
}

type codexItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	CallID    string          `json:"call_id"`
	ID        string          `json:"id"`
	Output    json.RawMessage `json:"output"`
	Action    *struct {
		Command          []string `json:"command"`
		WorkingDirectory string   `json:"working_directory"`
	} `json:"action"`
	// events and meta
	Message  string `json:"message"`
	Cwd      string `json:"cwd"`
	ExitCode *int   `json:"exit_code"`
	Success  *bool  `json:"success"`
	Stderr   string `json:"stderr"`
}

func newCodexReader(r *bufio.Reader) *codexReader {
	return &codexReader{lines: lines{r: r}}
}

func (c *codexReader) next() (*Turn, error) {
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
		if strings.TrimSpace(string(raw)) == "" {
			continue
		}
		var env struct {
			Type       string          `json:"type"`
			Payload    json.RawMessage `json:"payload"`
			RecordType string          `json:"record_type"`
			ID         json.RawMessage `json:"id"`
			Role       string          `json:"role"`
		}
		if err := json.Unmarshal(raw, &env); err != nil {
			return nil, &LineError{Kind: Codex, Line: line, Msg: "not a JSON record: " + err.Error()}
		}
		kind, body := env.Type, json.RawMessage(raw)
		switch {
		case len(env.Payload) > 0:
			c.envelope = true
			body = env.Payload
		case env.RecordType != "":
			continue
		case env.Type == "" && len(env.ID) > 0:
			kind = "session_meta"
		default:
			kind = "response_item"
		}
		var it codexItem
		if err := json.Unmarshal(body, &it); err != nil {
			return nil, &LineError{Kind: Codex, Line: line, Msg: kind + ": " + err.Error()}
		}
		var req string
		isReq := false
		switch kind {
		case "session_meta", "turn_context":
			c.setCwd(it.Cwd)
		case "event_msg":
			switch it.Type {
			case "user_message":
				req, isReq = it.Message, true
			case "agent_message":
				c.agent = append(c.agent, it.Message)
			case "exec_command_end":
				if it.ExitCode != nil && *it.ExitCode != 0 {
					c.fail(it.CallID, "exit code "+strconv.Itoa(*it.ExitCode)+": "+firstLine(strings.TrimSpace(it.Stderr)))
				}
			case "patch_apply_end":
				if it.Success != nil && !*it.Success {
					c.fail(it.CallID, "patch failed: "+firstLine(strings.TrimSpace(it.Stderr)))
				}
			}
		case "response_item":
			req, isReq = c.item(&it, line)
		}
		if isReq {
			var done *Turn
			if !c.b.empty() {
				done = c.finish()
			}
			c.n++
			c.b.open(c.n, line, strings.TrimSpace(req))
			if done != nil {
				return done, nil
			}
		}
	}
}

// item reads one response item; it returns the request an old log's
// user message makes.
func (c *codexReader) item(it *codexItem, line int) (string, bool) {
	switch it.Type {
	case "message":
		text := codexText(it.Content)
		switch it.Role {
		case "user":
			if strings.Contains(text, "<environment_context>") {
				c.setCwd(tagText(text, "cwd"))
			}
			if !c.envelope && !codexContext(text) {
				return text, true
			}
		case "assistant":
			c.said = true
			c.b.say(text)
		}
	case "function_call":
		if it.Name == "apply_patch" {
			var args struct {
				Input string `json:"input"`
			}
			_ = json.Unmarshal([]byte(it.Arguments), &args)
			c.call(it.CallID, args.Input, "", line)
			return "", false
		}
		var args struct {
			Command json.RawMessage `json:"command"`
			Cmd     string          `json:"cmd"`
			Workdir string          `json:"workdir"`
		}
		if json.Unmarshal([]byte(it.Arguments), &args) != nil {
			return "", false
		}
		var argv []string
		if json.Unmarshal(args.Command, &argv) != nil {
			script := jsonString(args.Command)
			if script == "" {
				script = args.Cmd
			}
			if script != "" {
				argv = []string{"bash", "-lc", script}
			}
		}
		if patch, dir, ok := shellPatch(argv); ok {
			c.call(it.CallID, patch, joinDir(args.Workdir, dir), line)
		}
	case "local_shell_call":
		if it.Action != nil {
			if patch, dir, ok := shellPatch(it.Action.Command); ok {
				id := it.CallID
				if id == "" {
					id = it.ID
				}
				c.call(id, patch, joinDir(it.Action.WorkingDirectory, dir), line)
			}
		}
	case "custom_tool_call":
		if it.Name == "apply_patch" {
			c.call(it.CallID, it.Input, "", line)
		}
	case "function_call_output", "custom_tool_call_output":
		if why := codexFailure(it.Output); why != "" {
			c.fail(it.CallID, why)
		}
	}
	return "", false
}

func (c *codexReader) call(id, patch, dir string, line int) {
	c.calls = append(c.calls, codexCall{id: id, patch: patch, dir: dir, cwd: c.cwd, line: line})
}

func (c *codexReader) fail(id, why string) {
	if id == "" {
		return
	}
	if c.failed == nil {
		c.failed = map[string]string{}
	}
	if _, ok := c.failed[id]; !ok {
		c.failed[id] = why
	}
}

func (c *codexReader) finish() *Turn {
	if !c.said {
		for _, a := range c.agent {
			c.b.say(a)
		}
	}
	for _, call := range c.calls {
		input, _ := json.Marshal(struct {
			Input string `json:"input"`
		}{call.patch})
		ops, warn := toolOps("apply_patch", input, c.top, call.line)
		if warn != "" {
			c.b.warn(call.line, warn)
		}
		dir := joinDir(call.dir, "")
		switch {
		case dir != "" && !isAbs(dir) && call.cwd != "":
			dir = path.Join(call.cwd, dir)
		case dir == "" && call.cwd != c.top:
			dir = call.cwd // a call made after the session moved
		}
		for i := range ops {
			ops[i].Path = underDir(dir, ops[i].Path)
			ops[i].NewPath = underDir(dir, ops[i].NewPath)
		}
		if why, bad := c.failed[call.id]; bad {
			p := ""
			if len(ops) > 0 {
				p = ops[0].Path
			}
			c.b.skip(call.line, p, "apply_patch failed: "+why)
			continue
		}
		c.b.ops = append(c.b.ops, ops...)
	}
	c.calls, c.failed, c.agent, c.said = nil, nil, nil, false
	return c.b.finish()
}

// setCwd notes a cwd the log records; the first is the session's top.
func (c *codexReader) setCwd(cwd string) {
	if cwd == "" {
		return
	}
	c.cwd = cwd
	if c.top == "" {
		c.top = cwd
	}
}

// isAbs reports whether p is absolute on POSIX or Windows (C:\x, C:/x,
// \\server\share), as Codex on Windows records its cwd.
func isAbs(p string) bool {
	return path.IsAbs(p) || strings.HasPrefix(p, `\\`) ||
		len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') && (p[0]|0x20 >= 'a' && p[0]|0x20 <= 'z')
}

// underDir makes a relative path of a patch run in dir (not the
// session's top) absolute, so that it resolves where the agent ran it.
func underDir(dir, p string) string {
	if dir == "" || p == "" || isAbs(p) {
		return p
	}
	return path.Join(dir, p)
}

// joinDir joins a call's workdir and the directory its script cds to.
func joinDir(workdir, cd string) string {
	switch {
	case cd == "":
		return workdir
	case workdir == "" || isAbs(cd):
		return cd
	}
	return path.Join(workdir, cd)
}

// codexContext reports whether a user message is context Codex adds,
// not the user's words.
func codexContext(text string) bool {
	t := strings.TrimSpace(text)
	for _, p := range []string{"<environment_context>", "<user_instructions>", "# AGENTS.md instructions", "<INSTRUCTIONS>", "<user_shell_command>", "<turn_aborted>"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return t == ""
}

// codexText joins the text items of a message's content.
func codexText(raw json.RawMessage) string {
	if len(raw) > 0 && raw[0] == '"' {
		return jsonString(raw)
	}
	var items []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &items) != nil {
		return ""
	}
	var parts []string
	for _, it := range items {
		if it.Text != "" {
			parts = append(parts, it.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// codexFailure says why a call's output reports failure, or "".
func codexFailure(raw json.RawMessage) string {
	out := strings.TrimSpace(codexText(raw))
	if out == "" {
		return ""
	}
	if strings.HasPrefix(out, "{") {
		var o struct {
			Output   string          `json:"output"`
			Error    json.RawMessage `json:"error"`
			Metadata struct {
				ExitCode *int `json:"exit_code"`
			} `json:"metadata"`
		}
		if json.Unmarshal([]byte(out), &o) == nil {
			if len(o.Error) > 0 && string(o.Error) != "null" {
				return "error: " + firstLine(strings.Trim(string(o.Error), `"`))
			}
			if o.Metadata.ExitCode != nil && *o.Metadata.ExitCode != 0 {
				return "exit code " + strconv.Itoa(*o.Metadata.ExitCode) + ": " + firstLine(strings.TrimSpace(o.Output))
			}
			return ""
		}
	}
	for _, l := range strings.Split(out, "\n") {
		for _, p := range []string{"Exit code: ", "Process exited with code "} {
			if n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(l, p))); err == nil && strings.HasPrefix(l, p) && n != 0 {
				return "exit code " + strconv.Itoa(n) + ": " + firstLine(out)
			}
		}
	}
	low := strings.ToLower(firstLine(out))
	for _, p := range []string{"error", "apply_patch verification failed", "failed to apply", "exec command rejected", "patch rejected", "aborted", "apply_patch handler received invalid patch input"} {
		if strings.HasPrefix(low, p) {
			return firstLine(out)
		}
	}
	return ""
}

// shellPatch finds the patch of a shell call that runs apply_patch:
// argv ["apply_patch", PATCH] (or "applypatch"), or a shell script
// (bash/sh/zsh -c or -lc) that runs `apply_patch <<'EOF'` with a
// heredoc, possibly after `cd DIR &&`. dir is that DIR.
func shellPatch(argv []string) (patch, dir string, ok bool) {
	if len(argv) == 2 && (argv[0] == "apply_patch" || argv[0] == "applypatch") {
		return argv[1], "", true
	}
	if len(argv) != 3 {
		return "", "", false
	}
	switch path.Base(argv[0]) {
	case "bash", "sh", "zsh":
	default:
		return "", "", false
	}
	if argv[1] != "-lc" && argv[1] != "-c" {
		return "", "", false
	}
	return heredocPatch(argv[2])
}

// heredocPatch reads `[cd DIR &&] apply_patch <<'EOF'\nPATCH\nEOF`.
func heredocPatch(script string) (patch, dir string, ok bool) {
	first, body, _ := strings.Cut(strings.TrimLeft(script, " \t\n"), "\n")
	first = strings.TrimSpace(first)
	if rest, found := strings.CutPrefix(first, "cd "); found {
		d, after, and := strings.Cut(rest, "&&")
		if !and {
			return "", "", false
		}
		dir = strings.Trim(strings.TrimSpace(d), `'"`)
		first = strings.TrimSpace(after)
	}
	cmd, delim, found := strings.Cut(first, "<<")
	cmd = strings.TrimSpace(cmd)
	if !found || (cmd != "apply_patch" && cmd != "applypatch") {
		return "", "", false
	}
	delim = strings.Trim(strings.TrimSpace(strings.TrimPrefix(delim, "-")), `'"`)
	if delim == "" || strings.ContainsAny(delim, " \t") {
		return "", "", false
	}
	var b strings.Builder
	for _, l := range strings.SplitAfter(body, "\n") {
		if strings.TrimRight(l, "\r\n") == delim {
			return b.String(), dir, true
		}
		b.WriteString(l)
	}
	return "", "", false
}
