package gitops

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

func TestRevisionSource(t *testing.T) {
	t.Parallel()
	tr := stagedRepo(t)                    // staged and unstaged changes must not show
	tr.git("commit", "-q", "-m", "second") // commits the staged state (a.txt "staged\n")
	r := tr.open(tr.dir)
	src, id, err := r.RevisionSource("HEAD~1")
	if err != nil {
		t.Fatal(err)
	}
	if want := tr.git("rev-parse", "HEAD~1"); id != want {
		t.Errorf("commit %s, want %s", id, want)
	}
	tests := []struct {
		path    string
		mode    patch.Mode
		content string
	}{
		{"a.txt", reg, "hello\n"},
		{"dir/b.txt", reg, "b\n"},
		{"dir/sub/c.txt", reg, "c\n"},
		{"run.sh", exe, "#!/bin/sh\necho hi\n"},
		{"link", slnk, "a.txt"},
		{"ab.txt", reg, "ab\n"},
		{"subm", patch.ModeGitlink, ""},
	}
	for _, tc := range tests {
		e, err := src.Lookup(tc.path)
		if want := tr.git("rev-parse", "HEAD~1:"+tc.path); err != nil || e.Mode != tc.mode || e.ID != want {
			t.Errorf("Lookup(%s) = %o %s, %v, want %o %s", tc.path, e.Mode, e.ID, err, tc.mode, want)
		}
		checkRead(t, src, tc.path, tc.mode, tc.content)
	}
	for _, p := range []string{"new.txt", "dir", "dir/sub", "missing", "a.txt/x", "link/x"} {
		if _, err := src.Lookup(p); err != engine.ErrNotExist {
			t.Errorf("Lookup(%s) = %v, want ErrNotExist", p, err)
		}
	}
	paths, err := src.Paths()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(tr.git("ls-tree", "-r", "--name-only", "HEAD~1"), "\n")
	slices.Sort(paths)
	slices.Sort(want)
	if !slices.Equal(paths, want) {
		t.Errorf("Paths() = %v, want %v", paths, want)
	}
	if _, _, err := r.RevisionSource("nope"); !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("RevisionSource(nope) = %v, want ErrUnknownRevision", err)
	}
}

func TestWorktreeSource(t *testing.T) {
	t.Parallel()
	tr := stagedRepo(t)
	tr.write("run2.sh", "#!/bin/sh\n", 0o755)
	tr.git("add", "run2.sh")
	if err := os.Remove(filepath.Join(tr.dir, "dir", "sub", "d.txt")); err != nil { // deleted, not staged
		t.Fatal(err)
	}
	tr.write("untracked.txt", "u\n", 0o644)
	outside := filepath.Join(filepath.Dir(tr.dir), "outside")
	if err := scratch.WriteFile(filepath.Join(outside, "secret"), "secret\n"); err != nil {
		t.Fatal(err)
	}
	tr.symlink(outside, "out")

	src, err := tr.open(tr.dir).WorktreeSource()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		mode    patch.Mode
		content string
	}{
		{"a.txt", reg, "worktree\n"},
		{"dir/b.txt", reg, "b\n"}, // exec bit staged only, not on disk
		{"run.sh", exe, "#!/bin/sh\necho hi\n"},
		{"run2.sh", exe, "#!/bin/sh\n"},
		{"link", slnk, "a.txt"},
		{"ab.txt", reg, "ab\n"}, // removed from the index, still on disk
		{"untracked.txt", reg, "u\n"},
		{"subm", patch.ModeGitlink, ""},
	}
	for _, tc := range tests {
		e, err := src.Lookup(tc.path)
		if err != nil || e.Mode != tc.mode || e.ID != "" {
			t.Errorf("Lookup(%s) = %+v, %v, want mode %o", tc.path, e, err, tc.mode)
		}
		checkRead(t, src, tc.path, tc.mode, tc.content)
	}
	checkAbsent(t, src, []string{"dir", "dir/sub/d.txt", "missing", "a.txt/x", "out/secret", "link/x"})
	if _, err := src.Lookup("../outside/secret"); err == nil || errors.Is(err, engine.ErrNotExist) {
		t.Errorf("Lookup(../outside/secret) = %v, want a bad path error", err)
	}
	checkPaths(t, tr, src, "dir/sub/d.txt")
}

func TestWorktreeSourceWithoutFileMode(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.git("config", "core.fileMode", "false")
	if err := os.Chmod(filepath.Join(tr.dir, "run.sh"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(tr.dir, "a.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := tr.open(tr.dir).WorktreeSource()
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]patch.Mode{"run.sh": exe, "a.txt": reg} {
		if e, err := src.Lookup(path); err != nil || e.Mode != want {
			t.Errorf("Lookup(%s) = %+v, %v, want mode %o (from the index)", path, e, err, want)
		}
	}
}
