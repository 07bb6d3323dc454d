// Package scratch makes scratch git repositories for tests, with the
// git CLI: fixed identities and dates, so that commit ids are
// reproducible, and an environment that ignores the user's and the
// system's git configuration. Test-only, as internal/golden: a test
// fails if non-test code imports it.
package scratch

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The identities and dates every scratch repository uses.
const (
	AuthorName     = "A U Thor"
	AuthorEmail    = "author@example.com"
	AuthorDate     = "1112911993 +0200"
	CommitterName  = "C O Mitter"
	CommitterEmail = "committer@example.com"
	CommitterDate  = "1112912053 +0200"
)

// Repo is a scratch repository.
type Repo struct {
	T    testing.TB
	Dir  string // top of the working tree (symlinks resolved)
	Home string // HOME and XDG_CONFIG_HOME's parent, empty
	Env  []string
}

// New runs `git init -b main` in a fresh directory, "repo" beside an
// empty home, under Env.
func New(t testing.TB) *Repo {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &Repo{T: t, Dir: filepath.Join(base, "repo"), Home: filepath.Join(base, "home")}
	if err := os.MkdirAll(r.Home, 0o777); err != nil {
		t.Fatal(err)
	}
	r.Env = Env(r.Home)
	r.GitAt(base, "init", "-q", "-b", "main", r.Dir)
	return r
}

// Env is the process's environment without GIT_*, HOME,
// XDG_CONFIG_HOME and EMAIL, with home as HOME, no system config and
// the fixed identities and dates.
func Env(home string) []string {
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
		"GIT_AUTHOR_NAME="+AuthorName,
		"GIT_AUTHOR_EMAIL="+AuthorEmail,
		"GIT_AUTHOR_DATE="+AuthorDate,
		"GIT_COMMITTER_NAME="+CommitterName,
		"GIT_COMMITTER_EMAIL="+CommitterEmail,
		"GIT_COMMITTER_DATE="+CommitterDate,
	)
}

// Git runs git in the repository and returns its stdout without the
// final line breaks; a failure ends the test.
func (r *Repo) Git(args ...string) string {
	r.T.Helper()
	return r.GitAt(r.Dir, args...)
}

// GitAt is Git in dir.
func (r *Repo) GitAt(dir string, args ...string) string {
	r.T.Helper()
	return r.GitEnv(dir, nil, "", args...)
}

// GitEnv is Git in dir with extra environment and stdin.
func (r *Repo) GitEnv(dir string, extra []string, stdin string, args ...string) string {
	r.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(append([]string(nil), r.Env...), extra...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		r.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return strings.TrimRight(out.String(), "\n")
}

// Write creates or replaces a file of the working tree with mode perm.
func (r *Repo) Write(path, content string, perm os.FileMode) {
	r.T.Helper()
	full := filepath.Join(r.Dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o777); err != nil {
		r.T.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), perm); err != nil {
		r.T.Fatal(err)
	}
	if err := os.Chmod(full, perm); err != nil {
		r.T.Fatal(err)
	}
}

// Symlink makes path a symbolic link to target.
func (r *Repo) Symlink(target, path string) {
	r.T.Helper()
	if err := os.Symlink(target, filepath.Join(r.Dir, filepath.FromSlash(path))); err != nil {
		r.T.Fatal(err)
	}
}

// Commit stages everything and commits it with message msg; it
// returns the new commit's id.
func (r *Repo) Commit(msg string) string {
	r.T.Helper()
	r.Git("add", "-A")
	r.Git("commit", "-q", "--allow-empty", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}
