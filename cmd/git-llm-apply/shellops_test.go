package main

import (
	"strings"
	"testing"
)

// Shell blocks are suggestions; with --shell-ops their file commands
// become operations of the reply, checked like every other path.
func TestShellOps(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy, "old.txt": "old\n", "lib/util.py": "x = 1\n", "keep.txt": "keep\n"})
	before := r.snapshot()
	text := "Tidy up.\n\n```bash\ngit rm old.txt\ngit mv lib/util.py lib/helpers.py\npython -m pytest\n```\n\n" +
		block("lib/helpers.py", "x = 1\n", "x = 2\n")
	reply := r.reply("r1.md", text)

	res := r.run("check", reply)
	if res.code != 1 || !strings.Contains(res.stderr, "suggested, not run") {
		t.Fatalf("without --shell-ops: exit %d\n%s", res.code, res.stderr)
	}
	res = r.run("apply", "--shell-ops", "-b", "tidy", reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	got := strings.Join(r.tree("tidy"), " ")
	if got != "100644 keep.txt 100644 lib/helpers.py 100644 src/app.py" {
		t.Errorf("tree: %s", got)
	}
	if s := r.show("tidy", "lib/helpers.py"); s != "x = 2\n" {
		t.Errorf("helpers.py: %q", s)
	}
	r.assertUntouched(before)

	// A shell-only reply, and a path outside the repository refused.
	only := r.reply("r2.md", "Remove keep.txt.\n\n```sh\n$ rm keep.txt\n```\n")
	if res := r.run("apply", "--shell-ops", "-b", "tidy", only); res.code != 0 {
		t.Fatalf("shell-only reply: exit %d\n%s", res.code, res.stderr)
	}
	if got := strings.Join(r.tree("tidy"), " "); strings.Contains(got, "keep.txt") {
		t.Errorf("keep.txt still there: %s", got)
	}
	escape := r.reply("r3.md", "Remove outside.\n\n```sh\nrm ../outside.txt\n```\n")
	if res := r.run("apply", "--shell-ops", "-b", "tidy", escape); res.code != 1 {
		t.Errorf("path escape: exit %d\n%s", res.code, res.stderr)
	}
	r.fsck()
}
