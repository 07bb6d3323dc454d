package odb

// A copy of the scratch repository helpers of package gitops's tests
// (helpers_test.go), as far as the tests here use them.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The identities and dates every test repository and every writer
// under test use, so commit ids are reproducible.
const (
	authorName     = "A U Thor"
	authorEmail    = "author@example.com"
	authorDate     = "1112911993 +0200"
	committerName  = "C O Mitter"
	committerEmail = "committer@example.com"
	committerDate  = "1112912053 +0200"
)

// testRepo is a scratch repository made with the git CLI.
type testRepo struct {
	t    testing.TB
	dir  string // top of the working tree (symlinks resolved)
	home string
	env  []string
}

// newTestRepo runs `git init -b main` in a fresh directory, with an
// environment that ignores the user's and the system's git config.
func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := &testRepo{t: t, dir: filepath.Join(base, "repo"), home: filepath.Join(base, "home")}
	if err := os.MkdirAll(tr.home, 0o777); err != nil {
		t.Fatal(err)
	}
	tr.env = testEnv(tr.home)
	tr.gitAt(base, "init", "-q", "-b", "main", tr.dir)
	return tr
}

func testEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" || k == "EMAIL" {
			continue
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME="+authorName,
		"GIT_AUTHOR_EMAIL="+authorEmail,
		"GIT_AUTHOR_DATE="+authorDate,
		"GIT_COMMITTER_NAME="+committerName,
		"GIT_COMMITTER_EMAIL="+committerEmail,
		"GIT_COMMITTER_DATE="+committerDate,
	)
}

// git runs git in the repository and returns its trimmed stdout.
func (tr *testRepo) git(args ...string) string {
	tr.t.Helper()
	return tr.gitAt(tr.dir, args...)
}

func (tr *testRepo) gitAt(dir string, args ...string) string {
	tr.t.Helper()
	return tr.gitEnv(dir, nil, "", args...)
}

// gitEnv runs git in dir with extra environment and stdin.
func (tr *testRepo) gitEnv(dir string, extra []string, stdin string, args ...string) string {
	tr.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), tr.env...), extra...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		tr.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimRight(out.String(), "\n")
}

// write creates or replaces a file of the working tree.
func (tr *testRepo) write(path, content string, perm os.FileMode) {
	tr.t.Helper()
	full := filepath.Join(tr.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o777); err != nil {
		tr.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), perm); err != nil {
		tr.t.Fatal(err)
	}
	if err := os.Chmod(full, perm); err != nil {
		tr.t.Fatal(err)
	}
}

func (tr *testRepo) symlink(target, path string) {
	tr.t.Helper()
	if err := os.Symlink(target, filepath.Join(tr.dir, filepath.FromSlash(path))); err != nil {
		tr.t.Fatal(err)
	}
}

// looseObjects lists the loose objects of the repository.
func (tr *testRepo) looseObjects() []string {
	tr.t.Helper()
	var out []string
	dirs, _ := filepath.Glob(filepath.Join(tr.dir, ".git", "objects", "??"))
	for _, d := range dirs {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			out = append(out, filepath.Base(d)+e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// writeFile writes a file, creating its directory.
func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}
