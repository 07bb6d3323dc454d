package gitops

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
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
	return fromScratch(t, scratch.New(t))
}

func testEnv(home string) []string { return scratch.Env(home) }

// lookupIn is os.LookupEnv over env.
func lookupIn(env []string) func(string) (string, bool) {
	return func(key string) (string, bool) {
		v, ok := "", false
		for _, kv := range env {
			if k, val, _ := strings.Cut(kv, "="); k == key {
				v, ok = val, true
			}
		}
		return v, ok
	}
}

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

// open opens the repository at dir with the test environment.
func (tr *testRepo) open(dir string) *Repo {
	tr.t.Helper()
	r, err := Open(dir)
	if err != nil {
		tr.t.Fatalf("Open(%s): %v", dir, err)
	}
	r.env = lookupIn(tr.env)
	return r
}

func TestMain(m *testing.M) { os.Exit(scratch.Main(m)) }

// kept returns a copy of the repository build makes in a new test
// repository, built once for all the tests that ask for key
// (scratch.Kept).
func kept(t *testing.T, key string, build func(tr *testRepo)) *testRepo {
	t.Helper()
	return fromScratch(t, scratch.Kept(t, key, func(testing.TB) *scratch.Repo {
		tr := newTestRepo(t)
		build(tr)
		return tr.scratch()
	}))
}

func fromScratch(t *testing.T, r *scratch.Repo) *testRepo {
	return &testRepo{t: t, dir: r.Dir, home: r.Home, env: r.Env}
}

// newFixture is scratch.Fixture: one commit on main holding regular
// files in nested directories, names that sort differently as files
// and directories, an executable, a symbolic link and a submodule.
func newFixture(t *testing.T) *testRepo {
	t.Helper()
	return fromScratch(t, scratch.Fixture(t))
}

// lsTree lists "<mode> <type> <path>" of every file in rev's tree.
func (tr *testRepo) lsTree(rev string) []string {
	tr.t.Helper()
	var out []string
	for _, line := range strings.Split(tr.git("ls-tree", "-r", rev), "\n") {
		if line == "" {
			continue
		}
		meta, path, _ := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		out = append(out, f[0]+" "+f[1]+" "+path)
	}
	return out
}

// fsck runs `git fsck --strict` and fails the test on any complaint
// (dangling objects aside: recorded commits are dangling until Finish).
func (tr *testRepo) fsck() { tr.t.Helper(); tr.scratch().Fsck() }

// looseObjects lists the loose objects of the repository.
func (tr *testRepo) looseObjects() []string { return tr.scratch().LooseObjects() }

// gitRecord records changes on parent with git's plumbing (a temporary
// index, update-index, write-tree, commit-tree) and returns the commit.
func (tr *testRepo) gitRecord(parent string, changes []patch.FileChange, message string) string {
	tr.t.Helper()
	env := []string{"GIT_INDEX_FILE=" + filepath.Join(tr.t.TempDir(), "index")}
	if parent != "" {
		tr.gitEnv(tr.dir, env, "", "read-tree", parent)
	}
	for _, c := range changes {
		if c.OldPath != "" && c.OldPath != c.NewPath {
			tr.gitEnv(tr.dir, env, "", "update-index", "--force-remove", "--", c.OldPath)
		}
	}
	for _, c := range changes {
		if c.NewPath == "" {
			continue
		}
		blob := tr.gitEnv(tr.dir, env, string(c.New), "hash-object", "-w", "--stdin")
		mode := strings.TrimPrefix(treeMode(c.NewMode), "0")
		tr.gitEnv(tr.dir, env, "", "update-index", "--add", "--replace", "--cacheinfo", mode+","+blob+","+c.NewPath)
	}
	tree := tr.gitEnv(tr.dir, env, "", "write-tree")
	args := []string{"commit-tree", tree}
	if parent != "" {
		args = append(args, "-p", parent)
	}
	return tr.gitEnv(tr.dir, env, message, args...)
}

// modify, create, remove and rename build file changes.
func modify(path, content string, mode patch.Mode) patch.FileChange {
	return patch.FileChange{OldPath: path, NewPath: path, OldMode: mode, NewMode: mode, New: []byte(content)}
}

func create(path, content string, mode patch.Mode) patch.FileChange {
	return patch.FileChange{NewPath: path, NewMode: mode, New: []byte(content)}
}

func remove(path string, mode patch.Mode) patch.FileChange {
	return patch.FileChange{OldPath: path, OldMode: mode}
}

func rename(from, to, content string, mode patch.Mode) patch.FileChange {
	return patch.FileChange{OldPath: from, NewPath: to, OldMode: mode, NewMode: mode, New: []byte(content)}
}

// checkPaths requires src.Paths() to be what git ls-files lists, less
// the path left out.
func checkPaths(t *testing.T, tr *testRepo, src engine.Source, leftOut string) {
	t.Helper()
	paths, err := src.Paths()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, p := range strings.Split(tr.git("ls-files"), "\n") {
		if p != leftOut {
			want = append(want, p)
		}
	}
	slices.Sort(paths)
	slices.Sort(want)
	if !slices.Equal(paths, want) {
		t.Errorf("Paths() = %v, want %v", paths, want)
	}
}

// checkRead checks that src reads path as content, or refuses to read
// it when it is a submodule.
func checkRead(t *testing.T, src engine.Source, path string, mode patch.Mode, content string) {
	t.Helper()
	data, err := src.Read(path)
	if mode == patch.ModeGitlink {
		if err == nil {
			t.Errorf("Read(%s) of a submodule: no error", path)
		}
		return
	}
	if err != nil || string(data) != content {
		t.Errorf("Read(%s) = %q, %v, want %q", path, data, err, content)
	}
}

// checkAbsent checks that src has none of paths.
func checkAbsent(t *testing.T, src engine.Source, paths []string) {
	t.Helper()
	for _, p := range paths {
		if _, err := src.Lookup(p); err != engine.ErrNotExist {
			t.Errorf("Lookup(%s) = %v, want ErrNotExist", p, err)
		}
		if _, err := src.Read(p); err != engine.ErrNotExist {
			t.Errorf("Read(%s) = %v, want ErrNotExist", p, err)
		}
	}
}
