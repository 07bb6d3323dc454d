package main

import (
	"fmt"
	"strings"
	"testing"
)

// claudeTurn writes one Claude Code turn as its session JSONL records
// it: the request, an assistant record with one tool_use, and the
// tool_result, each with the record's cwd and gitBranch.
func claudeTurn(n int, cwd, request, tool, input string) string {
	id := fmt.Sprintf("toolu_%02d", n)
	rec := func(typ, msg string) string {
		return fmt.Sprintf(`{"type": %q, "sessionId": "s1", "uuid": "%s-%d", "parentUuid": null, "isSidechain": false, "cwd": %q, "gitBranch": "main", "message": %s}`, typ, typ, n, cwd, msg)
	}
	return strings.Join([]string{
		rec("user", fmt.Sprintf(`{"role": "user", "content": %q}`, request)),
		rec("assistant", fmt.Sprintf(`{"role": "assistant", "content": [{"type": "tool_use", "id": %q, "name": %q, "input": %s}]}`, id, tool, input)),
		rec("user", fmt.Sprintf(`{"role": "user", "content": [{"type": "tool_result", "tool_use_id": %q, "content": "ok"}]}`, id)),
	}, "\n") + "\n"
}

// A Claude Code session's top is its first cwd (SPEC section 5): a
// later record whose cwd is a subdirectory writes the file of that
// subdirectory, never the top-level file of the same name, and a
// record whose cwd is another project is refused, naming the path,
// never mapped onto this repository's file of the same name.
func TestReplaySessionTop(t *testing.T) {
	const top, sub, other = "/home/dev/proj", "/home/dev/proj/sub", "/home/dev/other"
	first := claudeTurn(1, top, "Upper-case the top file.", "Edit", `{"file_path": "/home/dev/proj/a.txt", "old_string": "top", "new_string": "TOP"}`)
	cases := []struct {
		name  string
		files map[string]string
		turn  string
		code  int
		want  map[string]string // files of the branch's tip
		err   string            // what the report says
	}{
		{"a new file in the subdirectory", map[string]string{"a.txt": "top\n"},
			claudeTurn(2, sub, "Write sub's a.txt.", "Write", `{"file_path": "/home/dev/proj/sub/a.txt", "content": "sub\n"}`),
			0, map[string]string{"a.txt": "TOP\n", "sub/a.txt": "sub\n"}, ""},
		{"the subdirectory's existing file", map[string]string{"a.txt": "top\n", "sub/a.txt": "old sub\n"},
			claudeTurn(2, sub, "Edit sub's a.txt.", "Edit", `{"file_path": "/home/dev/proj/sub/a.txt", "old_string": "old", "new_string": "new"}`),
			0, map[string]string{"a.txt": "TOP\n", "sub/a.txt": "new sub\n"}, ""},
		{"a whole write of the subdirectory's existing file", map[string]string{"a.txt": "top\n", "sub/a.txt": "old sub\n"},
			claudeTurn(2, sub, "Rewrite sub's a.txt.", "Write", `{"file_path": "/home/dev/proj/sub/a.txt", "content": "rewritten\n"}`),
			0, map[string]string{"a.txt": "TOP\n", "sub/a.txt": "rewritten\n"}, ""},
		{"another project", map[string]string{"a.txt": "top\n"},
			claudeTurn(2, other, "Edit the other project.", "Edit", `{"file_path": "/home/dev/other/a.txt", "old_string": "TOP", "new_string": "other"}`),
			1, map[string]string{"a.txt": "TOP\n"}, `"/home/dev/other/a.txt" is outside the session's top /home/dev/proj`},
		{"another project's new file", map[string]string{"a.txt": "top\n"},
			claudeTurn(2, other, "Write in the other project.", "Write", `{"file_path": "/home/dev/other/a.txt", "content": "other\n"}`),
			1, map[string]string{"a.txt": "TOP\n"}, `"/home/dev/other/a.txt" is outside the session's top /home/dev/proj`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, c.files)
			before := r.snapshot()
			log := r.reply("session.jsonl", first+c.turn)
			res := r.runBinary("replay", "-b", "llm/top", log)
			if res.code != c.code {
				t.Fatalf("exit %d, want %d\n%s", res.code, c.code, res.stderr)
			}
			if c.err != "" && !strings.Contains(res.stderr, c.err) {
				t.Errorf("the report does not say %q:\n%s", c.err, res.stderr)
			}
			got := map[string]string{}
			for _, p := range strings.Fields(r.git("ls-tree", "-r", "--name-only", "llm/top")) {
				got[p] = r.show("llm/top", p)
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) {
				t.Errorf("files on the branch: %v, want %v\n%s", got, c.want, res.stderr)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}
