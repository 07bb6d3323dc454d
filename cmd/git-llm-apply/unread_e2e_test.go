package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// claudeLog is a Claude Code session JSONL: one request per element of
// turns, each answered by one tool_use call (name, input) and its
// successful result.
func claudeLog(t *testing.T, turns ...[2]string) string {
	t.Helper()
	var lines []string
	add := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, string(b))
	}
	for i, call := range turns {
		id := "toolu_" + string(rune('a'+i))
		add(map[string]any{"type": "user", "sessionId": "s1", "cwd": "/home/dev/proj", "message": map[string]any{"role": "user", "content": "request " + string(rune('A'+i))}})
		add(map[string]any{"type": "assistant", "cwd": "/home/dev/proj", "message": map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "text", "text": "On it."},
			map[string]any{"type": "tool_use", "id": id, "name": call[0], "input": json.RawMessage(call[1])}}}})
		add(map[string]any{"type": "user", "cwd": "/home/dev/proj", "message": map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": id, "content": "ok"}}}})
	}
	return strings.Join(lines, "\n") + "\n"
}

// TestUnreadEditCalls: a call that looks like an edit but that no
// reader reads is never success (SPEC section 2). In a session log it
// stops the replay at its turn with exit 2 naming its log line and
// shape, the turns before it recorded; with --partial it is skipped,
// listed, and the replay goes on. In a reply it fails check and apply
// (exit 2), or with --partial is skipped and listed. A log without any
// edit-like call still ends 0, recording nothing. Run on the built
// binary, in a real repository.
func TestUnreadEditCalls(t *testing.T) {
	edit := `{"file_path": "/home/dev/proj/a.txt", "old_string": "one", "new_string": "ONE"}`
	strEdit := `{"path": "/home/dev/proj/b.txt", "old_str": "bee", "new_str": "BEE"}`
	files := map[string]string{"a.txt": "one\n", "b.txt": "bee\n", "c.txt": "sea\n"}

	t.Run("replay stops at the turn, exit 2", func(t *testing.T) {
		r := newRepo(t, files)
		before := r.snapshot()
		log := r.reply("session.jsonl", claudeLog(t, [2]string{"Edit", edit}, [2]string{"str_edit", strEdit},
			[2]string{"Edit", `{"file_path": "/home/dev/proj/c.txt", "old_string": "sea", "new_string": "SEA"}`}))
		res := r.runBinary("replay", "-b", "s", log)
		if res.code != 2 {
			t.Fatalf("exit %d, want 2\n%s", res.code, res.stderr)
		}
		for _, w := range []string{"log line 5", `str_edit {"path", "old_str", "new_str"} looks like an edit`, "stops at turn 2"} {
			if !strings.Contains(res.stderr, w) {
				t.Errorf("the report does not say %q:\n%s", w, res.stderr)
			}
		}
		r.assertUntouched(before)
		r.fsck()
		if got := r.show("s", "a.txt") + r.show("s", "b.txt") + r.show("s", "c.txt"); got != "ONE\nbee\nsea\n" {
			t.Errorf("the branch holds %q: the turn before the call is recorded, nothing after", got)
		}
	})

	t.Run("replay --partial skips and lists it", func(t *testing.T) {
		r := newRepo(t, files)
		log := r.reply("session.jsonl", claudeLog(t, [2]string{"Edit", edit}, [2]string{"str_edit", strEdit},
			[2]string{"Edit", `{"file_path": "/home/dev/proj/c.txt", "old_string": "sea", "new_string": "SEA"}`}))
		res := r.runBinary("replay", "--partial", "-b", "s", log)
		if res.code != 0 {
			t.Fatalf("exit %d, want 0\n%s", res.code, res.stderr)
		}
		if !strings.Contains(res.stderr, "skipped: call at log line 5 (/home/dev/proj/b.txt), which cannot be read: the call str_edit") {
			t.Errorf("the report does not list the skipped call:\n%s", res.stderr)
		}
		r.fsck()
		if got := r.show("s", "a.txt") + r.show("s", "b.txt") + r.show("s", "c.txt"); got != "ONE\nbee\nSEA\n" {
			t.Errorf("the branch holds %q", got)
		}
		res = r.runBinary("replay", "--partial", "--json", "-b", "s2", log)
		if !strings.Contains(res.stdout, `"unread": true`) {
			t.Errorf("the JSON report does not mark the call unread:\n%s", res.stdout)
		}
	})

	t.Run("a known edit tool in another case, refused, fails the turn", func(t *testing.T) {
		r := newRepo(t, files)
		log := r.reply("session.jsonl", claudeLog(t, [2]string{"write", `{"file_path": "/home/dev/proj/a.txt"}`}))
		res := r.runBinary("replay", "-b", "s", log)
		if res.code != 1 || !strings.Contains(res.stderr, "the argument content is missing") {
			t.Errorf("exit %d, want 1 naming the missing argument\n%s", res.code, res.stderr)
		}
	})

	t.Run("a log without edit-like calls records nothing, exit 0", func(t *testing.T) {
		r := newRepo(t, files)
		log := r.reply("session.jsonl", claudeLog(t, [2]string{"Read", `{"file_path": "/home/dev/proj/a.txt"}`},
			[2]string{"notify", `{"message": "done"}`}))
		res := r.runBinary("replay", "-b", "s", log)
		if res.code != 0 {
			t.Errorf("exit %d, want 0\n%s", res.code, res.stderr)
		}
		if b := r.branches(); b != "main" {
			t.Errorf("branches %q: nothing was to be recorded", b)
		}
	})

	reply := `{"role": "assistant", "content": [{"type": "text", "text": "Upper-case a and b."},
 {"type": "tool_use", "id": "1", "name": "Edit", "input": {"file_path": "a.txt", "old_string": "one", "new_string": "ONE"}},
 {"type": "tool_use", "id": "2", "name": "str_edit", "input": {"path": "b.txt", "old_str": "bee", "new_str": "BEE"}}]}
`
	for _, format := range []string{"auto", "tool-calls"} {
		t.Run("a reply, --format "+format, func(t *testing.T) {
			r := newRepo(t, files)
			before := r.snapshot()
			at := r.reply("reply.json", reply)
			for _, cmd := range [][]string{{"check"}, {"translate"}, {"apply", "-b", "t"}} {
				res := r.runBinary(append(cmd, "--format", format, at)...)
				if res.code != 2 || !strings.Contains(res.stderr, `reply line 3: the call str_edit {"path", "old_str", "new_str"} looks like an edit`) {
					t.Errorf("%s: exit %d, want 2 naming the call\n%s", cmd, res.code, res.stderr)
				}
			}
			if b := r.branches(); b != "main" {
				t.Errorf("branches %q: a failed reply recorded something", b)
			}
			res := r.runBinary("apply", "--partial", "--format", format, "-b", "t", at)
			if res.code != 0 || !strings.Contains(res.stderr, "skipped (--partial): the call str_edit") {
				t.Errorf("--partial: exit %d, want 0 listing the call\n%s", res.code, res.stderr)
			}
			if got := r.show("t", "a.txt") + r.show("t", "b.txt"); got != "ONE\nbee\n" {
				t.Errorf("--partial: the branch holds %q", got)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}
