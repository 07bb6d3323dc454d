package translate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// callDump is what readCall made of one call: its operations, warnings
// and error, one line each.
func callDump(c callResult) string {
	var lines []string
	for _, op := range c.ops {
		s := tcOp(op)
		if op.Kind == Edit {
			s = fmt.Sprintf("%d edit %s %q->%q", op.Line, op.Path, op.Old, op.New)
			if op.FirstMatch {
				s += " first"
			}
			if op.LineHint != 0 {
				s += fmt.Sprintf(" hint=%d", op.LineHint)
			}
			if op.Group >= 0 {
				s += " group not below 0"
			}
			s += " [" + op.Format + "]"
		}
		lines = append(lines, s)
	}
	for _, w := range c.warns {
		lines = append(lines, fmt.Sprintf("%d warning: %s", w.Line, w.Msg))
	}
	if c.err != nil {
		lines = append(lines, "error: "+c.err.Error())
	}
	if c.unread != "" {
		lines = append(lines, "unread: "+c.unread)
	}
	return strings.Join(lines, "\n")
}

// TestNativeAgentCalls: Cline's and Roo Code's tools called natively
// are read with their XML forms' semantics (SPEC section 4).
func TestNativeAgentCalls(t *testing.T) {
	cases := []struct {
		name, tool, input, want string
	}{
		{"cline several blocks", "replace_in_file",
			`{"absolutePath": "/w/a.py", "diff": "------- SEARCH\nx = 1\n=======\nx = 2\n+++++++ REPLACE\n------- SEARCH\ny = 1\n=======\ny = 2\n+++++++ REPLACE", "task_progress": "- [x] a"}`,
			`7 edit /w/a.py ["x = 1"]->["x = 2"] first [tool-calls]` + "\n" + `7 edit /w/a.py ["y = 1"]->["y = 2"] first [tool-calls]`},
		{"cline older path", "replace_in_file",
			`{"path": "a.py", "diff": "------- SEARCH\nx = 1\n=======\nx = 2\n+++++++ REPLACE\n"}`,
			`7 edit a.py ["x = 1"]->["x = 2"] first [tool-calls]`},
		{"cline legacy markers, CRLF", "replace_in_file",
			`{"path": "a.py", "diff": "<<<<<<< SEARCH\r\nx = 1\r\n=======\r\nx = 2\r\n>>>>>>> REPLACE\r\n"}`,
			`7 edit a.py ["x = 1"]->["x = 2"] first [tool-calls]`},
		{"cline empty search creates", "replace_in_file",
			`{"path": "n.py", "diff": "------- SEARCH\n=======\nnew\n+++++++ REPLACE"}`,
			`7 create n.py ""`},
		{"cline near-miss marker warns", "replace_in_file",
			`{"path": "a.py", "diff": "------- search\nx = 1\n=======\nx = 2\n+++++++ REPLACE"}`,
			`7 edit a.py ["x = 1"]->["x = 2"] first [tool-calls]` + "\n" +
				`7 warning: replace_in_file, diff line 1: "------- search" is read as the Cline SEARCH/REPLACE marker "------- SEARCH"; write it as the format spells it`},
		{"cline block without divider refuses the call", "replace_in_file",
			`{"path": "a.py", "diff": "------- SEARCH\nx = 1\n=======\nx = 2\n+++++++ REPLACE\n------- SEARCH\ny = 1\n+++++++ REPLACE"}`,
			`error: replace_in_file: diff line 6: the block has no "=======" divider: "+++++++ REPLACE" comes first, at line 8`},
		{"cline diff without blocks", "replace_in_file",
			`{"path": "a.py", "diff": "x = 2"}`,
			`7 warning: replace_in_file, diff line 1: text between the blocks of the diff is ignored: "x = 2"` + "\n" +
				`error: replace_in_file: diff line 1: the diff holds no SEARCH/REPLACE block`},
		{"cline diff missing", "replace_in_file", `{"absolutePath": "a.py"}`,
			`error: replace_in_file: the argument diff is missing`},
		{"cline path missing", "replace_in_file", `{"diff": "x"}`,
			`error: replace_in_file: the argument absolutePath is missing`},
		{"roo apply_diff start_line", "apply_diff",
			`{"path": "a.py", "diff": "<<<<<<< SEARCH\n:start_line:3\n-------\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE"}`,
			`7 edit a.py ["x = 1"]->["x = 2"] hint=3 [tool-calls]`},
		{"cline write absolutePath", "write_to_file", `{"absolutePath": "/w/b.py", "content": "print(1)"}`,
			`7 create /w/b.py "print(1)\n" overwrite`},
		{"cline write path, empty content", "write_to_file", `{"path": "empty.txt", "content": ""}`,
			`7 create empty.txt "" overwrite`},
		{"write fenced with a language", "write_to_file", `{"path": "b.py", "content": "` + "```python\\nprint(1)\\n```" + `\n"}`,
			`7 create b.py "print(1)\n" overwrite` + "\n" +
				"7 warning: the content write_to_file writes to b.py is wrapped in a Markdown fence (\"```python\" ... \"```\"); the fence lines are taken off, as the agent does"},
		{"write fenced bare", "write_to_file", `{"path": "b.txt", "content": "` + "```\\r\\nx\\r\\n```" + `"}`,
			`7 create b.txt "x\n" overwrite` + "\n" +
				"7 warning: the content write_to_file writes to b.txt is wrapped in a Markdown fence (\"```\" ... \"```\"); the fence lines are taken off, as the agent does"},
		{"write with a fence inside", "write_to_file", `{"path": "R.md", "content": "# R\n` + "```sh\\nmake\\n```" + `\n"}`,
			"7 create R.md \"# R\\n```sh\\nmake\\n```\\n\" overwrite"},
		{"roo edit_file", "edit_file", `{"file_path": "a.py", "old_string": "a", "new_string": "b", "expected_replacements": 3}`,
			`7 replace a.py "a"->"b" count=3`},
		{"roo search_replace", "search_replace", `{"file_path": "a.py", "old_string": "a", "new_string": "b"}`,
			`7 replace a.py "a"->"b"`},
		{"cline execute_command edits nothing", "execute_command", `{"command": "npm test", "requires_approval": false}`, ``},
		{"cline attempt_completion edits nothing", "attempt_completion", `{"result": "done"}`, ``},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := callDump(readCall(tc.tool, []byte(tc.input), "", 7)); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestNativeCallGroups: the blocks of one call share a group of their
// own, which no other call's blocks have.
func TestNativeCallGroups(t *testing.T) {
	in := []byte(`{"path": "a.py", "diff": "------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n------- SEARCH\nz\n=======\nw\n+++++++ REPLACE"}`)
	a, b := readCall("replace_in_file", in, "", 1), readCall("replace_in_file", in, "", 2)
	if len(a.ops) != 2 || len(b.ops) != 2 {
		t.Fatalf("ops: %d, %d", len(a.ops), len(b.ops))
	}
	if a.ops[0].Group != a.ops[1].Group || a.ops[0].Group >= 0 || a.ops[0].Group == b.ops[0].Group {
		t.Errorf("groups: %d %d, %d %d", a.ops[0].Group, a.ops[1].Group, b.ops[0].Group, b.ops[1].Group)
	}
	if !a.ops[0].Ordered {
		t.Error("Cline's blocks are placed in order")
	}
}

// TestUnfenceLines: the fence around a whole content goes; a fence
// inside it, or one that only opens or only closes it, stays.
func TestUnfenceLines(t *testing.T) {
	cases := []struct {
		in   string
		want string // "" when nothing is taken off
	}{
		{"```python\nx\n```", "x"},
		{"```\nx\ny\n```", "x\ny"},
		{"\n```go\nx\n```\n\n", "x"},
		{"  ```js  \n  x\n  ```  ", "  x"},
		{"````md\n```\ninner\n```\n````", "```\ninner\n```"},
		{"```\n```", "<empty>"},
		{"# T\n```sh\nmake\n```", ""},
		{"```sh\nmake\n```\nmore", ""},
		{"```python\nx", ""},
		{"x\n```", ""},
		{"````\nx\n```", ""},
		{"```a`b\nx\n```", ""},
		{"```\nx\n```python", ""},
		{"``\nx\n``", ""},
		{"```", ""},
	}
	for _, tc := range cases {
		inner, _, ok := unfenceLines(strings.Split(tc.in, "\n"))
		got := ""
		if ok {
			got = strings.Join(inner, "\n")
			if got == "" {
				got = "<empty>"
			}
		}
		if got != tc.want {
			t.Errorf("unfenceLines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestLooksLikeEdit: a known edit tool's name, or arguments naming a
// file and its text, look like an edit; read and shell tools never do.
func TestLooksLikeEdit(t *testing.T) {
	cases := []struct {
		name, input string
		want        bool
	}{
		{"str_edit", `{"path": "a", "old_str": "x", "new_str": "y"}`, true},
		{"my_writer", `{"file_path": "a", "content": "x"}`, true},
		{"patcher", `{"target_file": "a", "code_edit": "x"}`, true},
		{"edit_file", `{"TargetFile": "a", "CodeEdit": "x", "Instruction": "y"}`, true},
		{"mcp__fs__edit", `{"filename": "a", "edits": []}`, true},
		{"Write", `not json`, true},
		{"write", `{}`, true},
		{"edit_file", `{"target_file": "a", "instructions": "x"}`, true},
		{"insert_content", `{"path": "a", "line": 1, "content": "x"}`, true},
		{"functions.apply_diff", `{}`, true},
		{"notify", `{"message": "x"}`, false},
		{"lookup", `{"path": "a"}`, false},
		{"summarise", `{"text": "a"}`, false},
		{"read_file", `{"path": "a", "content": "x"}`, false},
		{"Bash", `{"command": "echo x > a", "path": "a", "content": "x"}`, false},
		{"other", `["path", "content"]`, false},
	}
	for _, tc := range cases {
		if got := LooksLikeEdit(tc.name, []byte(tc.input)); got != tc.want {
			t.Errorf("LooksLikeEdit(%s, %s) = %v, want %v", tc.name, tc.input, got, tc.want)
		}
	}
}

// TestUnreadCalls: a call that looks like an edit but cannot be read
// fails the reply naming its line and shape, or with Partial is
// skipped and listed (SPEC section 2); ToolCall gives ErrNotRead.
func TestUnreadCalls(t *testing.T) {
	edit := `{"name": "Edit", "input": {"file_path": "a.py", "old_string": "x", "new_string": "y"}}`
	unknown := `{"name": "str_edit", "input": {"path": "b.py", "old_str": "x", "new_str": "y"}}`
	cases := []struct {
		name, reply string
		partial     bool
		want        string
	}{
		{"beside an edit", edit + "\n" + unknown, false,
			"1 replace a.py \"x\"->\"y\"\n" + `error: tool-calls: reply line 2: the call str_edit {"path", "old_str", "new_str"} looks like an edit, but str_edit is no tool this reader knows, so nothing of it can be applied; nothing of the reply is applied (--partial skips such calls and applies the rest)`},
		{"beside an edit, partial", edit + "\n" + unknown, true,
			"1 replace a.py \"x\"->\"y\"\n" +
				`2 warning: skipped (--partial): the call str_edit {"path", "old_str", "new_str"} looks like an edit, but str_edit is no tool this reader knows, so nothing of it can be applied`},
		{"alone", unknown, false,
			`error: tool-calls: reply line 1: the call str_edit {"path", "old_str", "new_str"} looks like an edit, but str_edit is no tool this reader knows, so nothing of it can be applied; nothing of the reply is applied (--partial skips such calls and applies the rest)`},
		{"alone, partial", unknown, true,
			`1 warning: skipped (--partial): the call str_edit {"path", "old_str", "new_str"} looks like an edit, but str_edit is no tool this reader knows, so nothing of it can be applied` + "\n" +
				`error: no edit found in the reply: the reply's tool calls (str_edit) edit no file`},
		{"two, the first named", unknown + "\n" + strings.Replace(unknown, "str_edit", "fs_write", 2), false,
			`error: tool-calls: reply line 1: the call str_edit {"path", "old_str", "new_str"} looks like an edit, but str_edit is no tool this reader knows, so nothing of it can be applied (and 1 more such calls); nothing of the reply is applied (--partial skips such calls and applies the rest)`},
		{"an edit tool not read, by name", edit + "\n" + `{"name": "insert_content", "input": {"path": "a.py", "line": 0, "content": "z"}}`, false,
			"1 replace a.py \"x\"->\"y\"\n" + `error: tool-calls: reply line 2: the call insert_content {"path", "line", "content"} looks like an edit, but insert_content is no tool this reader knows, so nothing of it can be applied; nothing of the reply is applied (--partial skips such calls and applies the rest)`},
		{"in a Markdown fence beside a known call", "Do it:\n\n```json\n[" + edit + ",\n" + unknown + "]\n```\n", false,
			"4 replace a.py \"x\"->\"y\"\n" + `error: tool-calls: reply line 5: the call str_edit {"path", "old_str", "new_str"} looks like an edit, but str_edit is no tool this reader knows, so nothing of it can be applied; nothing of the reply is applied (--partial skips such calls and applies the rest)`},
		{"no edit-like call: a warning only", edit + "\n" + `{"name": "notify", "input": {"message": "hi"}}`, false,
			"1 replace a.py \"x\"->\"y\"\n" + `2 warning: the tool call "notify" is not an edit tool this reader knows; it is skipped`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse(tc.reply, ParseOptions{Format: "auto", Partial: tc.partial})
			var lines []string
			for _, op := range r.Ops {
				lines = append(lines, tcOp(op))
			}
			for _, w := range r.Warnings {
				lines = append(lines, fmt.Sprintf("%d warning: %s", w.Line, w.Msg))
			}
			if err != nil {
				lines = append(lines, "error: "+err.Error())
			}
			if got := strings.Join(lines, "\n"); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
	_, err := ToolCall("str_edit", []byte(`{"path": "b.py", "old_str": "x", "new_str": "y"}`), "", 3)
	if !errors.Is(err, ErrNotRead) || !strings.Contains(err.Error(), `str_edit {"path", "old_str", "new_str"}`) {
		t.Errorf("ToolCall of an unknown edit tool: %v", err)
	}
	if ops, err := ToolCall("notify", []byte(`{"message": "x"}`), "", 3); ops != nil || err != nil {
		t.Errorf("ToolCall of an unknown tool: %v, %v", ops, err)
	}
}
