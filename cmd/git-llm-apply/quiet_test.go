package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestQuietPrintsOnlyErrors: with -q a command that succeeds prints
// nothing on standard error, and one that fails prints only what
// failed.
func TestQuietPrintsOnlyErrors(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	tmp := t.TempDir()
	shell := "\nThen run:\n\n```sh\nmake test\n```\n"
	good := r.reply("good.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n")+shell)
	bad := r.reply("bad.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n")+block("a.txt", "nope\n", "x\n")+shell)
	for _, args := range [][]string{
		{"apply", "-q", "-b", "q1", "--worktree", filepath.Join(tmp, "wt1"), "-o", filepath.Join(tmp, "p1"), good},
		{"translate", "-q", "-o", filepath.Join(tmp, "p2"), good},
		{"check", "-q", good},
		{"hook", "install", "-q"},
		{"hook", "install", "-q"}, // already installed
	} {
		if res := r.run(args...); res.code != 0 || res.stderr != "" {
			t.Errorf("%s: exit %d, stderr:\n%s", strings.Join(args, " "), res.code, res.stderr)
		}
	}
	if res := r.run("apply", "-b", "loud", "--worktree", filepath.Join(tmp, "wt3"), good); !strings.Contains(res.stderr, "Added a worktree") {
		t.Errorf("without -q the report is gone:\n%s", res.stderr)
	}

	errorLines := []string{
		"error: edit 2 (replace a.txt, reply line 13) failed: the SEARCH text does not match any lines of a.txt; no similar lines were found.",
		"  Read the file again and copy the SEARCH section exactly as it stands.",
	}
	for _, args := range [][]string{
		{"apply", "-q", "-b", "q4", "--worktree", filepath.Join(tmp, "wt4"), "-o", filepath.Join(tmp, "p4"), bad},
		{"translate", "-q", "-o", filepath.Join(tmp, "p5"), bad},
		{"check", "-q", bad},
	} {
		res := r.run(args...)
		want := strings.Join(append([]string{bad + " (diff): Change a. [1 of 2 edits failed; nothing recorded]"}, errorLines...), "\n") + "\n"
		if res.code != 1 || res.stderr != want {
			t.Errorf("%s: exit %d, stderr:\n%s\nwant:\n%s", strings.Join(args, " "), res.code, res.stderr, want)
		}
	}
	// An error that stops the run is still said.
	res := r.run("check", "-q", filepath.Join(tmp, "missing.md"))
	if res.code != 2 || !strings.HasPrefix(res.stderr, "fatal: cannot read reply") || strings.Count(res.stderr, "\n") != 1 {
		t.Errorf("missing reply: exit %d\n%s", res.code, res.stderr)
	}
}
