package translate

import "errors"

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
// Session readers (package session) call it for each tool call a log
// records.
func ToolCall(name string, input []byte, root string, line int) ([]Operation, error) {
	return nil, errors.New("translate: tool calls are not read yet")
}
