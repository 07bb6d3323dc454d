package translate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync/atomic"
)

// FormatToolCalls is the JSON tool calls coding agents make.
const FormatToolCalls = "tool-calls"

// ToolCall reads one tool call, by its tool's name (Edit, MultiEdit,
// Write, str_replace_based_edit_tool, str_replace_editor, replace,
// write_file, apply_patch, ...) and its JSON input (the arguments
// object), as the tool-calls format reads it. Every operation carries
// root (the session's cwd, "" when unknown) and line (the reply or log
// line of the call). A tool that edits nothing (view, read, a shell
// command) gives no operation and no error; input the tool would refuse
// gives an error saying why. A call of a tool it does not know that
// looks like an edit (see LooksLikeEdit) gives ErrNotRead, wrapped
// with the call's shape; another unknown tool gives nothing.
//
// The input of apply_patch may also be the patch itself (a Codex custom
// tool call), and that of a shell call (shell, exec_command, Bash, ...)
// is read only when its command runs apply_patch. The operations of an
// apply_patch call carry the apply-patch format (its matching
// tolerance); the others carry tool-calls. A patch section that cannot
// be read is an Invalid operation, like a failed block of a reply.
//
// Session readers (package session) call it for each tool call a log
// records.
func ToolCall(name string, input []byte, root string, line int) ([]Operation, error) {
	ops, _, err := ToolCallWarnings(name, input, root, line)
	return ops, err
}

// ToolCallWarnings is ToolCall with the warnings about the call (a
// near-miss marker of a diff, a fence taken off a written file), each
// at line.
func ToolCallWarnings(name string, input []byte, root string, line int) ([]Operation, []Warning, error) {
	c := readCall(name, input, root, line)
	if c.unread != "" {
		return nil, c.warns, fmt.Errorf("%w: %s", ErrNotRead, c.unread)
	}
	return c.ops, c.warns, c.err
}

// callResult is what one tool call gave: its operations, warnings
// about it, the path it names (for a failure) and why it was refused.
// known says whether the reader knows the tool, edits or not.
// unread, when not "", says that the call looks like an edit of a tool
// the reader does not know, and what it looks like.
type callResult struct {
	ops    []Operation
	warns  []Warning
	path   string
	err    error
	known  bool
	unread string
}

// readOnlyTools are the tools of Claude Code, Gemini CLI, Codex,
// OpenHands, Cline (src/shared/tools.ts, ClineDefaultTool) and Roo
// Code (src/core/prompts/tools/native-tools) that change no file:
// their calls give nothing.
var readOnlyTools = map[string]bool{
	"read": true, "glob": true, "grep": true, "ls": true, "webfetch": true, "websearch": true,
	"todowrite": true, "task": true, "notebookread": true, "bashoutput": true, "killshell": true,
	"exitplanmode": true, "slashcommand": true, "read_file": true, "read_many_files": true,
	"list_directory": true, "search_file_content": true, "grep_search": true,
	"google_web_search": true, "web_fetch": true, "save_memory": true, "write_todos": true,
	"update_plan": true, "view_image": true, "think": true, "finish": true, "web_search": true,
	"list_dir": true, "codebase_search": true, "file_search": true,
	"ask_followup_question": true, "attempt_completion": true, "search_files": true, "list_files": true,
	"list_code_definition_names": true, "browser_action": true, "load_mcp_documentation": true,
	"access_mcp_resource": true, "new_task": true, "plan_mode_respond": true, "act_mode_respond": true,
	"focus_chain": true, "condense": true, "summarize_task": true, "report_bug": true,
	"generate_explanation": true, "use_skill": true, "use_subagents": true, "switch_mode": true,
	"update_todo_list": true, "run_slash_command": true, "skill": true, "read_command_output": true,
}

// shellTools are the tools that run a command line: Codex's shell,
// exec and local shell, Claude Code's Bash, Gemini CLI's
// run_shell_command, OpenHands' execute_bash, Cline's and Roo Code's
// execute_command.
var shellTools = map[string]bool{
	"shell": true, "container.exec": true, "exec": true, "exec_command": true, "local_shell": true,
	"shell_command": true, "bash": true, "run_shell_command": true, "execute_bash": true,
	"execute_command": true,
}

// callSeq numbers the tool calls read, for Operation.Call: a number
// drawn once per call is unique within any reply, whichever reader
// (the tool-calls format, a session log's) gathers the calls.
var callSeq atomic.Int64

// groupSeq numbers the groups of the operations of tool calls (see
// readCall).
var groupSeq atomic.Int64

func readCall(name string, input []byte, root string, line int) callResult {
	tool := toolKey(name)
	var c callResult
	c.known = true
	switch {
	case tool == "apply_patch" || tool == "applypatch":
		c = applyPatchCall(input, line)
	case shellTools[tool]:
		c = shellCall(input, line)
	case readOnlyTools[tool]:
	case !isEditTool(tool):
		// A tool this reader does not read: an edit it cannot read
		// when it looks like one (SPEC section 2), else skipped.
		c.known = false
		if a, err := callArgs(name, input); editToolNames[tool] || err == nil && editArgs(a) {
			c.unread = unreadMsg(name, input)
			c.path, _ = a.anyString(pathKeys...)
		} else {
			c.warns = []Warning{warning(line, "the tool call %q is not an edit tool this reader knows; it is skipped", name)}
		}
	default:
		a, err := callArgs(name, input)
		if err != nil {
			return callResult{err: err, known: true}
		}
		c.path, _ = a.anyString("file_path", "filePath", "absolutePath", "path", "target_file", "target_filepath", "TargetFile")
		switch tool {
		case "edit", "search_replace":
			c.ops, c.err = editCall(a)
		case "multiedit":
			c.ops, c.err = multiEditCall(a)
		case "write", "write_file":
			c.ops, c.err = writeCall(a)
		case "edit_file":
			// Two tools share the name: Cursor's, Windsurf's and Morph's
			// lazy edit (code_edit with "... existing code ..." markers,
			// toolcall_lazy.go) and Roo Code's, read as Gemini CLI's
			// replace (old_string, new_string).
			_, lazy := a["code_edit"]
			if _, ok := a["CodeEdit"]; ok {
				lazy = true // Windsurf's
			}
			if lazy {
				c.ops, c.err = editFileCall(a)
			} else {
				c.ops, c.err = geminiReplaceCall(a)
			}
		case "replace":
			c.ops, c.err = geminiReplaceCall(a)
		case "str_replace_based_edit_tool", "str_replace_editor", "text_editor":
			c.ops, c.err = textEditorCall(a)
		case "replace_in_file", "apply_diff":
			c = agentDiffCall(name, a, line, tool == "apply_diff")
		case "write_to_file":
			c = agentWriteCall(name, a, line)
		case "notebookedit":
			c.err = errors.New("NotebookEdit changes cells of a Jupyter notebook, which this reader does not apply: edit the notebook's JSON with Edit instead")
		}
	}
	if c.err != nil {
		c.err = fmt.Errorf("%s: %w", name, c.err)
		c.ops = nil
	}
	call := int(callSeq.Add(1))
	var groups map[int]int
	for i := range c.ops {
		op := &c.ops[i]
		op.Line, op.Root, op.Call = line, root, call
		if op.Format == "" {
			op.Format = FormatToolCalls
		}
		if op.Group != 0 {
			// The groups a call's reader numbered from 1 (the blocks of
			// a diff, the hunks of a patch's file) are numbered anew,
			// below 0, so that no two calls' groups, nor a call's and a
			// reply reader's, are ever one.
			if groups == nil {
				groups = map[int]int{}
			}
			if groups[op.Group] == 0 {
				groups[op.Group] = -int(groupSeq.Add(1))
			}
			op.Group = groups[op.Group]
		}
	}
	return c
}

// isEditTool reports whether tool (lower case) names an edit tool this
// reader reads.
func isEditTool(tool string) bool {
	switch tool {
	case "edit", "multiedit", "write", "write_file", "replace", "str_replace_based_edit_tool",
		"str_replace_editor", "text_editor", "notebookedit", "apply_patch", "applypatch",
		"replace_in_file", "write_to_file", "apply_diff", "edit_file", "search_replace":
		return true
	}
	return false
}

// args are a tool call's arguments, each kept as JSON until a tool's
// reader asks for it by name and type.
type args map[string]json.RawMessage

func callArgs(name string, input []byte) (args, error) {
	input = bytes.TrimSpace(input)
	if len(input) == 0 {
		return nil, fmt.Errorf("the call of %s has no arguments", name)
	}
	if input[0] != '{' || !validJSON(input) {
		return nil, fmt.Errorf("the arguments of %s are not a JSON object", name)
	}
	// Once valid, the object is walked in place, as json.Unmarshal into
	// the map would read it, the last of two equal keys winning, each
	// value the bytes of the input it stands on; decoding it through
	// reflection took a third of the time of reading a reply of 10,000
	// tool calls, and copying the input and each value, a tenth.
	a := make(args, 4)
	i := skipSpace(input, 1)
	for i < len(input) && input[i] == '"' {
		kend := stringEnd(input, i)
		k, ok := argKeys[string(input[i+1:kend-1])]
		if !ok {
			// unquote reads the key as Unmarshal does, escapes and
			// bytes that are no UTF-8 included.
			k, _ = unquote(input[i:kend])
		}
		vs := skipSpace(input, skipSpace(input, kend)+1) // past the colon
		ve := jsonEnd(input, vs)
		a[k] = json.RawMessage(input[vs:ve:ve])
		i = skipSpace(input, ve)
		if i < len(input) && input[i] == ',' {
			i = skipSpace(input, i+1)
		}
	}
	return a, nil
}

// argKeys are the names of the arguments the readers look for, kept
// so that reading a call's keys makes no string of each.
var argKeys = func() map[string]string {
	m := map[string]string{}
	for _, keys := range [][]string{pathKeys, textKeys, {"old_string", "new_string", "replace_all", "replaceAll",
		"file_path", "content", "edits", "command", "input", "code_edit", "instructions", "description"}} {
		for _, k := range keys {
			m[k] = k
		}
	}
	return m
}()

// str returns the string argument key; it fails when the argument is
// missing (unless optional) or not a string.
func (a args) str(key string, optional bool) (string, bool, error) {
	raw, ok := a[key]
	if !ok || optional && string(bytes.TrimSpace(raw)) == "null" {
		if optional {
			return "", false, nil
		}
		return "", false, fmt.Errorf("the argument %s is missing", key)
	}
	if s, ok := unquote(raw); ok {
		return s, true, nil
	}
	var s string
	return s, true, decodeField("the argument "+key, raw, &s)
}

// anyString returns the first of keys that is a string argument.
func (a args) anyString(keys ...string) (string, string) {
	for _, k := range keys {
		if raw, ok := a[k]; ok {
			if s, ok := unquote(raw); ok {
				return s, k
			}
			var s string
			if json.Unmarshal(raw, &s) == nil {
				return s, k
			}
		}
	}
	return "", ""
}

// text returns the first of keys present, which must be a string; with
// none present it fails naming the first key, unless optional.
func (a args) text(optional bool, keys ...string) (string, bool, error) {
	for _, k := range keys {
		if _, ok := a[k]; ok {
			return a.str(k, optional)
		}
	}
	if optional {
		return "", false, nil
	}
	return "", false, fmt.Errorf("the argument %s is missing", keys[0])
}

// flag returns the optional boolean argument of keys (false when absent).
func (a args) flag(keys ...string) (bool, error) {
	for _, k := range keys {
		if raw, ok := a[k]; ok && string(bytes.TrimSpace(raw)) != "null" {
			var b bool
			return b, decodeField("the argument "+k, raw, &b)
		}
	}
	return false, nil
}

// number returns the integer argument key and whether it is present.
func (a args) number(key string) (int, bool, error) {
	raw, ok := a[key]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return 0, false, nil
	}
	var n int
	return n, true, decodeField("the argument "+key, raw, &n)
}

// filePath is the path argument of keys, which must be a non-empty
// string.
func (a args) filePath(keys ...string) (string, error) {
	p, _, err := a.text(false, keys...)
	if err == nil && strings.TrimSpace(p) == "" {
		err = fmt.Errorf("the argument %s is empty", keys[0])
	}
	return p, err
}

// lf makes a tool call's text use "\n" line breaks: the engine matches
// it against files whose line endings it reads as "\n". The carriage
// returns right before a "\n" belong to the break, however many: one
// pass over "\r\r\n" would leave a "\r\n".
func lf(s string) string {
	for strings.Contains(s, "\r\n") {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s
}

// fileContent is the Content of a Create holding text: lines each
// ended by "\n" (a new file ends with a newline). Carriage returns
// ending the text are its last line's break, as they would be before
// a "\n".
func fileContent(text string) string {
	text = lf(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text = strings.TrimRight(text, "\r") + "\n"
	}
	return text
}

// shellCall reads a shell call whose command runs apply_patch: Codex's
// {"command": ["apply_patch", PATCH]}, or a script (["bash", "-lc",
// SCRIPT], or a command string) that feeds apply_patch a heredoc.
// Any other command gives nothing.
func shellCall(input []byte, line int) callResult {
	var a args
	if json.Unmarshal(input, &a) != nil {
		return callResult{known: true}
	}
	if action, ok := a["action"]; ok { // a local_shell_call's
		json.Unmarshal(action, &a)
	}
	var argv []string
	var script string
	for _, k := range []string{"command", "cmd"} {
		if raw, ok := a[k]; ok {
			if json.Unmarshal(raw, &argv) != nil {
				json.Unmarshal(raw, &script)
			}
			break
		}
	}
	switch {
	case len(argv) == 2 && (path.Base(argv[0]) == "apply_patch" || path.Base(argv[0]) == "applypatch"):
		return patchCall(argv[1], line)
	case len(argv) == 3 && strings.HasPrefix(argv[1], "-") && strings.HasSuffix(argv[1], "c"):
		script = argv[2]
	}
	if (strings.Contains(script, "apply_patch") || strings.Contains(script, "applypatch")) && strings.Contains(script, apBegin) {
		return patchCall(script, line)
	}
	return callResult{known: true}
}

// applyPatchCall reads Codex's apply_patch call: {"input": PATCH} as a
// function call, or the patch text itself as a custom tool call.
func applyPatchCall(input []byte, line int) callResult {
	text := string(input)
	if t := bytes.TrimSpace(input); len(t) > 0 && t[0] == '{' {
		a, err := callArgs("apply_patch", input)
		if err != nil {
			return callResult{err: err, known: true}
		}
		if text, _, err = a.text(false, "input", "patch"); err != nil {
			return callResult{err: err, known: true}
		}
	}
	return patchCall(text, line)
}

// patchCall reads the apply-patch document of a call at reply line
// line with the apply-patch reader: every operation, failure and
// warning stands at the call's line (a warning names the patch's own).
func patchCall(text string, line int) callResult {
	c := callResult{known: true}
	r, err := readApplyPatch(text)
	if err != nil {
		c.err = fmt.Errorf("the patch holds no edit (%s)", strings.TrimPrefix(err.Error(), ErrNoEdits.Error()+": "))
		return c
	}
	for _, op := range r.Ops {
		op.Format = FormatApplyPatch
		c.ops = append(c.ops, op)
	}
	for _, f := range r.Failed {
		c.ops = append(c.ops, Operation{Kind: Invalid, Path: f.Path, Line: f.Line, Comment: fmt.Sprintf("apply_patch, patch line %d: %s", f.Line, f.Msg)})
	}
	// In patch order, before every operation takes the call's line.
	sort.SliceStable(c.ops, func(i, j int) bool { return c.ops[i].Line < c.ops[j].Line })
	for _, w := range r.Warnings {
		c.warns = append(c.warns, warning(line, "apply_patch, patch line %d: %s", w.Line, w.Msg))
	}
	return c
}
