package translate

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A tool call this reader cannot read but that looks like an edit (an
// agent's edit tool it does not know, or arguments that name a file
// and its new text) is an edit the reply or the session meant: read as
// nothing, it would be dropped and the rest called done. It is never
// success (SPEC section 2): the reply fails naming it, or, with
// --partial, it is skipped and listed.

// ErrNotRead is the error of ToolCall (wrapped, with the call's shape)
// for a call that looks like an edit but that it cannot read.
var ErrNotRead = errors.New("a call that looks like an edit was not read")

// editToolNames are the edit tools of agents, read or not: a call of
// one always looks like an edit. Those ToolCall reads are in readCall;
// edit_file and create_file are also the names of other agents' tools
// (Cursor's edit_file: target_file, code_edit), and insert_content and
// search_and_replace are Roo Code's former tools, none of which is
// read.
var editToolNames = map[string]bool{
	"edit": true, "multiedit": true, "write": true, "write_file": true, "replace": true,
	"str_replace_based_edit_tool": true, "str_replace_editor": true, "text_editor": true,
	"notebookedit": true, "apply_patch": true, "applypatch": true,
	"replace_in_file": true, "write_to_file": true, "apply_diff": true, "edit_file": true,
	"search_replace": true, "create_file": true, "insert_content": true, "search_and_replace": true,
}

// pathKeys and textKeys are the argument names that make a call of an
// unknown tool look like an edit: one of each.
var (
	pathKeys = []string{"path", "file_path", "filePath", "absolutePath", "absolute_path", "file", "filename",
		"target_file", "targetFile", "notebook_path"}
	textKeys = []string{"content", "contents", "file_text", "text", "new_content", "code", "code_edit", "diff", "patch",
		"edits", "old_str", "new_str", "old_string", "new_string", "oldString", "newString", "old_text", "new_text",
		"oldText", "newText", "search", "replace", "insert_text", "replacement"}
)

// LooksLikeEdit reports whether a call of the tool name with the JSON
// input looks like an edit: the tool is an agent's edit tool, or it
// is no read or shell tool and its arguments name a file (path,
// file_path, ...) and text for it (content, diff, old and new text,
// ...). Session readers ask it of a call ToolCall refused.
func LooksLikeEdit(name string, input []byte) bool {
	tool := toolKey(name)
	if editToolNames[tool] {
		return true
	}
	if readOnlyTools[tool] || shellTools[tool] {
		return false
	}
	a, err := callArgs(name, input)
	return err == nil && editArgs(a)
}

// toolKey is the name of a tool as the readers compare it.
func toolKey(name string) string {
	// Claude Code's names, in every call of a long session: lowering
	// them made a string per call.
	switch name {
	case "Edit":
		return "edit"
	case "MultiEdit":
		return "multiedit"
	case "Write":
		return "write"
	case "Read":
		return "read"
	case "Bash":
		return "bash"
	}
	return strings.ToLower(strings.TrimPrefix(name, "functions."))
}

// editArgs reports whether arguments name a file and text for it.
func editArgs(a args) bool {
	has := func(keys []string) bool {
		for _, k := range keys {
			if _, ok := a[k]; ok {
				return true
			}
		}
		return false
	}
	return has(pathKeys) && has(textKeys)
}

// unreadMsg says what a call of the unknown tool name whose arguments
// are a looks like, naming its shape: the tool and its argument names
// in the order the call gives them.
func unreadMsg(name string, input []byte) string {
	var keys []string
	dec := json.NewDecoder(strings.NewReader(string(input)))
	if t, err := dec.Token(); err == nil && t == json.Delim('{') {
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				break
			}
			keys = append(keys, fmt.Sprintf("%q", k))
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				break
			}
		}
	}
	return fmt.Sprintf("the call %s {%s} looks like an edit, but %s is no tool this reader knows, so nothing of it can be applied", name, strings.Join(keys, ", "), name)
}

// unreadCalls handles the calls of r that look like edits but were
// not read (Reply.Unread): without partial, the first fails the reply
// (a *ParseError naming its line, exit 2); with partial, each is
// skipped with a warning that lists it (SPEC section 2).
func unreadCalls(r *Reply, partial bool) error {
	if len(r.Unread) == 0 {
		return nil
	}
	if !partial {
		u := r.Unread[0]
		more := ""
		if n := len(r.Unread) - 1; n > 0 {
			more = fmt.Sprintf(" (and %d more such calls)", n)
		}
		return &ParseError{Format: FormatToolCalls, Line: u.Line,
			Msg: u.Msg + more + "; nothing of the reply is applied (--partial skips such calls and applies the rest)"}
	}
	for _, u := range r.Unread {
		r.warnf(u.Line, "skipped (--partial): %s", u.Msg)
	}
	sortWarnings(r.Warnings)
	return nil
}
