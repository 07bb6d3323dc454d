package session

import (
	"strings"
	"testing"
)

// TestUnfinishedCallsSkipped: an edit the session never saw happen is
// not replayed, whatever the reason the log gives (or does not give).
func TestUnfinishedCallsSkipped(t *testing.T) {
	claudeUser := `{"type": "user", "cwd": "/p", "isSidechain": false, "message": {"role": "user", "content": "Change a"}, "uuid": "u-1"}`
	claudeEdit := func(id string) string {
		return `{"type": "assistant", "cwd": "/p", "isSidechain": false, "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "` + id + `", "name": "Edit", "input": {"file_path": "/p/a.txt", "old_string": "a", "new_string": "b"}}]}, "uuid": "a-` + id + `"}`
	}
	claudeResult := func(id string) string {
		return `{"type": "user", "cwd": "/p", "isSidechain": false, "message": {"role": "user", "content": [{"tool_use_id": "` + id + `", "type": "tool_result", "content": "ok"}]}, "uuid": "r-` + id + `"}`
	}
	codexMeta := `{"timestamp": "t", "type": "session_meta", "payload": {"id": "x", "cwd": "/p", "originator": "codex_cli_rs"}}`
	codexUser := `{"timestamp": "t", "type": "event_msg", "payload": {"type": "user_message", "message": "Change a"}}`
	codexCall := `{"timestamp": "t", "type": "response_item", "payload": {"type": "function_call", "name": "apply_patch", "arguments": "{\"input\": \"*** Begin Patch\\n*** Update File: a.txt\\n@@\\n-a\\n+b\\n*** End Patch\\n\"}", "call_id": "c1"}}`
	codexOut := func(out string) string {
		return `{"timestamp": "t", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "` + out + `"}}`
	}
	cases := []struct {
		name      string
		log       []string
		ops, skip int
		why       string
	}{
		{"claude answered", []string{claudeUser, claudeEdit("t1"), claudeResult("t1")}, 1, 0, ""},
		{"claude unanswered", []string{claudeUser, claudeEdit("t1")}, 0, 1, "no result in the log"},
		{"claude one of two unanswered", []string{claudeUser, claudeEdit("t1"), claudeResult("t1"), claudeEdit("t2")}, 1, 1, "no result in the log"},
		{"codex applied", []string{codexMeta, codexUser, codexCall, codexOut("Success. Updated the following files:\\nM a.txt")}, 1, 0, ""},
		{"codex invalid patch input", []string{codexMeta, codexUser, codexCall, codexOut("apply_patch handler received invalid patch input")}, 0, 1, "invalid patch input"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			turns := readAll(t, strings.Join(c.log, "\n")+"\n")
			ops, skip, why := 0, 0, ""
			for _, tr := range turns {
				if tr.Reply != nil {
					ops += len(tr.Reply.Ops)
				}
				skip += len(tr.Skipped)
				for _, s := range tr.Skipped {
					why += s.Why
				}
			}
			if ops != c.ops || skip != c.skip || !strings.Contains(why, c.why) {
				t.Errorf("%d ops, %d skipped (%q), want %d and %d (%q)", ops, skip, why, c.ops, c.skip, c.why)
			}
		})
	}
}
