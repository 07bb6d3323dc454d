package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Tool-call replies through check and apply, against real git: the
// exit status and what the report says, and the checkout untouched.
func TestToolCallReplies(t *testing.T) {
	t.Parallel()
	edit := func(extra, path, old, repl string) string {
		return `{` + extra + `"name":"Edit","input":{"file_path":"` + path + `","old_string":"` + old + `","new_string":"` + repl + `"}}`
	}
	write := func(extra, path, content string) string {
		return `{` + extra + `"name":"Write","input":{"file_path":"` + path + `","content":"` + content + `"}}`
	}
	cwd := `"cwd":"/home/dev/proj",`
	tests := []struct {
		name  string
		reply []string
		code  int
		want  []string // in the report
		files map[string]string
	}{
		{"malformed JSON: exit 2 naming line and column", []string{`{"name":"Edit","input":{"file_path":"b.txt",`, ` "old_string": "bee" "new_string":"B"}}`},
			2, []string{"reply line 2: malformed JSON at column 22"}, nil},
		{"old text twice: exit 1 with its places", []string{edit("", "src/a.txt", "one", "ONE")},
			1, []string{"edit 1 (replace src/a.txt, reply line 1) failed", "stands 2 times in src/a.txt (at lines 1, 3)"}, nil},
		{"an absolute path under the cwd", []string{edit(cwd, "/home/dev/proj/b.txt", "bee", "BEE")},
			0, nil, map[string]string{"b.txt": "BEE\n"}},
		{"an absolute path without cwd: the tracked path it ends in", []string{edit("", "/home/dev/proj/src/a.txt", "two", "TWO")},
			0, []string{"took src/a.txt for /home/dev/proj/src/a.txt"}, map[string]string{"src/a.txt": "one\nTWO\none\n"}},
		{"a new file under the root the other paths reveal", []string{edit("", "/home/dev/proj/src/a.txt", "two", "TWO"), write("", "/home/dev/proj/docs/new.md", `hi\n`)},
			0, []string{"took docs/new.md for /home/dev/proj/docs/new.md, below /home/dev/proj"}, map[string]string{"docs/new.md": "hi\n"}},
		{"a new file and nothing reveals the root", []string{write("", "/home/dev/proj/docs/new.md", `hi\n`)},
			1, []string{"nothing in the reply shows which directory is the repository"}, nil},
		{"a path outside the repository", []string{write(cwd, "/etc/passwd", `x\n`)},
			1, []string{`"/etc/passwd" is outside the session's top /home/dev/proj`}, nil},
		{"a scratch file outside the root is not the tracked file it ends in", []string{write(cwd, "/tmp/b.txt", `scratch\n`)},
			1, []string{`"/tmp/b.txt" is outside the session's top /home/dev/proj`}, nil},
		{"climbing out of the root", []string{write(cwd, "/home/dev/proj/../x.txt", `x\n`)},
			1, []string{`"/home/dev/proj/../x.txt" is outside the session's top /home/dev/proj`}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"src/a.txt": "one\ntwo\none\n", "b.txt": "bee\n"})
			before := r.snapshot()
			reply := r.reply("calls.jsonl", strings.Join(tt.reply, "\n")+"\n")
			for _, cmd := range [][]string{{"check"}, {"apply", "-b", "t"}} {
				res := r.run(append(cmd, reply)...)
				if res.code != tt.code {
					t.Fatalf("%s: exit %d, want %d\n%s", cmd, res.code, tt.code, res.stderr)
				}
				for _, w := range tt.want {
					if !strings.Contains(res.stderr, w) {
						t.Errorf("%s: the report does not say %q:\n%s", cmd, w, res.stderr)
					}
				}
			}
			r.assertUntouched(before)
			if tt.code != 0 {
				if b := r.branches(); b != "main" {
					t.Errorf("branches %q: a failed reply recorded something", b)
				}
				return
			}
			r.fsck()
			for p, want := range tt.files {
				if got := r.show("t", p); got != want {
					t.Errorf("%s at the tip: %q, want %q", p, got, want)
				}
			}
			if msg := r.git("log", "-1", "--format=%B", "t"); !strings.Contains(msg, "LLM-Edit-Format: tool-calls") {
				t.Errorf("commit message %q", msg)
			}
		})
	}
}

// With --partial, a MultiEdit whose second edit fails records nothing
// of it (Claude Code applies a MultiEdit all or none), and an edit that
// needed it fails too; the other calls are recorded.
func TestApplyPartialKeepsToolCallsWhole(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "bee\n"})
	before := r.snapshot()
	reply := r.reply("calls.json", `[
{"name":"MultiEdit","input":{"file_path":"a.txt","edits":[{"old_string":"one","new_string":"ONE"},{"old_string":"nine","new_string":"NINE"}]}},
{"name":"Edit","input":{"file_path":"a.txt","old_string":"ONE","new_string":"1"}},
{"name":"Edit","input":{"file_path":"b.txt","old_string":"bee","new_string":"BEE"}}
]
`)
	res := r.run("apply", "--partial", "-b", "t", reply)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
	}
	r.assertUntouched(before)
	r.fsck()
	if a, b := r.show("t", "a.txt"), r.show("t", "b.txt"); a != "one\ntwo\n" || b != "BEE\n" {
		t.Errorf("at the tip a.txt %q, b.txt %q: want a.txt as it was, b.txt edited", a, b)
	}
	for _, w := range []string{"edit 1 (replace a.txt, reply line 2) failed: edit 2 of the same tool call failed", "edit 2 (replace a.txt, reply line 2) failed: the old text \"nine\"", "edit 3 (replace a.txt, reply line 3) failed"} {
		if !strings.Contains(res.stderr, w) {
			t.Errorf("the report does not say %q:\n%s", w, res.stderr)
		}
	}
}

// A replayed Claude Code turn whose MultiEdit fails in part records
// nothing of it with --partial, and the replay goes on; without
// --partial it stops there, naming the turn and its log line, and the
// report counts log lines.
func TestReplayPartialMultiEdit(t *testing.T) {
	t.Parallel()
	line := func(typ, content string) string {
		return `{"type":"` + typ + `","cwd":"/home/dev/proj","sessionId":"s1","message":{"role":"` + typ + `","content":` + content + `}}`
	}
	log := strings.Join([]string{
		line("user", `"Upper-case b and c."`),
		line("assistant", `[{"type":"tool_use","id":"t1","name":"MultiEdit","input":{"file_path":"/home/dev/proj/f.txt","edits":[{"old_string":"b\n","new_string":"B\n"},{"old_string":"c\n","new_string":"C\n"}]}}]`),
		line("user", `[{"type":"tool_result","tool_use_id":"t1","content":"Applied 2 edits to /home/dev/proj/f.txt"}]`),
		line("user", `"Add notes.md."`),
		line("assistant", `[{"type":"text","text":"Adding it."},{"type":"tool_use","id":"t2","name":"Write","input":{"file_path":"/home/dev/proj/notes.md","content":"hello\n"}}]`),
		line("user", `[{"type":"tool_result","tool_use_id":"t2","content":"File created"}]`),
	}, "\n") + "\n"
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	drifted := func() *repo { return newRepo(t, map[string]string{"f.txt": "a\nb\nx\nd\n"}) }

	r := drifted()
	before := r.snapshot()
	res := r.run("replay", "--partial", path)
	if res.code != 1 {
		t.Fatalf("--partial: exit %d, want 1\n%s", res.code, res.stderr)
	}
	r.assertUntouched(before)
	r.fsck()
	b := r.llmBranch()
	checkCommits(t, r, b, []string{"Add notes.md.|s.jsonl#2"})
	if f := r.show(b, "f.txt"); f != "a\nb\nx\nd\n" {
		t.Errorf("f.txt at the tip %q: the MultiEdit was kept in part", f)
	}
	if !strings.Contains(res.stderr, "edit 1 (replace f.txt, log line 2) failed: edit 2 of the same tool call failed") {
		t.Errorf("the report does not drop the call's first edit, in log lines:\n%s", res.stderr)
	}

	r = drifted()
	res = r.run("replay", path)
	if res.code != 1 || !strings.Contains(res.stderr, "stopped at "+path+"#1 (log line 1)") {
		t.Errorf("exit %d, want 1 naming turn 1 and its log line\n%s", res.code, res.stderr)
	}
	if br := r.branches(); br != "main" {
		t.Errorf("branches %q: nothing is to be recorded before the failed first turn", br)
	}
}
