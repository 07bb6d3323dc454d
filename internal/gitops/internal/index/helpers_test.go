package index

import (
	"os"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
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

func (tr *testRepo) scratch() *scratch.Repo {
	return &scratch.Repo{T: tr.t, Dir: tr.dir, Home: tr.home, Env: tr.env}
}

// git runs git in the repository and returns its trimmed stdout.
func (tr *testRepo) git(args ...string) string { tr.t.Helper(); return tr.scratch().Git(args...) }

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

func TestMain(m *testing.M) { os.Exit(scratch.Main(m)) }

// newFixture is scratch.Fixture: one commit on main holding regular
// files in nested directories, names that sort differently as files
// and directories, an executable, a symbolic link and a submodule.
func newFixture(t *testing.T) *testRepo {
	t.Helper()
	r := scratch.Fixture(t)
	return &testRepo{t: t, dir: r.Dir, home: r.Home, env: r.Env}
}
