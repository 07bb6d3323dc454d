package translate

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/golden"
)

// tcOp is an operation in one line, as the tool-calls tests compare it.
func tcOp(op Operation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s %s", op.Line, op.Kind, op.Path)
	switch op.Kind {
	case Replace:
		fmt.Fprintf(&b, " %q->%q", op.OldText, op.NewText)
		if op.All {
			b.WriteString(" all")
		}
		if op.Count != 0 {
			fmt.Fprintf(&b, " count=%d", op.Count)
		}
	case Insert:
		fmt.Fprintf(&b, " after=%d %q", op.InsertAfter, op.New)
	case Create:
		fmt.Fprintf(&b, " %q", op.Content)
		if op.Overwrite {
			b.WriteString(" overwrite")
		}
	case Invalid:
		fmt.Fprintf(&b, " %s", op.Comment)
	}
	if op.Root != "" {
		fmt.Fprintf(&b, " root=%s", op.Root)
	}
	if op.Format != FormatToolCalls {
		fmt.Fprintf(&b, " [%s]", op.Format)
	}
	return b.String()
}

// tcDump is what readToolCalls read, one line per operation, failure,
// warning, and the prose.
func tcDump(r *Reply, err error) string {
	var lines []string
	for _, op := range r.Ops {
		lines = append(lines, tcOp(op))
	}
	for _, f := range r.Failed {
		lines = append(lines, fmt.Sprintf("%d failed %s: %s", f.Line, f.Path, f.Msg))
	}
	for _, w := range r.Warnings {
		lines = append(lines, fmt.Sprintf("%d warning: %s", w.Line, w.Msg))
	}
	if len(r.Prose) > 0 {
		lines = append(lines, fmt.Sprintf("prose %q", r.Prose))
	}
	if err != nil {
		lines = append(lines, "error: "+err.Error())
	}
	return strings.Join(lines, "\n")
}

// edit is a Claude Code Edit call's input.
func edit(path, old, repl string) string {
	return fmt.Sprintf(`{"file_path":%q,"old_string":%q,"new_string":%q}`, path, old, repl)
}

func TestToolCall(t *testing.T) {
	cases := []struct {
		name, tool, input string
		want              string // tcOp of each operation, or "error: ..." (a substring)
	}{
		// Claude Code.
		{"Edit", "Edit", edit("/p/a.py", "x = 1\r\n", "x = 2\n"), `7 replace /p/a.py "x = 1\n"->"x = 2\n" root=/p`},
		{"Edit replace_all", "Edit", `{"file_path":"a","old_string":"x","new_string":"y","replace_all":true}`, `7 replace a "x"->"y" all root=/p`},
		{"Edit creates with an empty old_string", "Edit", edit("n.txt", "", "hi\n"), `7 replace n.txt ""->"hi\n" root=/p`},
		{"Edit that changes nothing", "Edit", edit("a", "x", "x"), "error: Edit: old_string and new_string are the same"},
		{"Edit without new_string", "Edit", `{"file_path":"a","old_string":"x"}`, "error: Edit: the argument new_string is missing"},
		{"Edit with a number for a path", "Edit", `{"file_path":3,"old_string":"x","new_string":"y"}`, "error: Edit: the argument file_path is a number, not a string"},
		{"Edit with a string for replace_all", "Edit", `{"file_path":"a","old_string":"x","new_string":"y","replace_all":"yes"}`, "error: the argument replace_all is a string, not a boolean"},
		{"Edit with an empty path", "Edit", edit(" ", "x", "y"), "error: Edit: the argument file_path is empty"},
		{"OpenCode's edit", "edit", `{"filePath":"a","oldString":"x","newString":"y","replaceAll":true}`, `7 replace a "x"->"y" all root=/p`},
		{"MultiEdit", "MultiEdit", `{"file_path":"a","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"d","replace_all":true}]}`,
			"7 replace a \"a\"->\"b\" root=/p\n7 replace a \"c\"->\"d\" all root=/p"},
		{"MultiEdit refused whole", "MultiEdit", `{"file_path":"a","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c"}]}`, "error: MultiEdit: edit 2 of 2: the argument new_string is missing"},
		{"MultiEdit without edits", "MultiEdit", `{"file_path":"a","edits":[]}`, "error: the argument edits is empty"},
		{"MultiEdit with an object for edits", "MultiEdit", `{"file_path":"a","edits":{}}`, "error: the argument edits is an object, not an array of objects"},
		{"Write", "Write", `{"file_path":"a","content":"one\r\ntwo"}`, `7 create a "one\ntwo\n" overwrite root=/p`},
		{"Write an empty file", "Write", `{"file_path":"a","content":""}`, `7 create a "" overwrite root=/p`},
		{"Write without content", "Write", `{"file_path":"a"}`, "error: the argument content is missing"},
		{"Read", "Read", `{"file_path":"a"}`, ""},
		{"Bash", "Bash", `{"command":"ls"}`, ""},
		{"NotebookEdit", "NotebookEdit", `{"notebook_path":"a.ipynb"}`, "error: NotebookEdit: NotebookEdit changes cells"},
		{"arguments not an object", "Edit", `[1]`, "error: the arguments of Edit are not a JSON object"},
		{"no arguments", "Write", ``, "error: the call of Write has no arguments"},
		{"unknown tool", "frobnicate", `{}`, ""},
		// Gemini CLI.
		{"replace", "replace", edit("a", "x", "y"), `7 replace a "x"->"y" root=/p`},
		{"replace expected_replacements 2", "replace", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":2}`, `7 replace a "x"->"y" count=2 root=/p`},
		{"replace expected_replacements 1", "replace", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":1}`, `7 replace a "x"->"y" root=/p`},
		{"replace expected_replacements 0", "replace", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":0}`, "error: replace: expected_replacements is 0"},
		{"replace expected_replacements 1.5", "replace", `{"file_path":"a","old_string":"x","new_string":"y","expected_replacements":1.5}`, "error: replace: the argument expected_replacements"},
		{"replace allow_multiple", "replace", `{"file_path":"a","instruction":"i","old_string":"x","new_string":"y","allow_multiple":true}`, `7 replace a "x"->"y" all root=/p`},
		{"replace allow_multiple false", "replace", `{"file_path":"a","old_string":"x","new_string":"y","allow_multiple":false}`, `7 replace a "x"->"y" root=/p`},
		{"replace identical", "replace", edit("a", "x", "x"), "error: replace: old_string and new_string are the same"},
		{"write_file", "write_file", `{"file_path":"a","content":"x\n"}`, `7 create a "x\n" overwrite root=/p`},
		{"read_file", "read_file", `{"file_path":"a"}`, ""},
		// The text editor (Anthropic's, OpenHands').
		{"create", "str_replace_based_edit_tool", `{"command":"create","path":"a","file_text":"x"}`, `7 create a "x\n" root=/p`},
		{"create without file_text", "str_replace_editor", `{"command":"create","path":"a"}`, "error: str_replace_editor: the argument file_text is missing"},
		{"str_replace", "str_replace_editor", `{"command":"str_replace","path":"a","old_str":"x","new_str":"y"}`, `7 replace a "x"->"y" root=/p`},
		{"str_replace without new_str deletes", "str_replace_editor", `{"command":"str_replace","path":"a","old_str":"x"}`, `7 replace a "x"->"" root=/p`},
		{"str_replace with an empty old_str", "str_replace_editor", `{"command":"str_replace","path":"a","old_str":"","new_str":"y"}`, "error: str_replace_editor: old_str is empty"},
		{"insert", "str_replace_based_edit_tool", `{"command":"insert","path":"a","insert_line":3,"new_str":"x\ny"}`, `7 insert a after=3 ["x" "y"] root=/p`},
		{"insert a final newline too", "str_replace_based_edit_tool", `{"command":"insert","path":"a","insert_line":0,"insert_text":"x\n"}`, `7 insert a after=0 ["x" ""] root=/p`},
		{"insert without a line", "str_replace_editor", `{"command":"insert","path":"a","new_str":"x"}`, "error: the argument insert_line is missing"},
		{"insert before the top", "str_replace_editor", `{"command":"insert","path":"a","insert_line":-1,"new_str":"x"}`, "error: str_replace_editor: insert_line is -1"},
		{"insert at a string line", "str_replace_editor", `{"command":"insert","path":"a","insert_line":"3","new_str":"x"}`, "error: str_replace_editor: the argument insert_line is a string, not an integer"},
		{"view", "str_replace_based_edit_tool", `{"command":"view","path":"a"}`, ""},
		{"undo_edit", "str_replace_editor", `{"command":"undo_edit","path":"a"}`, "error: str_replace_editor: undo_edit reverts an earlier edit"},
		{"unknown command", "str_replace_editor", `{"command":"delete","path":"a"}`, `error: str_replace_editor: "delete" is not a command`},
		{"no command", "str_replace_editor", `{"path":"a"}`, `error: str_replace_editor: the argument command is missing`},
		// Codex.
		{"apply_patch function call", "apply_patch", `{"input":"*** Begin Patch\n*** Add File: n.txt\n+hi\n*** Delete File: old.txt\n*** End Patch\n"}`,
			"7 create n.txt \"hi\\n\" overwrite root=/p [apply-patch]\n7 delete-file old.txt root=/p [apply-patch]"},
		{"apply_patch custom tool call", "apply_patch", "*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** Copy File: b\n*** End Patch",
			"7 edit a.py root=/p [apply-patch]\n7 unreadable b apply_patch, patch line 6: \"*** Copy File: b\" is not a header of the format: the file headers are \"*** Add File: P\", \"*** Delete File: P\" and \"*** Update File: P\" root=/p"},
		{"apply_patch without a patch", "apply_patch", `{"input":"hello"}`, "error: apply_patch: the patch holds no edit"},
		{"apply_patch with a number", "apply_patch", `{"input":3}`, "error: apply_patch: the argument input is a number"},
		{"shell apply_patch", "shell", `{"command":["apply_patch","*** Begin Patch\n*** Delete File: a\n*** End Patch\n"],"workdir":"/p"}`, "7 delete-file a root=/p [apply-patch]"},
		{"shell heredoc", "shell", `{"command":["bash","-lc","apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n"]}`, "7 delete-file a root=/p [apply-patch]"},
		{"exec_command heredoc", "exec_command", `{"cmd":"apply_patch <<'EOF'\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF"}`, "7 delete-file a root=/p [apply-patch]"},
		{"shell of something else", "shell", `{"command":["ls","-la"]}`, ""},
		{"local shell", "local_shell", `{"type":"exec","command":["apply_patch","*** Begin Patch\n*** Delete File: a\n*** End Patch"]}`, "7 delete-file a root=/p [apply-patch]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ops, err := ToolCall(c.tool, []byte(c.input), "/p", 7)
			var got []string
			for _, op := range ops {
				got = append(got, tcOp(op))
			}
			if err != nil {
				got = append(got, "error: "+err.Error())
			}
			g := strings.Join(got, "\n")
			if strings.HasPrefix(c.want, "error: ") {
				if err == nil || len(ops) != 0 || !strings.Contains(g, strings.TrimPrefix(c.want, "error: ")) {
					t.Fatalf("got\n%s\nwant an error holding %q", g, strings.TrimPrefix(c.want, "error: "))
				}
				return
			}
			if g != c.want {
				t.Fatalf("got\n%s\nwant\n%s", g, c.want)
			}
		})
	}
}

func TestParseToolCalls(t *testing.T) {
	editA := `{"name":"Edit","input":` + edit("a.py", "x = 1", "x = 2") + `}`
	cases := []struct{ name, reply, want string }{
		{"one call", editA, `1 replace a.py "x = 1"->"x = 2"`},
		{"one call, arguments", `{"name":"Edit","arguments":` + edit("a", "x", "y") + `}`, `1 replace a "x"->"y"`},
		{"one call, args", `{"name":"replace","args":` + edit("a", "x", "y") + `}`, `1 replace a "x"->"y"`},
		{"tool and input", `{"tool":"Edit","input":` + edit("a", "x", "y") + `}`, `1 replace a "x"->"y"`},
		{"tool and its fields", `{"tool":"Edit","file_path":"a","old_string":"x","new_string":"y"}`, `1 replace a "x"->"y"`},
		{"a hook's tool_name", `{"hook_event_name":"PreToolUse","cwd":"/w","tool_name":"Write","tool_input":{"file_path":"/w/a","content":"x"}}`, `1 create /w/a "x\n" overwrite root=/w`},
		{"array", "[\n  " + editA + ",\n  {\"name\":\"Read\",\"input\":{\"file_path\":\"a.py\"}},\n  " + editA + "\n]",
			"2 replace a.py \"x = 1\"->\"x = 2\"\n4 replace a.py \"x = 1\"->\"x = 2\""},
		{"JSON Lines of mixed tools", editA + "\n" + `{"name":"write_file","args":{"file_path":"b","content":"b"}}` + "\n\n" + `{"name":"str_replace_editor","input":{"command":"insert","path":"c","insert_line":1,"new_str":"c"}}` + "\n",
			"1 replace a.py \"x = 1\"->\"x = 2\"\n2 create b \"b\\n\" overwrite\n4 insert c after=1 [\"c\"]"},
		{"OpenAI tool_calls", `{"role":"assistant","content":"Rename x.","tool_calls":[{"id":"c1","type":"function","function":{"name":"Edit","arguments":"{\"file_path\":\"a\",\"old_string\":\"x\",\"new_string\":\"y\"}"}}]}`,
			"1 replace a \"x\"->\"y\"\nprose [\"Rename x.\"]"},
		{"OpenAI choices", "{\"choices\": [\n {\"index\": 0, \"message\": {\"role\": \"assistant\", \"content\": null,\n  \"tool_calls\": [\n   {\"function\": {\"name\": \"write_file\", \"arguments\": \"{\\\"file_path\\\": \\\"a\\\", \\\"content\\\": \\\"a\\\"}\"}}]}}]}",
			`4 create a "a\n" overwrite`},
		{"OpenAI arguments not JSON", `{"tool_calls":[{"function":{"name":"Edit","arguments":"{file_path: a}"}}]}`, "1 failed : the arguments of Edit are not a JSON object"},
		{"Anthropic content", "{\"role\": \"assistant\", \"content\": [\n  {\"type\": \"text\", \"text\": \"Fix the limit.\\n\\nIt was off by one.\"},\n  {\"type\": \"tool_use\", \"id\": \"t1\", \"name\": \"str_replace_based_edit_tool\",\n   \"input\": {\"command\": \"str_replace\", \"path\": \"a\", \"old_str\": \"10\", \"new_str\": \"11\"}}\n]}",
			"3 replace a \"10\"->\"11\"\nprose [\"Fix the limit.\" \"\" \"It was off by one.\"]"},
		{"Claude Code log lines", `{"type":"user","message":{"role":"user","content":"fix it"},"cwd":"/home/d/p"}` + "\n" +
			`{"type":"assistant","message":{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"Fixing."},{"type":"tool_use","name":"Edit","input":{"file_path":"/home/d/p/a","old_string":"x","new_string":"y"}}]},"cwd":"/home/d/p"}` + "\n" +
			`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"ok"}]}}`,
			"2 replace /home/d/p/a \"x\"->\"y\" root=/home/d/p\nprose [\"Fixing.\"]"},
		{"Codex rollout lines", `{"type":"session_meta","payload":{"id":"s","cwd":"/w"}}` + "\n" +
			`{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"do it"}]}}` + "\n" +
			`{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Done."}]}}` + "\n" +
			`{"type":"response_item","payload":{"type":"custom_tool_call","name":"apply_patch","input":"*** Begin Patch\n*** Delete File: a\n*** End Patch\n"}}` + "\n" +
			`{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"apply_patch\",\"*** Begin Patch\\n*** Delete File: b\\n*** End Patch\\n\"]}"}}`,
			"4 delete-file a root=/w [apply-patch]\n5 delete-file b root=/w [apply-patch]\nprose [\"Done.\"]"},
		{"Responses output", `{"output":[{"type":"function_call","name":"apply_patch","arguments":"{\"input\":\"*** Begin Patch\\n*** Delete File: a\\n*** End Patch\"}"}]}`, "1 delete-file a [apply-patch]"},
		{"Gemini parts", "{\"role\": \"model\", \"parts\": [\n {\"text\": \"Both.\"},\n {\"functionCall\": {\"name\": \"replace\", \"args\": {\"file_path\": \"a\", \"old_string\": \"x\", \"new_string\": \"y\", \"expected_replacements\": 2}}}\n]}",
			"3 replace a \"x\"->\"y\" count=2\nprose [\"Both.\"]"},
		{"Gemini candidates", `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":{"name":"write_file","args":{"file_path":"a","content":"a"}}}]}}]}`, `1 create a "a\n" overwrite`},
		{"Gemini stream-json", `{"type":"init","session_id":"s","model":"gemini-2.5-pro"}` + "\n" +
			`{"type":"message","role":"user","content":"Fix a."}` + "\n" +
			`{"type":"tool_use","tool_name":"replace","tool_id":"r1","parameters":{"file_path":"/w/a","old_string":"x","new_string":"y","expected_replacements":2}}` + "\n" +
			`{"type":"tool_result","tool_id":"r1","status":"success","output":"ok"}` + "\n" +
			`{"type":"tool_use","tool_name":"write_file","tool_id":"w1","parameters":{"file_path":"/w/b","content":"b"}}` + "\n" +
			`{"type":"tool_use","tool_name":"read_file","tool_id":"r2","parameters":{"absolute_path":"/w/a"}}` + "\n" +
			`{"type":"result","status":"success","stats":{"total_tokens":1,"models":{}}}`,
			"3 replace /w/a \"x\"->\"y\" count=2\n5 create /w/b \"b\\n\" overwrite"},
		{"Gemini stream-json without parameters", `{"type":"tool_use","tool_name":"replace","tool_id":"r1"}`, "1 failed : the call of replace has no arguments"},
		{"Gemini stream-json message pieces", `{"type":"message","role":"assistant","content":"Fixing","delta":true}` + "\n" +
			`{"type":"message","role":"assistant","content":" a.\nThen","delta":true}` + "\n" +
			`{"type":"message","role":"assistant","content":" b.\n","delta":true}` + "\n" +
			`{"type":"message","role":"assistant","content":"Done","delta":true}` + "\n" +
			`{"type":"tool_use","tool_name":"write_file","tool_id":"w1","parameters":{"file_path":"b","content":"b"}}` + "\n" +
			`{"type":"message","role":"assistant","content":"All.","delta":true}`,
			"5 create b \"b\\n\" overwrite\nprose [\"Fixing a.\" \"Then b.\" \"Done\" \"\" \"All.\"]"},
		{"messages array", `[{"role":"user","content":"Write a."},{"role":"assistant","content":[{"type":"tool_use","name":"Write","input":{"file_path":"a","content":"a"}}]},{"role":"tool","content":"ok"}]`, `1 create a "a\n" overwrite`},
		{"a byte order mark", "\uFEFF" + editA, `1 replace a.py "x = 1"->"x = 2"`},
		{"a call that fails, the next counts", "[\n{\"name\":\"Edit\",\"input\":{\"file_path\":\"a\"}},\n" + editA + "\n]",
			"3 replace a.py \"x = 1\"->\"x = 2\"\n2 failed a: Edit: the argument old_string is missing"},
		{"a call without a name", `{"tool_calls":[{"function":{"arguments":"{}"}}]}`, "1 failed : a tool call without the name of its tool"},
		{"an unknown tool", "[" + editA + `,{"name":"frob","input":{}}]`, "1 replace a.py \"x = 1\"->\"x = 2\"\n1 warning: the tool call \"frob\" is not an edit tool this reader knows; it is skipped"},
		{"read tools only", `[{"name":"Read","input":{"file_path":"a"}},{"name":"Grep","input":{"pattern":"x"}}]`,
			"error: no edit found in the reply: the reply's tool calls (Read, Grep) edit no file"},
		{"no call", `{"a":1}`, "error: no edit found in the reply: the reply holds no JSON tool call"},
		{"malformed", "[\n" + editA + ",\n{\"name\": \"Edit\", \"input\": {\"file_path\": \"b\",}}\n]",
			"error: tool-calls: reply line 3: malformed JSON at column 45: invalid character '}' looking for beginning of object key string"},
		{"malformed JSON Lines", editA + "\n" + `{"name":"Edit"` + "\n",
			"1 replace a.py \"x = 1\"->\"x = 2\"\nerror: tool-calls: reply line 2: malformed JSON at column 15: the JSON ends inside a value (unexpected end of input)"},
		{"trailing prose", editA + "\nDone.\n", "1 replace a.py \"x = 1\"->\"x = 2\"\nerror: tool-calls: reply line 2: malformed JSON at column 1: invalid character 'D' looking for beginning of value"},
		{"a json fence in Markdown", "I'll rename it.\n\n```json\n" + editA + "\n```\n\nThat's all.\n",
			"4 replace a.py \"x = 1\"->\"x = 2\"\nprose [\"I'll rename it.\" \"\" \"That's all.\"]"},
		{"a fence of other JSON is code", "Config:\n\n```json\n{\"name\": \"Launch\", \"args\": [\"-v\"]}\n```\n\n```json\n" + editA + "\n```\n",
			"8 replace a.py \"x = 1\"->\"x = 2\"\nprose [\"Config:\"]"},
		{"a malformed fence", "Here.\n\n```json\n{\"name\": \"Edit\", \"input\": {\"old_string\": \"x\"\n```\n", "prose [\"Here.\"]\nerror: tool-calls: reply line 4: malformed JSON at column 45: the JSON ends inside a value (unexpected end of input)"},
		{"Markdown without calls", "Just prose.\n\n```json\n{\"a\": 1}\n```\n", "prose [\"Just prose.\"]\nerror: no edit found in the reply: the reply holds no JSON tool call"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, err := readToolCalls(c.reply)
			if got := tcDump(r, err); got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			var pe *ParseError
			if err != nil && !errors.Is(err, ErrNoEdits) && !errors.As(err, &pe) {
				t.Fatalf("error %T", err)
			}
		})
	}
}

func TestToolCallsDetect(t *testing.T) {
	editA := `{"name":"Edit","input":` + edit("a.py", "x = 1", "x = 2") + `}`
	cases := []struct {
		name, text string
		at         int
	}{
		{"a call", editA, 0},
		{"indented", "\n  " + editA, 3},
		{"malformed JSON still is", `{"name": "Edit", "input": {`, 0},
		{"JSON without call keys", `{"a": 1}`, -1},
		{"a fence", "Here:\n```json\n" + editA + "\n```\n", 6},
		{"a bare fence", "Here:\n```\n" + editA + "\n```\n", 6},
		{"a python fence", "Here:\n```python\n" + editA + "\n```\n", -1},
		{"a package.json", "package.json\n```json\n{\"name\": \"x\", \"scripts\": {\"content\": \"y\"}}\n```\n", -1},
		{"a launch configuration", "```json\n{\"name\": \"Launch\", \"args\": [], \"content\": 1}\n```\n", -1},
		{"a malformed fence of an edit", "```json\n{\"name\": \"Edit\", \"input\": {\"old_string\": \n```\n", 0},
		{"prose naming the keys", "Use \"name\" and \"old_string\".\n", -1},
		{"a SEARCH/REPLACE reply", srSample, -1},
		{"prose in brackets over a diff of a JSON file", "[Updated] Bump it:\n```diff\n-  \"name\": \"a\",\n+  \"name\": \"b\",\n```\n", -1},
		{"a reply that opens with {Note}", "{Note} \"name\" changes.\n", -1},
		{"an array of strings", `["name"]`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := toolCallsAt(c.text); got != c.at {
				t.Fatalf("toolCallsAt = %d, want %d", got, c.at)
			}
		})
	}
	if got := Detect(editA); len(got) != 1 || got[0] != FormatToolCalls {
		t.Fatalf("Detect = %v", got)
	}
	r, err := Parse("Rename.\n\n```json\n"+editA+"\n```\n", ParseOptions{})
	if err != nil || r.Format != FormatToolCalls || len(r.Ops) != 1 || r.Ops[0].Format != FormatToolCalls {
		t.Fatalf("Parse: %v %+v", err, r)
	}
	if s, _ := Describe(r); s != "Rename." {
		t.Fatalf("subject %q", s)
	}
}

// TestToolCallsLinear checks that a reply of many calls, and one call
// of a large input, are read whole, each call at its line.
func TestToolCallsLinear(t *testing.T) {
	var b strings.Builder
	const n = 20000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, `{"type":"assistant","cwd":"/w","message":{"content":[{"type":"tool_use","name":"Edit","input":{"file_path":"f%d","old_string":"a","new_string":"b"}}]}}`+"\n", i)
	}
	big := strings.Repeat("x\\n", 1<<20)
	fmt.Fprintf(&b, `{"name":"Write","input":{"file_path":"big","content":"%s"}}`+"\n", big)
	r, err := readToolCalls(b.String())
	if err != nil || len(r.Ops) != n+1 {
		t.Fatalf("%v, %d operations", err, len(r.Ops))
	}
	if op := r.Ops[n-1]; op.Line != n || op.Path != fmt.Sprintf("f%d", n-1) || op.Root != "/w" {
		t.Fatalf("operation %d: %+v", n, op)
	}
	if op := r.Ops[n]; len(op.Content) != 2<<20 {
		t.Fatalf("content of %d bytes", len(op.Content))
	}
}

// TestToolCallsGoldenReplies reads the replies of the golden cases as
// auto-detection does: each is tool calls, and its operations are what
// the case's name promises; the engine's golden test resolves them.
func TestToolCallsGoldenReplies(t *testing.T) {
	want := map[string]string{
		"absolute-paths-cwd":           "2 replace /home/dev/tool/README.md \"Run it.\"->\"Run it with `tool run`.\" root=/home/dev/tool\n3 create /home/dev/tool/docs/usage.md \"tool run\\n\" overwrite root=/home/dev/tool",
		"anthropic-content":            "19 replace server.py \"PORT = 8000\"->\"PORT = 8080\"\n30 create docs/ports.md \"The server listens on 8080.\\n\"",
		"codex-apply-patch":            "4 edit calc.py root=/home/dev/calc [apply-patch]\n4 create test_calc.py \"from calc import add\\n\\n\\ndef test_add():\\n    assert add(2, 3) == 5\\n\" overwrite root=/home/dev/calc [apply-patch]",
		"edit-not-unique":              "8 replace limits.ini \"limit = 10\"->\"limit = 20\"",
		"edit-file-anthropic":          "10 lazy store/store.go",
		"edit-file-openai":             "9 lazy store/store.go",
		"edit-file-refused":            "1 lazy store/store.go",
		"edit-file-windsurf":           "9 lazy store/store.go",
		"gemini-expected-replacements": "7 replace client.js \"OLD_URL\"->\"API_URL\" count=2",
		"gemini-stream-json":           "5 replace /home/dev/tool/README.md \"Run it.\"->\"Run it with `tool run`.\"\n7 create /home/dev/tool/docs/usage.md \"tool run\\n\" overwrite",
		"insert-top-and-end":           "2 insert notes.txt after=3 [\"delta\"]\n3 insert notes.txt after=0 [\"# Notes\"]",
		"jsonl-mixed":                  "1 replace main.go \"println(\\\"v1\\\")\"->\"println(\\\"v2\\\")\"\n2 create VERSION \"2.0.0\\n\" overwrite\n4 create NEWS \"v2: a new version.\\n\"\n5 replace VERSION \"2.0.0\"->\"2.0.1\"",
		"malformed":                    "error",
		"multiedit-three":              "8 replace config.py \"TIMEOUT = 10\"->\"TIMEOUT = 30\"\n8 replace config.py \"RETRIES = 3\"->\"RETRIES = 5\"\n8 replace config.py \"\\\"http://\\\"\"->\"\\\"https://\\\"\"",
		"openai-tool-calls":            "9 replace app.py \"print(\\\"hello \\\" + name)\"->\"print(f\\\"Hello, {name}!\\\")\"\n17 create CHANGELOG.md \"# Changelog\\n\\n- Friendlier greeting.\\n\" overwrite",
		"cline-native-first-match":     "18 edit two.py\n18 edit two.py",
		"cline-native-replace":         "18 edit server.py\n18 edit server.py",
		"cline-native-write":           "18 create src/new.py \"print('new')\\n\" overwrite\n28 create config.txt \"port=8080\\n\" overwrite",
		"roo-native":                   "18 edit stats.py\n27 replace stats.py \"    return total(xs) / len(xs)\"->\"    return total(xs) / max(len(xs), 1)\"\n37 replace names.txt \"old\"->\"new\" count=2\n48 create VERSION \"2.0\\n\" overwrite",
		"unread-call":                  "8 replace a.py \"x = 1\"->\"y = 1\"\nerror",
		"unread-call-partial":          "8 replace a.py \"x = 1\"->\"y = 1\"\nerror",
		"unread-not-edit":              "4 replace a.py \"x = 1\"->\"y = 1\"",
		"write-fenced":                 "18 create app.py \"print('hi')\\n\" overwrite\n27 create plain.txt \"plain\\n\" overwrite\n36 create README.md \"# Use\\n\\n```sh\\nmake\\n```\\n\" overwrite\n45 create END.md \"notes\\n```\\n\" overwrite",
		"replace-all":                  "8 replace geometry.py \"3.14\"->\"math.pi\" all\n19 replace geometry.py \"def area(r):\"->\"import math\\n\\n\\ndef area(r):\"",
	}
	for _, file := range goldenReplyFiles(t, FormatToolCalls) {
		name := golden.Name(file.name)
		if name == "prompt-example" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			r, err := Parse(file.text, ParseOptions{})
			var got []string
			if r != nil {
				for _, op := range r.Ops {
					got = append(got, tcOp(op))
				}
			}
			var pe *ParseError
			if errors.As(err, &pe) {
				got = append(got, "error")
			} else if err != nil || r.Format != FormatToolCalls {
				t.Fatalf("%v, format %q", err, r.Format)
			}
			w, ok := want[name]
			if g := strings.Join(got, "\n"); !ok || g != w {
				t.Fatalf("got\n%s\nwant\n%s", g, w)
			}
		})
	}
}

// TestLineBreaksOfToolText: a tool call's text and a written file's
// content hold "\n" breaks only, the carriage returns before a break
// (or ending the content) taken as part of it, and no "\r\n" left.
func TestLineBreaksOfToolText(t *testing.T) {
	for _, tc := range []struct{ in, lf, content string }{
		{"a\r\nb", "a\nb", "a\nb\n"},
		{"a\r\r\nb\r\n", "a\nb\n", "a\nb\n"},
		{"a\r\r\r\n", "a\n", "a\n"},
		{"00\r", "00\r", "00\n"},
		{"00\r\r", "00\r\r", "00\n"},
		{"\r", "\r", "\n"},
		{"a\rb", "a\rb", "a\rb\n"},
		{"a\n\r", "a\n\r", "a\n\n"},
		{"", "", ""},
	} {
		if got := lf(tc.in); got != tc.lf {
			t.Errorf("lf(%q) = %q, want %q", tc.in, got, tc.lf)
		}
		got := fileContent(tc.in)
		if got != tc.content || strings.Contains(got, "\r\n") {
			t.Errorf("fileContent(%q) = %q, want %q", tc.in, got, tc.content)
		}
	}
}
