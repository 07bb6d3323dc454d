package translate

import (
	"errors"
	"strings"
	"testing"
)

// checkToolCallOps fails t unless every operation is well formed: at a
// reply line, of the tool-calls format (apply-patch for those of an
// apply_patch call), with a path (an unreadable patch section aside),
// whole content and no line break inside a line.
func checkToolCallOps(t *testing.T, ops []Operation, lines int) {
	t.Helper()
	for _, op := range ops {
		if op.Line < 1 || op.Line > lines {
			t.Fatalf("operation at line %d of %d: %+v", op.Line, lines, op)
		}
		if op.Format != FormatToolCalls && op.Format != FormatApplyPatch || op.Path == "" && op.Kind != Invalid {
			t.Fatalf("operation %+v", op)
		}
		if op.Content != "" && (op.Kind != Create || op.New != nil || !strings.HasSuffix(op.Content, "\n") || strings.Contains(op.Content, "\r\n")) {
			t.Fatalf("operation with content %q: %+v", op.Content, op)
		}
		if strings.Contains(op.OldText, "\r\n") || strings.Contains(op.NewText, "\r\n") || op.Count == 1 || op.Count != 0 && op.All {
			t.Fatalf("replace %+v", op)
		}
		for _, part := range [][]string{op.Scope, op.Before, op.Old, op.New, op.After} {
			for _, l := range part {
				if strings.Contains(l, "\n") {
					t.Fatalf("line %q holds a line break", l)
				}
			}
		}
	}
}

// FuzzToolCalls checks that no reply makes the reader panic, that what
// it returns keeps the reader contract (an error only of the kinds it
// documents, every line within the reply), and that the detector finds
// every reply the reader takes edits from. The golden cases' replies,
// the prompt and the shapes of the table tests are the seeds.
func FuzzToolCalls(f *testing.F) {
	addSeedFiles(f, goldenReplies(FormatToolCalls), promptPath(FormatToolCalls))
	editA := `{"name":"Edit","input":` + edit("a.py", "x = 1", "x = 2") + `}`
	f.Add(editA + "\n" + `{"type":"assistant","cwd":"/w","message":{"content":[{"type":"text","text":"t"},{"type":"tool_use","name":"MultiEdit","input":{"file_path":"a","edits":[{"old_string":"a","new_string":"b"}]}}]}}`)
	f.Add(`{"choices":[{"message":{"content":"c","tool_calls":[{"function":{"name":"str_replace_editor","arguments":"{\"command\":\"insert\",\"path\":\"a\",\"insert_line\":0,\"new_str\":\"x\"}"}}]}}]}`)
	f.Add(`{"candidates":[{"content":{"parts":[{"text":"ok"},{"functionCall":{"name":"replace","args":{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":2}}}]}}]}`)
	f.Add(`[{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch"},{"type":"local_shell_call","action":{"command":["apply_patch","*** Begin Patch\n*** Delete File: b\n*** End Patch"]}}]`)
	f.Add("Text.\n\n```json\n" + editA + "\n```\n\n```bash\nls\n```\n")
	f.Add("```json\n{\"name\": \"Edit\", \"input\": {\"old_string\": \n```\n")
	f.Add("\uFEFF[\n{\"tool\":\"Write\",\"file_path\":\"a\",\"content\":\"\\u0041\"},\n{\"name\":\"Edit\",\"input\":{\"file_path\":\"a\"}}\n]")
	f.Fuzz(func(t *testing.T, reply string) {
		r, err := readToolCalls(reply)
		if r == nil || r.Format != FormatToolCalls {
			t.Fatalf("reply %+v", r)
		}
		lines := max(len(splitLines(reply)), 1)
		found := len(r.Ops)+len(r.Failed) > 0
		var pe *ParseError
		switch {
		case err == nil:
			if !found {
				t.Fatal("no error and nothing found")
			}
		case errors.Is(err, ErrNoEdits):
			if found {
				t.Fatalf("ErrNoEdits with %d operations and %d failures", len(r.Ops), len(r.Failed))
			}
		case errors.As(err, &pe):
			if pe.Line < 1 || pe.Line > lines || pe.Format != FormatToolCalls {
				t.Fatalf("error %v in a reply of %d lines", err, lines)
			}
		default:
			t.Fatalf("unexpected error %T: %v", err, err)
		}
		checkToolCallOps(t, r.Ops, lines)
		for _, f := range r.Failed {
			if f.Line < 1 || f.Line > lines || f.Msg == "" {
				t.Fatalf("failure %+v", f)
			}
		}
		for _, w := range r.Warnings {
			if w.Line < 1 || w.Line > lines {
				t.Fatalf("warning %+v", w)
			}
		}
		for _, u := range r.Unread {
			if u.Line < 1 || u.Line > lines || u.Msg == "" {
				t.Fatalf("unread call %+v", u)
			}
		}
		if len(r.Prose) > 0 && strings.TrimSpace(r.Prose[len(r.Prose)-1]) == "" {
			t.Fatalf("prose ends with a blank line: %q", r.Prose)
		}
		// A key spelt with escapes is a call the cheap detector does
		// not see; no agent writes one.
		if at := toolCallsAt(reply); at < 0 && len(r.Ops) > 0 && !strings.Contains(reply, `\u`) && jsonReply(reply) {
			t.Fatalf("the detector missed a reply the reader takes %d operations from", len(r.Ops))
		}
	})
}

// FuzzToolCall checks that no tool call makes ToolCall panic, and that
// what it returns is well formed: each operation at the call's line
// and root, none together with an error.
func FuzzToolCall(f *testing.F) {
	f.Add("Edit", edit("a", "x", "y"))
	f.Add("MultiEdit", `{"file_path":"a","edits":[{"old_string":"a","new_string":"b","replace_all":true},{"old_string":"","new_string":"c"}]}`)
	f.Add("str_replace_based_edit_tool", `{"command":"insert","path":"a","insert_line":2,"insert_text":"x\r\ny\n"}`)
	f.Add("str_replace_editor", `{"command":"create","path":"a","file_text":""}`)
	f.Add("replace", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":3,"allow_multiple":true}`)
	f.Add("apply_patch", "*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch")
	f.Add("shell", `{"command":["bash","-lc","cd x && apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\nEOF"]}`)
	f.Add("Write", `{"file_path":"a","content":null}`)
	f.Add("replace_in_file", `{"absolutePath":"/w/a","diff":"------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n<<<<<<< SEARCH\n\n=======\nz\n>>>>>>> REPLACE","task_progress":"- [ ] t"}`)
	f.Add("apply_diff", `{"path":"a","diff":"<<<<<<< SEARCH\n:start_line:2\n-------\nx\n=======\ny\n>>>>>>> REPLACE"}`)
	f.Add("write_to_file", "{\"path\":\"a\",\"content\":\"```go\\nx\\n```\\n\"}")
	f.Add("edit_file", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":2}`)
	f.Add("str_edit", `{"path":"a","old_str":"x","new_str":"y"}`)
	f.Fuzz(func(t *testing.T, name, input string) {
		ops, err := ToolCall(name, []byte(input), "/root", 3)
		if err != nil && len(ops) > 0 {
			t.Fatalf("%d operations with the error %v", len(ops), err)
		}
		if errors.Is(err, ErrNotRead) && !strings.Contains(err.Error(), "looks like an edit") {
			t.Fatalf("error %v", err)
		}
		for _, op := range ops {
			if op.Line != 3 || op.Root != "/root" || op.Group > 0 {
				t.Fatalf("operation %+v", op)
			}
		}
		checkToolCallOps(t, ops, 3)
	})
}
