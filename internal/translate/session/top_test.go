package session

import (
	"fmt"
	"strings"
	"testing"
)

// TestSessionTop: a session's top is its first recorded cwd,
// established once (SPEC section 5). Every operation carries it as its
// Root, whatever cwd the record of its call names; a relative path of
// a Codex call made after the cwd moved is made absolute under the cwd
// then in force, so that the engine places it relative to the top.
func TestSessionTop(t *testing.T) {
	claude := func(cwd, id, file string) string {
		return fmt.Sprintf(`{"type": "user", "sessionId": "s", "cwd": %q, "message": {"role": "user", "content": "Change %s"}}
{"type": "assistant", "sessionId": "s", "cwd": %q, "gitBranch": "main", "message": {"role": "assistant", "content": [{"type": "tool_use", "id": %q, "name": "Write", "input": {"file_path": %q, "content": "x\n"}}]}}
{"type": "user", "sessionId": "s", "cwd": %q, "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": %q, "content": "ok"}]}}`, cwd, id, cwd, id, file, cwd, id)
	}
	codexMeta := func(cwd string) string {
		return fmt.Sprintf(`{"timestamp": "t", "type": "session_meta", "payload": {"id": "x", "cwd": %q, "originator": "codex_cli_rs", "git": {"branch": "main"}}}`, cwd)
	}
	codexTurn := func(cwd, file string) string {
		return fmt.Sprintf(`{"timestamp": "t", "type": "turn_context", "payload": {"cwd": %q}}
{"timestamp": "t", "type": "event_msg", "payload": {"type": "user_message", "message": "Change"}}
{"timestamp": "t", "type": "response_item", "payload": {"type": "custom_tool_call", "name": "apply_patch", "call_id": "c", "input": "*** Begin Patch\n*** Add File: %s\n+x\n*** End Patch\n"}}`, cwd, file)
	}
	cases := []struct {
		name string
		log  []string
		want []string // "path (root)" of each operation, in order
	}{
		{"claude, a later cwd below the first", []string{
			claude("/home/dev/proj", "t1", "/home/dev/proj/a.txt"),
			claude("/home/dev/proj/sub", "t2", "/home/dev/proj/sub/a.txt")},
			[]string{"/home/dev/proj/a.txt (/home/dev/proj)", "/home/dev/proj/sub/a.txt (/home/dev/proj)"}},
		{"claude, a later cwd in another project", []string{
			claude("/home/dev/proj", "t1", "/home/dev/proj/a.txt"),
			claude("/home/dev/other", "t2", "/home/dev/other/a.txt")},
			[]string{"/home/dev/proj/a.txt (/home/dev/proj)", "/home/dev/other/a.txt (/home/dev/proj)"}},
		{"claude, windows", []string{
			claude(`C:\Users\me\proj`, "t1", `C:\Users\me\proj\api\pom.xml`),
			claude(`C:\Users\me\proj\api`, "t2", `c:\users\me\proj\api\pom.xml`)},
			[]string{`C:\Users\me\proj\api\pom.xml (C:\Users\me\proj)`, `c:\users\me\proj\api\pom.xml (C:\Users\me\proj)`}},
		{"codex, the same cwd", []string{codexMeta("/p"), codexTurn("/p", "a.txt")},
			[]string{"a.txt (/p)"}},
		{"codex, a later cwd below the first", []string{codexMeta("/p"), codexTurn("/p", "a.txt"), codexTurn("/p/sub", "a.txt")},
			[]string{"a.txt (/p)", "/p/sub/a.txt (/p)"}},
		{"codex, a later cwd in another project", []string{codexMeta("/p"), codexTurn("/q", "a.txt")},
			[]string{"/q/a.txt (/p)"}},
		{"codex, windows", []string{codexMeta(`C:\p`), codexTurn(`C:\p\sub`, "a.txt")},
			[]string{`C:\p\sub/a.txt (C:\p)`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, tr := range readAll(t, strings.Join(c.log, "\n")+"\n") {
				if tr.Reply == nil {
					continue
				}
				for _, op := range tr.Reply.Ops {
					got = append(got, op.Path+" ("+op.Root+")")
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("operations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}
