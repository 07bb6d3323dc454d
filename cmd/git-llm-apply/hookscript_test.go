package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// copyBinary copies the built binary to dir/git-llm-apply.
func copyBinary(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(binary())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "git-llm-apply")
	if err := os.WriteFile(p, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// gitDir is the directory of the git the tests run, alone: a PATH that
// does not hold git-llm-apply.
func gitDir(t *testing.T) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(git)
	if _, err := os.Stat(filepath.Join(dir, "git-llm-apply")); err == nil {
		t.Skipf("%s holds a git-llm-apply", dir)
	}
	return dir
}

// commitWithPath runs git commit with PATH set to path.
func (r *repo) commitWithPath(path string, args ...string) result {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"commit", "-q"}, args...)...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "PATH="+path)
	return r.collect(cmd)
}

// TestHookRunsTheRecordedBinary: the hook runs the binary that
// installed it when git-llm-apply is not on PATH (GUI clients, IDEs),
// falls back to PATH when that binary is gone, and with neither fails
// the commit with one line saying what to do.
func TestHookRunsTheRecordedBinary(t *testing.T) {
	r := newRepo(t, map[string]string{"a.go": "package a\n"})
	onlyGit := gitDir(t)
	exe := copyBinary(t, filepath.Join(t.TempDir(), `it's a "bin" $HOME \n`))
	install := exec.Command(exe, "hook", "install")
	install.Dir = r.dir
	if res := r.collect(install); res.code != 0 || !strings.Contains(res.stderr, "(it runs "+exe+")") {
		t.Fatalf("hook install: exit %d\n%s", res.code, res.stderr)
	}

	r.write("a.go", debrisGo)
	r.git("add", "a.go")
	res := r.commitWithPath(onlyGit, "-m", "debris")
	if res.code != 1 || !strings.Contains(res.stderr, "a.go:4: found elision placeholder") {
		t.Fatalf("commit with debris, git-llm-apply not on PATH: exit %d\n%s", res.code, res.stderr)
	}

	if err := os.Remove(exe); err != nil {
		t.Fatal(err)
	}
	res = r.commitWithPath(filepath.Dir(binary())+string(os.PathListSeparator)+onlyGit, "-m", "debris")
	if res.code != 1 || !strings.Contains(res.stderr, "a.go:4: found elision placeholder") {
		t.Fatalf("commit with debris, the recorded binary gone, git-llm-apply on PATH: exit %d\n%s", res.code, res.stderr)
	}

	r.write("a.go", "package a\n\nfunc F() {}\n")
	r.git("add", "a.go")
	before := r.head()
	res = r.commitWithPath(onlyGit, "-m", "clean")
	want := "git llm-apply pre-commit hook: git-llm-apply is neither at " + exe +
		" nor on PATH; install it, run git llm-apply hook install again, or commit with git commit --no-verify\n"
	if res.code == 0 || res.stderr != want {
		t.Errorf("commit, no binary anywhere: exit %d, stderr:\n%s\nwant:\n%s", res.code, res.stderr, want)
	}
	if r.head() != before {
		t.Errorf("a commit was made")
	}
}

// TestHookRecordsThePathItWasStartedBy: a symbolic link to the binary
// (a package manager's) is recorded as the link, whether it was run by
// its path or found on PATH.
func TestHookRecordsThePathItWasStartedBy(t *testing.T) {
	r := newRepo(t, map[string]string{"a.go": "package a\n"})
	exe := copyBinary(t, filepath.Join(t.TempDir(), "cellar", "1.0"))
	links := t.TempDir()
	link := filepath.Join(links, "git-llm-apply")
	if err := os.Symlink(exe, link); err != nil {
		t.Fatal(err)
	}
	byPath := exec.Command(link, "hook", "install", "--print")
	byPath.Dir = r.dir
	// As git runs it: a bare name found on PATH.
	byName := &exec.Cmd{Path: link, Args: []string{"git-llm-apply", "hook", "install", "--print"}, Dir: r.dir,
		Env: append(os.Environ(), "PATH="+links+string(os.PathListSeparator)+gitDir(t))}
	for _, cmd := range []*exec.Cmd{byPath, byName} {
		if res := r.collect(cmd); res.code != 0 || res.stdout != hookScript(link) {
			t.Errorf("%s: exit %d, stdout:\n%s", cmd.Args[0], res.code, res.stdout)
		}
	}
}

// TestHookInstallUpdatesItsOwnHook: a hook an older version wrote, or
// one recording another binary, is replaced without --force; a hook
// edited beyond that is someone's own.
func TestHookInstallUpdatesItsOwnHook(t *testing.T) {
	r := newRepo(t, map[string]string{"README": "readme\n"})
	hook := filepath.Join(r.dir, ".git", "hooks", "pre-commit")
	for _, old := range []string{hookScriptV1, hookScript("/gone/git-llm-apply"), hookScript("/it's/gone")} {
		if err := os.WriteFile(hook, []byte(old), 0o755); err != nil {
			t.Fatal(err)
		}
		if res := r.install(); !strings.Contains(res.stderr, "updated the pre-commit hook at "+hook+" (it runs "+binary()+")") {
			t.Errorf("install over %q said:\n%s", old, res.stderr)
		}
		if data, _ := os.ReadFile(hook); string(data) != hookScript(binary()) {
			t.Errorf("after install over %q the hook is:\n%s", old, data)
		}
	}
	for _, other := range []string{
		hookScript("/x") + "echo more\n",
		strings.Replace(hookScript("/x"), "'/x'", "'/x'; echo more; '/y'", 1),
	} {
		if err := os.WriteFile(hook, []byte(other), 0o755); err != nil {
			t.Fatal(err)
		}
		if res := r.runBinary("hook", "install"); res.code != 2 || !strings.Contains(res.stderr, "--force, or add the line "+shquote.Quote(binary())+" hook run to it") {
			t.Errorf("install over an edited hook: exit %d\n%s", res.code, res.stderr)
		}
		if data, _ := os.ReadFile(hook); string(data) != other {
			t.Errorf("the edited hook was changed:\n%s", data)
		}
	}
}
