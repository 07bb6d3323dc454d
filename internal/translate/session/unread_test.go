package session

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// turnsOf reads every turn of log.
func turnsOf(t *testing.T, log string) []*Turn {
	t.Helper()
	r, err := Open(strings.NewReader(log), "log")
	if err != nil {
		t.Fatal(err)
	}
	var turns []*Turn
	for {
		turn, err := r.Next()
		if err == io.EOF {
			return turns
		}
		if err != nil {
			t.Fatal(err)
		}
		turns = append(turns, turn)
	}
}

// TestUnreadCallsOfLogs: a call that looks like an edit but cannot be
// read is a Turn.Unread entry at its log line, never an edit nor
// nothing; a refused call of an edit tool (any case) is an Invalid
// operation; an unknown tool that edits nothing is neither (SPEC
// section 2). Cline's native calls, as its api_conversation_history
// records them, are read.
func TestUnreadCallsOfLogs(t *testing.T) {
	claude := func(name, input string) string {
		return `{"type":"user","sessionId":"s","cwd":"/p","message":{"role":"user","content":"go"}}` + "\n" +
			`{"type":"assistant","sessionId":"s","cwd":"/p","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"` + name + `","input":` + input + `}]}}` + "\n" +
			`{"type":"user","sessionId":"s","cwd":"/p","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}` + "\n"
	}
	messages := func(name, input string) string {
		return `[{"role":"user","content":[{"type":"text","text":"<task>go</task>"}]},` + "\n" +
			`{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"` + name + `","input":` + input + `}]},` + "\n" +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}]`
	}
	cases := []struct {
		name, log string
		want      string
	}{
		{"claude: unknown edit-like tool", claude("str_edit", `{"path":"a","old_str":"x","new_str":"y"}`),
			`unread 2 a: the call str_edit {"path", "old_str", "new_str"} looks like an edit, but str_edit is no tool this reader knows, so nothing of it can be applied`},
		{"claude: an edit tool not read, by name", claude("create_file", `{"target_file":"a"}`),
			`unread 2 a: the call create_file {"target_file"} looks like an edit, but create_file is no tool this reader knows, so nothing of it can be applied`},
		{"claude: a known tool in lower case, refused", claude("write", `{"file_path":"a"}`),
			`invalid 2 a: write: the argument content is missing`},
		{"claude: an unknown tool that edits nothing", claude("notify", `{"message":"hi"}`), ``},
		{"messages: an unknown edit-like tool", messages("fs_write", `{"file_path":"a","content":"x"}`),
			`unread 2 a: the call fs_write {"file_path", "content"} looks like an edit, but fs_write is no tool this reader knows, so nothing of it can be applied`},
		{"messages: Cline's native replace_in_file", messages("replace_in_file", `{"absolutePath":"/p/a.py","diff":"------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n","task_progress":"- [x] t"}`),
			`op 2 edit /p/a.py`},
		{"messages: Cline's native write_to_file, fenced", messages("write_to_file", "{\"path\":\"b.md\",\"content\":\"```md\\nhi\\n```\"}"),
			`op 2 create b.md "hi\n"` + "\nwarning 2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, turn := range turnsOf(t, tc.log) {
				for _, u := range turn.Unread {
					got = append(got, fmt.Sprintf("unread %d %s: %s", u.Line, u.Path, u.Why))
				}
				if turn.Reply == nil {
					continue
				}
				for _, op := range turn.Reply.Ops {
					switch op.Kind {
					case translate.Invalid:
						got = append(got, fmt.Sprintf("invalid %d %s: %s", op.Line, op.Path, op.Comment))
					case translate.Create:
						got = append(got, fmt.Sprintf("op %d create %s %q", op.Line, op.Path, op.Content))
					default:
						got = append(got, fmt.Sprintf("op %d %v %s", op.Line, op.Kind, op.Path))
					}
				}
				for _, w := range turn.Reply.Warnings {
					got = append(got, fmt.Sprintf("warning %d", w.Line))
				}
			}
			if g := strings.Join(got, "\n"); g != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", g, tc.want)
			}
		})
	}
}
