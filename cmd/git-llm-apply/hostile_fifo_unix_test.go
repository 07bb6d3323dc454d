//go:build unix

package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestHostileFIFO: a FIFO where the repository keeps a regular file (a
// loose object, a pack's index, the index, the config, an attributes
// file) is refused by name, "is a FIFO, not a regular file", exit 2 as
// a corrupt repository, and opening it never waits for a writer (SPEC
// section 5). The binary runs as a child under a deadline that only
// guards the test run: a child that hangs is killed and fails the
// status asserted, no duration is.
func TestHostileFIFO(t *testing.T) {
	t.Parallel()
	reply := "Import sys.\n\n" + block("src/app.py", "import os\n", "import os\nimport sys\n")
	for _, c := range []struct {
		name    string
		setup   func(r *repo) string // makes the FIFO, returns its path
		args    []string             // the reply file is added unless noReply
		noReply bool
	}{
		{"the staged blob's loose object", func(r *repo) string {
			r.write("src/app.py", appPy+"# staged\n")
			r.git("add", "src/app.py")
			id := strings.TrimSpace(r.git("rev-parse", ":src/app.py"))
			return filepath.Join(r.dir, ".git", "objects", id[:2], id[2:])
		}, []string{"check"}, false},
		{"a pack's .idx", func(r *repo) string {
			r.git("repack", "-adq")
			idx, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", "pack", "pack-*.idx"))
			if len(idx) != 1 {
				t.Fatalf("packs: %q", idx)
			}
			return idx[0]
		}, []string{"apply", "-b", "fifo"}, false},
		{"the index", func(r *repo) string {
			return filepath.Join(r.dir, ".git", "index")
		}, []string{"check"}, false},
		{"the config", func(r *repo) string {
			return filepath.Join(r.dir, ".git", "config")
		}, []string{"check"}, false},
		{"info/attributes", func(r *repo) string {
			return filepath.Join(r.dir, ".git", "info", "attributes")
		}, []string{"check", "--base", "worktree"}, false},
		{"the worktree's .gitattributes", func(r *repo) string {
			return filepath.Join(r.dir, "src", ".gitattributes")
		}, []string{"check", "--base", "worktree"}, false},
		{"the branch's ref", func(r *repo) string {
			r.git("branch", "side")
			return filepath.Join(r.dir, ".git", "refs", "heads", "side")
		}, []string{"apply", "-b", "side"}, false},
		{"the pre-commit hook hook install replaces", func(r *repo) string {
			return filepath.Join(r.dir, ".git", "hooks", "pre-commit")
		}, []string{"hook", "install"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, map[string]string{"src/app.py": appPy})
			fifo := c.setup(r)
			os.MkdirAll(filepath.Dir(fifo), 0o755)
			if err := os.Remove(fifo); err != nil && !os.IsNotExist(err) {
				t.Fatal(err)
			}
			if err := syscall.Mkfifo(fifo, 0o644); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
			defer cancel()
			args := c.args
			if !c.noReply {
				args = append(args, r.reply("edit.md", reply))
			}
			cmd := exec.CommandContext(ctx, binary(), args...)
			cmd.Dir = r.dir
			res := r.collect(cmd)
			want := fifo + " is a FIFO, not a regular file"
			if ctx.Err() != nil {
				t.Fatalf("the child was still waiting when the guard killed it\n%s", res.stderr)
			}
			if res.code != exitUsage || !strings.Contains(res.stderr, want) {
				t.Errorf("exit %d, want %d saying %q\n%s", res.code, exitUsage, want, res.stderr)
			}
			if err := os.Remove(fifo); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(r.git("for-each-ref", "--format=%(refname)"), "fifo") {
				t.Errorf("a branch was made")
			}
		})
	}
}
