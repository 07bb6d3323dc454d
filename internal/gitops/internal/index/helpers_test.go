package index

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// The identities and dates of every scratch repository, which the
// writers under test use too.
const (
	authorName     = scratch.AuthorName
	authorEmail    = scratch.AuthorEmail
	authorDate     = scratch.AuthorDate
	committerName  = scratch.CommitterName
	committerEmail = scratch.CommitterEmail
	committerDate  = scratch.CommitterDate
)

// testRepo is a scratch repository (internal/scratch) under the names
// this package's tests use.
type testRepo struct {
	t    *testing.T
	dir  string // top of the working tree (symlinks resolved)
	home string
	env  []string
}

// newTestRepo runs `git init -b main` in a fresh directory (scratch.New).
func newTestRepo(t *testing.T) *testRepo {
	t.Helper()
	r := scratch.New(t)
	return &testRepo{t: t, dir: r.Dir, home: r.Home, env: r.Env}
}

func testEnv(home string) []string { return scratch.Env(home) }

func (tr *testRepo) scratch() *scratch.Repo {
	return &scratch.Repo{T: tr.t, Dir: tr.dir, Home: tr.home, Env: tr.env}
}

// git runs git in the repository and returns its trimmed stdout.
func (tr *testRepo) git(args ...string) string { tr.t.Helper(); return tr.scratch().Git(args...) }

func (tr *testRepo) gitAt(dir string, args ...string) string {
	tr.t.Helper()
	return tr.scratch().GitAt(dir, args...)
}

// gitEnv runs git in dir with extra environment and stdin.
func (tr *testRepo) gitEnv(dir string, extra []string, stdin string, args ...string) string {
	tr.t.Helper()
	return tr.scratch().GitEnv(dir, extra, stdin, args...)
}

// write creates or replaces a file of the working tree.
func (tr *testRepo) write(path, content string, perm os.FileMode) {
	tr.t.Helper()
	tr.scratch().Write(path, content, perm)
}

func (tr *testRepo) symlink(target, path string) { tr.t.Helper(); tr.scratch().Symlink(target, path) }

// newFixture makes a repository with one commit on main holding:
// regular files in nested directories, names that sort differently as
// files and directories, an executable, a symbolic link and a
// submodule (gitlink).
func newFixture(t *testing.T) *testRepo {
	t.Helper()
	tr := newTestRepo(t)
	tr.write("a.txt", "hello\n", 0o644)
	tr.write("dir/b.txt", "b\n", 0o644)
	tr.write("dir/sub/c.txt", "c\n", 0o644)
	tr.write("dir/sub/d.txt", "d\n", 0o644)
	tr.write("other/x.txt", "x\n", 0o644)
	tr.write("other/deep/y.txt", "y\n", 0o644)
	tr.write("ab/z.txt", "z\n", 0o644)
	tr.write("ab-c.txt", "ab-c\n", 0o644)
	tr.write("ab.txt", "ab\n", 0o644)
	tr.write("run.sh", "#!/bin/sh\necho hi\n", 0o755)
	tr.symlink("a.txt", "link")
	sub := filepath.Join(tr.dir, "subm")
	tr.gitAt(tr.dir, "init", "-q", "-b", "main", sub)
	if err := os.WriteFile(filepath.Join(sub, "s.txt"), []byte("s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tr.gitAt(sub, "add", "s.txt")
	tr.gitAt(sub, "commit", "-q", "-m", "sub")
	tr.git("add", "-A")
	tr.git("commit", "-q", "-m", "initial")
	return tr
}
