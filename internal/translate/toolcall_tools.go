package translate

import (
	"errors"
	"fmt"
	"strings"
)

// The edit tools, each read after the project that defines it. Paths
// stay as written (agents write absolute ones; the engine maps them
// below the session's root). The tools match text as substrings, so
// their edits become Replace and Insert operations, which keep the
// text whole.

// editCall reads Claude Code's Edit: file_path, old_string, new_string
// and replace_all (Claude Code's tool definition and its documentation
// of the Edit tool). Claude Code refuses an edit whose old and new
// strings are the same; an empty old_string creates the file (see
// Replace). OpenCode's edit spells the same arguments in camel case
// (filePath, oldString, newString, replaceAll), which are read too.
func editCall(a args) ([]Operation, error) {
	p, err := a.filePath("file_path", "filePath")
	if err != nil {
		return nil, err
	}
	op, err := stringEdit(a, p)
	if err != nil {
		return nil, err
	}
	return []Operation{op}, nil
}

// stringEdit is one Edit (or one edit of a MultiEdit) of the file p.
func stringEdit(a args, p string) (Operation, error) {
	old, _, err := a.text(false, "old_string", "oldString")
	if err != nil {
		return Operation{}, err
	}
	repl, _, err := a.text(false, "new_string", "newString")
	if err != nil {
		return Operation{}, err
	}
	all, err := a.flag("replace_all", "replaceAll")
	if err != nil {
		return Operation{}, err
	}
	if old == repl {
		return Operation{}, errors.New("old_string and new_string are the same, so the edit changes nothing (the tool refuses it)")
	}
	return Operation{Kind: Replace, Path: p, TextEdit: TextEdit{OldText: lf(old), NewText: lf(repl), All: all}}, nil
}

// multiEditCall reads Claude Code's MultiEdit: file_path and edits[],
// each an Edit's old_string, new_string and replace_all, applied in
// order, each to the result of the ones before. Claude Code applies all
// of them or none: an edit that cannot be read refuses the whole call.
func multiEditCall(a args) ([]Operation, error) {
	p, err := a.filePath("file_path", "filePath")
	if err != nil {
		return nil, err
	}
	raw, ok := a["edits"]
	if !ok {
		return nil, errors.New("the argument edits is missing")
	}
	var edits []args
	if err := decodeField("the argument edits", raw, &edits); err != nil {
		return nil, fmt.Errorf("the argument edits is %s, not an array of objects", jsonKind(raw))
	}
	if len(edits) == 0 {
		return nil, errors.New("the argument edits is empty")
	}
	ops := make([]Operation, 0, len(edits))
	for i, e := range edits {
		op, err := stringEdit(e, p)
		if err != nil {
			return nil, fmt.Errorf("edit %d of %d: %w", i+1, len(edits), err)
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// writeCall reads Claude Code's Write and Gemini CLI's write_file
// (packages/core/src/tools/write-file.ts): file_path and content, the
// whole file, created or overwritten.
func writeCall(a args) ([]Operation, error) {
	p, err := a.filePath("file_path", "filePath", "path")
	if err != nil {
		return nil, err
	}
	content, _, err := a.text(false, "content")
	if err != nil {
		return nil, err
	}
	return []Operation{{Kind: Create, Path: p, FileCreate: FileCreate{Content: fileContent(content), Overwrite: true}}}, nil
}

// geminiReplaceCall reads Gemini CLI's replace (the tool of
// packages/core/src/tools/edit.ts): file_path, old_string, new_string,
// and either expected_replacements (the number of occurrences there
// must be, all replaced; 1 by default) or its successor allow_multiple
// (every occurrence, at least one). Gemini refuses an edit that changes
// nothing; an empty old_string creates the file.
func geminiReplaceCall(a args) ([]Operation, error) {
	p, err := a.filePath("file_path")
	if err != nil {
		return nil, err
	}
	op, err := stringEdit(a, p)
	if err != nil {
		return nil, err
	}
	n, given, err := a.number("expected_replacements")
	if err != nil {
		return nil, err
	}
	switch {
	case given && n < 1:
		return nil, fmt.Errorf("expected_replacements is %d; it must be at least 1", n)
	case given && n > 1:
		op.Count, op.All = n, false
	case !given:
		if op.All, err = a.flag("allow_multiple"); err != nil {
			return nil, err
		}
	}
	return []Operation{op}, nil
}

// textEditorCall reads Anthropic's text editor tool
// (str_replace_based_edit_tool; str_replace_editor in its earlier
// versions and in OpenHands, openhands/agenthub/codeact_agent/tools/
// str_replace_editor.py): a command and its arguments, as the reference
// implementation (anthropic-quickstarts computer-use-demo
// computer_use_demo/tools/edit.py) and openhands-aci's editor carry
// them out:
//
//   - view edits nothing;
//   - create writes file_text to a new path and refuses an existing
//     file (a Create without Overwrite);
//   - str_replace replaces old_str, which must occur exactly once, with
//     new_str (empty when absent);
//   - insert puts new_str (insert_text in later versions) after line
//     insert_line, 0 for the top; the text is split at each "\n", as
//     the tool does, so a final "\n" inserts an empty line too;
//   - undo_edit reverts an edit made earlier in the agent's session,
//     which a reply alone cannot tell: it fails.
func textEditorCall(a args) ([]Operation, error) {
	cmd, _, err := a.str("command", false)
	if err != nil {
		return nil, err
	}
	if cmd == "view" {
		return nil, nil
	}
	p, err := a.filePath("path")
	if err != nil {
		return nil, err
	}
	switch cmd {
	case "create":
		text, _, err := a.str("file_text", false)
		if err != nil {
			return nil, err
		}
		return []Operation{{Kind: Create, Path: p, FileCreate: FileCreate{Content: fileContent(text)}}}, nil
	case "str_replace":
		old, _, err := a.str("old_str", false)
		if err != nil {
			return nil, err
		}
		if old == "" {
			return nil, errors.New("old_str is empty: str_replace needs the text to replace (use create for a new file)")
		}
		repl, _, err := a.str("new_str", true)
		if err != nil {
			return nil, err
		}
		return []Operation{{Kind: Replace, Path: p, TextEdit: TextEdit{OldText: lf(old), NewText: lf(repl)}}}, nil
	case "insert":
		at, given, err := a.number("insert_line")
		if err != nil {
			return nil, err
		}
		if !given {
			return nil, errors.New("the argument insert_line is missing")
		}
		if at < 0 {
			return nil, fmt.Errorf("insert_line is %d; it must be 0 (the top of the file) or a line number", at)
		}
		text, _, err := a.text(false, "new_str", "insert_text")
		if err != nil {
			return nil, err
		}
		return []Operation{{Kind: Insert, Path: p, TextEdit: TextEdit{InsertAfter: at}, LineEdit: LineEdit{New: strings.Split(lf(text), "\n")}}}, nil
	case "undo_edit":
		return nil, errors.New("undo_edit reverts an earlier edit of the agent's session, which cannot be replayed from this reply: apply the reply without it")
	}
	return nil, fmt.Errorf("%q is not a command of the text editor (view, create, str_replace, insert, undo_edit)", cmd)
}
