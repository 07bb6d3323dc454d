package main

import (
	"strings"
	"testing"
)

// Repositories in the states git allows (issue: reliability): each
// works, or is refused saying what is not supported.

// git sparse-checkout set turns on extensions.worktreeConfig, which
// go-git refuses; apply must still work, from the sparse checkout.
func TestSparseCheckoutRepository(t *testing.T) {
	r := newRepo(t, map[string]string{"src/app.py": appPy, "docs/a.md": "a\n"})
	r.git("sparse-checkout", "set", "src")
	if v := strings.TrimSpace(r.git("config", "extensions.worktreeConfig")); v != "true" {
		t.Fatalf("extensions.worktreeConfig = %q; the test needs it on", v)
	}
	r.git("config", "--worktree", "user.name", "Per Worktree")
	before := r.snapshot()
	reply := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	res := r.run("apply", "-b", "sparse", reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if got := strings.Join(r.tree("sparse"), " "); got != "100644 docs/a.md 100644 src/app.py" {
		t.Errorf("tree: %s", got)
	}
	r.fsck()
	r.assertUntouched(before)
}

// A sparse index (directory entries) is read through git ls-files.
func TestSparseIndexRepository(t *testing.T) {
	r := newRepo(t, map[string]string{"src/app.py": appPy, "docs/a.md": "a\n", "docs/b.md": "b\n"})
	r.git("sparse-checkout", "init", "--cone", "--sparse-index")
	r.git("sparse-checkout", "set", "src")
	if !strings.Contains(r.git("ls-files", "--sparse"), "docs/") {
		t.Skip("git did not write a sparse index here")
	}
	before := r.snapshot()
	reply := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	if res := r.run("apply", "-b", "sparse", reply); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	// A file outside the cone is in the index (as a directory entry)
	// and in HEAD: an edit to it resolves against its staged content.
	other := r.reply("r2.md", "Edit docs.\n\n"+block("docs/a.md", "a\n", "A\n"))
	if res := r.run("apply", "-b", "sparse-docs", other); res.code != 0 {
		t.Fatalf("outside the cone: exit %d\n%s", res.code, res.stderr)
	}
	if s := r.show("sparse-docs", "docs/a.md"); s != "A\n" {
		t.Errorf("docs/a.md: %q", s)
	}
	r.fsck()
	r.assertUntouched(before)
}
