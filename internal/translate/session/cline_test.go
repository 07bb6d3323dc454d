package session

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// clineHistory builds a Cline api_conversation_history.json of native
// tool calls: each step is an assistant tool_use and the user message
// answering it with a tool_result (and environment_details, as Cline
// adds to every user message).
func clineHistory(t *testing.T, task string, steps ...[2]any) string {
	t.Helper()
	env := map[string]any{"type": "text", "text": "<environment_details>\n# Current Working Directory (/w) Files\na.txt\n</environment_details>"}
	msgs := []any{map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "<task>\n" + task + "\n</task>"}, env}}}
	for i, s := range steps {
		id := fmt.Sprintf("toolu_%d", i)
		call := s[0].(map[string]any)
		call["type"], call["id"] = "tool_use", id
		msgs = append(msgs, map[string]any{"role": "assistant", "content": []any{call}})
		msgs = append(msgs, map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id, "content": s[1].(string)}, env}})
	}
	b, err := json.MarshalIndent(msgs, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func clineSavedResult(tool, path, content string) string {
	return fmt.Sprintf("[%s for '%s'] Result:\nThe content was successfully saved to %s.\n\nHere is the full, updated content of the file that was saved:\n\n<final_file_content path=\"%s\">\n%s\n</final_file_content>\n\nIMPORTANT: ...", tool, path, path, path, content)
}

// readTurns reads every turn of a log, failing on an error.
func readTurns(t *testing.T, log string, kind Kind) []*Turn {
	t.Helper()
	r, err := Open(strings.NewReader(log), "log")
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind() != kind {
		t.Fatalf("kind %s, want %s", r.Kind(), kind)
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

// summary is a turn in one line: request, operations, skipped, saved.
func summary(t *Turn) string {
	var parts []string
	parts = append(parts, fmt.Sprintf("%q", t.Request))
	if t.Reply != nil {
		for _, op := range t.Reply.Ops {
			parts = append(parts, fmt.Sprintf("%s %s", op.Kind, op.Path))
		}
	}
	for _, s := range t.Skipped {
		parts = append(parts, "skip "+s.Path)
	}
	for _, s := range t.Saved {
		parts = append(parts, fmt.Sprintf("saved %s %q", s.Path, s.Content))
	}
	return strings.Join(parts, "; ")
}

// TestClineNative: native tool_use calls in a Cline history (here tools
// translate already reads, Claude Code's Write and Edit), answered by
// tool_result blocks whose text is Cline's "[tool for 'path'] Result:".
// The results are no requests; an <answer> inside a tool_result is; a
// toolError or toolDenied result skips its call; a later edit of a
// file drops what was saved of it before unless it carries its own.
func TestClineNative(t *testing.T) {
	write := func(p, c string) map[string]any {
		return map[string]any{"name": "Write", "input": map[string]any{"file_path": p, "content": c}}
	}
	edit := func(p, o, n string) map[string]any {
		return map[string]any{"name": "Edit", "input": map[string]any{"file_path": p, "old_string": o, "new_string": n}}
	}
	ask := map[string]any{"name": "ask_followup_question", "input": map[string]any{"question": "More?"}}
	tests := []struct {
		name  string
		steps [][2]any
		want  []string
	}{
		{"one request, several results", [][2]any{
			{write("a.txt", "a\n"), clineSavedResult("write_to_file", "a.txt", "a\n")},
			{edit("a.txt", "a", "b"), clineSavedResult("replace_in_file", "a.txt", "b\n")},
			{write("c.txt", "c\n"), clineSavedResult("write_to_file", "c.txt", "c\n")},
		}, []string{`"x"; create a.txt; replace a.txt; create c.txt; saved a.txt "b\n"; saved c.txt "c\n"`}},
		{"failed and denied calls are skipped", [][2]any{
			{edit("a.txt", "zz", "b"), "[replace_in_file for 'a.txt'] Result:\nThe tool execution failed with the following error:\n<error>\nno match\n</error>"},
			{write("b.txt", "b\n"), "[write_to_file for 'b.txt'] Result:\nThe user denied this operation."},
			{edit("a.txt", "a", "b"), clineSavedResult("replace_in_file", "a.txt", "b\n")},
		}, []string{`"x"; replace a.txt; skip a.txt; skip b.txt; saved a.txt "b\n"`}},
		{"an answer starts a turn", [][2]any{
			{write("a.txt", "a\n"), clineSavedResult("write_to_file", "a.txt", "a\n")},
			{ask, "[ask_followup_question for 'More?'] Result:\n<answer>\nyes, b too\n</answer>"},
			{write("b.txt", "b\n"), clineSavedResult("write_to_file", "b.txt", "b\n")},
		}, []string{`"x"; create a.txt; saved a.txt "a\n"`, `"yes, b too"; create b.txt; saved b.txt "b\n"`}},
		{"an edit without saved content drops the earlier", [][2]any{
			{write("a.txt", "a\n"), clineSavedResult("write_to_file", "a.txt", "a\n")},
			{edit("a.txt", "a", "b"), "[replace_in_file for 'a.txt'] Result:\nok"},
		}, []string{`"x"; create a.txt; replace a.txt`}},
		{"a <feedback> inside a saved file is no request", [][2]any{
			{write("a.xml", "<feedback>\nhi\n</feedback>\n"), clineSavedResult("write_to_file", "a.xml", "<feedback>\nhi\n</feedback>\n")},
		}, []string{`"x"; create a.xml; saved a.xml "<feedback>\nhi\n</feedback>\n"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, turn := range readTurns(t, clineHistory(t, "x", tt.steps...), Cline) {
				got = append(got, summary(turn))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("turns\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestClineNativeReplaceInFile: Cline's own native replace_in_file
// (absolutePath and a diff of SEARCH/REPLACE blocks). Its reading by
// translate.ToolCall comes from another branch; until it is merged
// this test skips.
func TestClineNativeReplaceInFile(t *testing.T) {
	input := `{"absolutePath":"/w/a.txt","diff":"------- SEARCH\na\n=======\nb\n+++++++ REPLACE"}`
	if ops, err := translate.ToolCall("replace_in_file", []byte(input), "", 1); err != nil || len(ops) == 0 {
		t.Skipf("translate does not read Cline's native replace_in_file yet (%d operations, error %v): this test runs once the branch that adds it is merged", len(ops), err)
	}
	call := map[string]any{"name": "replace_in_file", "input": json.RawMessage(input)}
	log := clineHistory(t, "x",
		[2]any{call, clineSavedResult("replace_in_file", "a.txt", "b\n")},
		[2]any{map[string]any{"name": "replace_in_file", "input": json.RawMessage(input)}, "[replace_in_file for 'a.txt'] Result:\nThe user denied this operation."})
	turns := readTurns(t, log, Cline)
	if len(turns) != 1 || turns[0].Reply == nil || len(turns[0].Reply.Ops) == 0 || len(turns[0].Skipped) != 1 || len(turns[0].Saved) != 1 {
		var got []string
		for _, turn := range turns {
			got = append(got, summary(turn))
		}
		t.Fatalf("turns %q: want one turn with the first call's edit, its saved content, and the second skipped", got)
	}
}
