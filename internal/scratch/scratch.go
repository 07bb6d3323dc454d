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
	"sort"
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
	return strings.TrimRight(r.Output(dir, extra, stdin, args...), "\n")
}

// Output is GitEnv's stdout as git wrote it, final line breaks
// included. A nil Env is the process's environment.
func (r *Repo) Output(dir string, extra []string, stdin string, args ...string) string {
	r.T.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if r.Env != nil || extra != nil {
		cmd.Env = append(append([]string(nil), r.environ()...), extra...)
	}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		r.T.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errb.String())
	}
	return out.String()
}

func (r *Repo) environ() []string {
	if r.Env == nil {
		return os.Environ()
	}
	return r.Env
}

// Fsck runs `git fsck --strict` and fails the test on any finding,
// warnings included (dangling objects aside: a refused run, or
// commits not yet on a branch, may leave some).
func (r *Repo) Fsck() {
	r.T.Helper()
	args := []string{"fsck", "--strict", "--no-dangling", "--no-progress"}
	if !r.hasGraphOrMIDX() {
		// fsck verifies a commit-graph and a multi-pack-index in a
		// git process each, files that are not there: two processes
		// that check nothing.
		args = append([]string{"-c", "core.commitGraph=false", "-c", "core.multiPackIndex=false"}, args...)
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = r.Dir
	if r.Env != nil {
		cmd.Env = r.Env
	}
	if out, err := cmd.CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		r.T.Fatalf("git fsck --strict: %v\n%s", err, out)
	}
}

// hasGraphOrMIDX says whether the repository's object directory (or,
// when it cannot tell, any) may hold a commit-graph or a
// multi-pack-index.
func (r *Repo) hasGraphOrMIDX() bool {
	objects := filepath.Join(r.Dir, ".git", "objects")
	if fi, err := os.Stat(objects); err != nil || !fi.IsDir() {
		return true // a .git file, GIT_DIR elsewhere: fsck looks for itself
	}
	if _, err := os.Stat(filepath.Join(objects, "info", "alternates")); err == nil {
		return true
	}
	for _, p := range []string{"info/commit-graph", "info/commit-graphs", "pack/multi-pack-index"} {
		if _, err := os.Lstat(filepath.Join(objects, p)); err == nil {
			return true
		}
	}
	return false
}

// LooseObjects lists the ids of the repository's loose objects, sorted.
func (r *Repo) LooseObjects() []string {
	var out []string
	dirs, _ := filepath.Glob(filepath.Join(r.Dir, ".git", "objects", "??"))
	for _, d := range dirs {
		ents, _ := os.ReadDir(d)
		for _, e := range ents {
			out = append(out, filepath.Base(d)+e.Name())
		}
	}
	sort.Strings(out)
	return out
}

// WriteFile writes a file of mode 0644, creating its directory.
func WriteFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
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
	// Without the automatic maintenance git would start after it: a
	// process a commit that no test looks at.
	r.Git("-c", "maintenance.auto=false", "commit", "-q", "--allow-empty", "-m", msg)
	return r.Git("rev-parse", "HEAD")
}

// Setenv makes the repository's HOME, XDG_CONFIG_HOME and GIT_*
// variables the process's for the rest of the test (T.Setenv: the test
// cannot be parallel), for code under test that runs in-process and
// reads the identity and config as git would.
func (r *Repo) Setenv() {
	for _, kv := range r.Env {
		k, v, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" {
			r.T.Setenv(k, v)
		}
	}
}

// WriteFiles writes files (path -> content) into the working tree; a
// path ending in "*" is written without it and made executable.
func (r *Repo) WriteFiles(files map[string]string) {
	r.T.Helper()
	for p, content := range files {
		perm := os.FileMode(0o644)
		if strings.HasSuffix(p, "*") {
			p, perm = strings.TrimSuffix(p, "*"), 0o755
		}
		r.Write(p, content, perm)
	}
}
