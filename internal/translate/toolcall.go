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
// gives an error saying why.
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
	c := readCall(name, input, root, line)
	return c.ops, c.err
}

// callResult is what one tool call gave: its operations, warnings
// about it, the path it names (for a failure) and why it was refused.
// known says whether the reader knows the tool, edits or not.
type callResult struct {
	ops   []Operation
	warns []Warning
	path  string
	err   error
	known bool
}

// readOnlyTools are the tools of Claude Code, Gemini CLI, Codex and
// OpenHands that change no file: their calls give nothing.
var readOnlyTools = map[string]bool{
	"read": true, "glob": true, "grep": true, "ls": true, "webfetch": true, "websearch": true,
	"todowrite": true, "task": true, "notebookread": true, "bashoutput": true, "killshell": true,
	"exitplanmode": true, "slashcommand": true, "read_file": true, "read_many_files": true,
	"list_directory": true, "search_file_content": true, "grep_search": true,
	"google_web_search": true, "web_fetch": true, "save_memory": true, "write_todos": true,
	"update_plan": true, "view_image": true, "think": true, "finish": true, "web_search": true,
	"list_dir": true, "codebase_search": true, "file_search": true,
}

// shellTools are the tools that run a command line: Codex's shell,
// exec and local shell, Claude Code's Bash, Gemini CLI's
// run_shell_command, OpenHands' execute_bash.
var shellTools = map[string]bool{
	"shell": true, "container.exec": true, "exec": true, "exec_command": true, "local_shell": true,
	"shell_command": true, "bash": true, "run_shell_command": true, "execute_bash": true,
}

// callSeq numbers the tool calls read, for Operation.Call: a number
// drawn once per call is unique within any reply, whichever reader
// (the tool-calls format, a session log's) gathers the calls.
var callSeq atomic.Int64

func readCall(name string, input []byte, root string, line int) callResult {
	tool := strings.ToLower(strings.TrimPrefix(name, "functions."))
	var c callResult
	c.known = true
	switch {
	case tool == "apply_patch" || tool == "applypatch":
		c = applyPatchCall(input, line)
	case shellTools[tool]:
		c = shellCall(input, line)
	case readOnlyTools[tool]:
	default:
		a, err := callArgs(name, input)
		if err != nil {
			return callResult{err: err, known: isEditTool(tool)}
		}
		c.path, _ = a.anyString("file_path", "filePath", "path", "target_file", "target_filepath")
		switch tool {
		case "edit":
			c.ops, c.err = editCall(a)
		case "multiedit":
			c.ops, c.err = multiEditCall(a)
		case "write", "write_file":
			c.ops, c.err = writeCall(a)
		case "replace":
			c.ops, c.err = geminiReplaceCall(a)
		case "str_replace_based_edit_tool", "str_replace_editor", "text_editor":
			c.ops, c.err = textEditorCall(a)
		case "edit_file":
			c.ops, c.err = editFileCall(a) // toolcall_lazy.go
		case "notebookedit":
			c.err = errors.New("NotebookEdit changes cells of a Jupyter notebook, which this reader does not apply: edit the notebook's JSON with Edit instead")
		default:
			c.known = false
			c.warns = []Warning{warning(line, "the tool call %q is not an edit tool this reader knows; it is skipped", name)}
		}
	}
	if c.err != nil {
		c.err = fmt.Errorf("%s: %w", name, c.err)
		c.ops = nil
	}
	call := int(callSeq.Add(1))
	for i := range c.ops {
		op := &c.ops[i]
		op.Line, op.Root, op.Call = line, root, call
		if op.Format == "" {
			op.Format = FormatToolCalls
		}
	}
	return c
}

// isEditTool reports whether tool (lower case) names an edit tool.
func isEditTool(tool string) bool {
	switch tool {
	case "edit", "multiedit", "write", "write_file", "replace", "str_replace_based_edit_tool",
		"str_replace_editor", "text_editor", "notebookedit", "apply_patch", "applypatch", "edit_file":
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
	var a args
	if input[0] != '{' || json.Unmarshal(input, &a) != nil {
		return nil, fmt.Errorf("the arguments of %s are not a JSON object", name)
	}
	return a, nil
}

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
	var s string
	return s, true, decodeField("the argument "+key, raw, &s)
}

// anyString returns the first of keys that is a string argument.
func (a args) anyString(keys ...string) (string, string) {
	for _, k := range keys {
		if raw, ok := a[k]; ok {
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
