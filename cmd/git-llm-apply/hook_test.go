package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// gitWithHooks runs git in the repository with the built binary on
// PATH, so that the installed hook's `git llm-apply` finds it, and
// returns its outputs and exit status without failing the test.
func (r *repo) gitWithHooks(args ...string) result {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary())+string(os.PathListSeparator)+os.Getenv("PATH"))
	return r.collect(cmd)
}

// install runs hook install and requires it to succeed. The built
// binary runs it: the hook records the path of the binary that
// installed it, which git then runs.
func (r *repo) install(args ...string) result {
	r.t.Helper()
	res := r.runBinary(append([]string{"hook", "install"}, args...)...)
	if res.code != 0 {
		r.t.Fatalf("hook install: exit %d\n%s", res.code, res.stderr)
	}
	return res
}

func (r *repo) head() string {
	r.t.Helper()
	return strings.TrimSpace(r.git("rev-parse", "HEAD"))
}

// requireLines requires each want line among the lines of s.
func requireLines(t *testing.T, s string, want ...string) {
	t.Helper()
	lines := map[string]bool{}
	for _, l := range strings.Split(s, "\n") {
		lines[l] = true
	}
	for _, w := range want {
		if !lines[w] {
			t.Errorf("missing line %q in:\n%s", w, s)
		}
	}
}

const debrisPy = `def f():
    x = 1
<<<<<<< SEARCH
    return x
=======
    return x + 1
>>>>>>> REPLACE
`

const debrisGo = "package a\n\nfunc F() int {\n\t// ... existing code ...\n\treturn 1\n}\n"

func TestHookRefusesACommitWithDebris(t *testing.T) {
	r := newRepo(t, map[string]string{"a.py": "def f():\n    return 1\n", "a.go": "package a\n"})
	res := r.install()
	hook := filepath.Join(r.dir, ".git", "hooks", "pre-commit")
	if !strings.Contains(res.stderr, "installed the pre-commit hook at "+hook) {
		t.Errorf("install said:\n%s", res.stderr)
	}
	if fi, err := os.Stat(hook); err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Fatalf("hook not executable: %v %v", fi, err)
	}
	before := r.head()
	r.write("a.py", debrisPy)
	r.write("a.go", debrisGo)
	r.write("clean.txt", "nothing here\n")
	r.git("add", "-A")
	res = r.gitWithHooks("commit", "-q", "-m", "pasted")
	if res.code != 1 {
		t.Fatalf("git commit: exit %d, want 1\n%s", res.code, res.stderr)
	}
	requireLines(t, res.stderr,
		"a.go:4: found elision placeholder `// ... existing code ...`",
		"a.py:3: found SEARCH/REPLACE marker `<<<<<<< SEARCH`",
		"a.py:7: found SEARCH/REPLACE marker `>>>>>>> REPLACE`")
	if !strings.Contains(res.stderr, "3 findings in 2 staged files") || !strings.Contains(res.stderr, "git commit --no-verify") {
		t.Errorf("no summary saying how to fix or bypass:\n%s", res.stderr)
	}
	if strings.Contains(res.stderr, "clean.txt") {
		t.Errorf("clean.txt reported:\n%s", res.stderr)
	}
	if r.head() != before {
		t.Errorf("a commit was made")
	}

	// Fixed and staged again, the commit goes through.
	r.write("a.py", "def f():\n    return 2\n")
	r.write("a.go", "package a\n\nfunc F() int { return 1 }\n")
	r.git("add", "-A")
	if res := r.gitWithHooks("commit", "-q", "-m", "fixed"); res.code != 0 {
		t.Fatalf("clean commit: exit %d\n%s", res.code, res.stderr)
	}
	if r.head() == before {
		t.Errorf("no commit was made")
	}
}

func TestHookSeesTheIndexGitCommitUses(t *testing.T) {
	r := newRepo(t, map[string]string{"a.go": "package a\n", "b.go": "package b\n"})
	r.install()
	before := r.head()
	// `git commit -a` and `git commit PATH` hand the hook a temporary
	// index holding working tree content that was never added.
	r.write("a.go", debrisGo)
	for _, args := range [][]string{{"commit", "-q", "-a", "-m", "x"}, {"commit", "-q", "-m", "x", "a.go"}} {
		res := r.gitWithHooks(args...)
		if res.code != 1 || !strings.Contains(res.stderr, "a.go:4: found elision placeholder") {
			t.Errorf("git %s: exit %d, want 1\n%s", strings.Join(args, " "), res.code, res.stderr)
		}
	}
	// Committing another path leaves a.go out of the commit.
	r.write("b.go", "package b\n\nvar B = 1\n")
	if res := r.gitWithHooks("commit", "-q", "-m", "b only", "b.go"); res.code != 0 {
		t.Errorf("git commit b.go: exit %d\n%s", res.code, res.stderr)
	}
	if r.head() == before {
		t.Errorf("no commit was made")
	}
}

func TestHookRunReadsStagedContent(t *testing.T) {
	r := newRepo(t, map[string]string{"a.go": "package a\n"})
	// Debris only in the working tree: what is staged is clean.
	r.write("a.go", "package a\n\nvar A = 1\n")
	r.git("add", "a.go")
	r.write("a.go", debrisGo)
	if res := r.run("hook", "run"); res.code != 0 {
		t.Errorf("debris only in the working tree: exit %d\n%s", res.code, res.stderr)
	}
	// Debris only in the index.
	r.git("add", "a.go")
	r.write("a.go", "package a\n")
	res := r.run("hook", "run")
	if res.code != 1 {
		t.Fatalf("debris only in the index: exit %d, want 1\n%s", res.code, res.stderr)
	}
	requireLines(t, res.stderr, "a.go:4: found elision placeholder `// ... existing code ...`")
}

func TestHookRunOnAnUnbornBranch(t *testing.T) {
	r := &repo{t: t, dir: t.TempDir()}
	r.git("init", "-q", "-b", "main")
	r.write("x/fiup.txt", "notes\n<<<FIUP>>>\n")
	r.git("add", "-A")
	res := r.run("hook", "run")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
	}
	requireLines(t, res.stderr, "x/fiup.txt:2: found FIUP marker `<<<FIUP>>>`")
}

func TestHookRunHonoursStagedAttributes(t *testing.T) {
	r := newRepo(t, map[string]string{"README": "readme\n"})
	r.write(".gitattributes", "fixtures/** -llm-apply-check\n*.md llm-apply-check=false\nkept.md llm-apply-check\n")
	r.write("fixtures/reply.txt", debrisPy)
	r.write("docs/formats.md", "# Formats\n\n*** Begin Patch\n")
	r.write("kept.md", "<FILE_CHANGES>\n")
	r.write("src/a.go", debrisGo)
	r.git("add", "-A")
	// The working tree's .gitattributes would exempt everything; the
	// staged one decides.
	r.write(".gitattributes", "* -llm-apply-check\n")
	res := r.run("hook", "run")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
	}
	requireLines(t, res.stderr,
		"kept.md:1: found udiffx tag `<FILE_CHANGES>`",
		"src/a.go:4: found elision placeholder `// ... existing code ...`")
	if strings.Contains(res.stderr, "fixtures/") || strings.Contains(res.stderr, "docs/") {
		t.Errorf("exempt paths reported:\n%s", res.stderr)
	}

	// Staging the working tree's attributes exempts the rest, and the
	// real commit goes through.
	r.install()
	r.git("add", ".gitattributes")
	if res := r.gitWithHooks("commit", "-q", "-m", "fixtures"); res.code != 0 {
		t.Errorf("git commit: exit %d\n%s", res.code, res.stderr)
	}
}

func TestHookRunSkipsBinaryFiles(t *testing.T) {
	r := newRepo(t, map[string]string{"README": "readme\n"})
	r.write("blob.bin", "\x00\x01\n<<<<<<< SEARCH\n")
	// A NUL byte past the first 8000 bytes does not make a file binary.
	r.write("late.txt", strings.Repeat("x\n", 4000)+"\x00\n*** End Patch\n")
	r.git("add", "-A")
	res := r.run("hook", "run")
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
	}
	requireLines(t, res.stderr, "late.txt:4002: found apply-patch marker `*** End Patch`")
	if strings.Contains(res.stderr, "blob.bin") {
		t.Errorf("binary file reported:\n%s", res.stderr)
	}
}

func TestHookRunIgnoresMergeConflictMarkers(t *testing.T) {
	r := newRepo(t, map[string]string{"README": "readme\n"})
	r.write("notes.txt", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> other\n")
	r.git("add", "-A")
	if res := r.run("hook", "run"); res.code != 0 {
		t.Errorf("exit %d, want 0\n%s", res.code, res.stderr)
	}
}

func TestHookInstallKeepsAnotherHook(t *testing.T) {
	r := newRepo(t, map[string]string{"README": "readme\n"})
	hook := filepath.Join(r.dir, ".git", "hooks", "pre-commit")
	mine := "#!/bin/sh\necho mine\n"
	if err := os.WriteFile(hook, []byte(mine), 0o755); err != nil {
		t.Fatal(err)
	}
	res := r.runBinary("hook", "install")
	if res.code != 2 || !strings.Contains(res.stderr, "--force") {
		t.Errorf("install over another hook: exit %d, want 2 and a word about --force\n%s", res.code, res.stderr)
	}
	if data, _ := os.ReadFile(hook); string(data) != mine {
		t.Errorf("the other hook was changed:\n%s", data)
	}

	r.install("--force")
	data, _ := os.ReadFile(hook)
	if string(data) != hookScript(binary()) {
		t.Errorf("after --force the hook is:\n%s", data)
	}
	if res := r.install(); !strings.Contains(res.stderr, "already installed") {
		t.Errorf("second install said:\n%s", res.stderr)
	}
	// The same script without the executable bit is made executable.
	os.Chmod(hook, 0o644)
	r.install()
	if fi, _ := os.Stat(hook); fi.Mode().Perm()&0o111 == 0 {
		t.Errorf("hook left without the executable bit: %v", fi.Mode())
	}
}

func TestHookInstallPrintWritesNothing(t *testing.T) {
	r := newRepo(t, map[string]string{"README": "readme\n"})
	hooks := filepath.Join(r.dir, ".git", "hooks")
	os.RemoveAll(hooks)
	res := r.runBinary("hook", "install", "--print")
	if res.code != 0 || res.stdout != hookScript(binary()) {
		t.Errorf("exit %d, stdout:\n%s", res.code, res.stdout)
	}
	if _, err := os.Stat(hooks); !os.IsNotExist(err) {
		t.Errorf("--print wrote into %s: %v", hooks, err)
	}
}

func TestHookInstallHonoursCoreHooksPath(t *testing.T) {
	r := newRepo(t, map[string]string{"README": "readme\n"})
	r.git("config", "core.hooksPath", ".githooks")
	sub := filepath.Join(r.dir, "sub")
	os.MkdirAll(sub, 0o755)
	// Run from a subdirectory: the relative path is the top's.
	if res := r.runBinaryIn(sub, "", "hook", "install"); res.code != 0 {
		t.Fatalf("hook install: exit %d\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, ".githooks", "pre-commit")); err != nil {
		t.Fatalf("hook not in core.hooksPath: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.dir, ".git", "hooks", "pre-commit")); err == nil {
		t.Errorf("hook written into .git/hooks too")
	}
	r.write("a.txt", "<<<<<<< EDIT\n")
	r.git("add", "a.txt")
	res := r.gitWithHooks("commit", "-q", "-m", "x")
	if res.code != 1 || !strings.Contains(res.stderr, "a.txt:1: found edit-v2 marker `<<<<<<< EDIT`") {
		t.Errorf("git commit: exit %d, want 1\n%s", res.code, res.stderr)
	}
}

func TestHookUsage(t *testing.T) {
	r := newRepo(t, map[string]string{"README": "readme\n"})
	for _, args := range [][]string{{"hook"}, {"hook", "nope"}, {"hook", "run", "extra"}, {"hook", "install", "--bogus"}} {
		if res := r.run(args...); res.code != 2 {
			t.Errorf("%v: exit %d, want 2\n%s", args, res.code, res.stderr)
		}
	}
	if res := r.runIn(t.TempDir(), "", "hook", "run"); res.code != 2 || !strings.Contains(res.stderr, "not a git repository") {
		t.Errorf("outside a repository: exit %d, want 2\n%s", res.code, res.stderr)
	}
}

// TestHookRunOnALargeChange stages 5,000 files and runs the hook over
// them: it finds the one with debris. scripts/bench (case 8) times it.
func TestHookRunOnALargeChange(t *testing.T) {
	if testing.Short() {
		t.Skip("stages 5,000 files")
	}
	r := newRepo(t, map[string]string{"README": "readme\n"})
	body := strings.Repeat("// F returns its argument.\nfunc F(x int) int {\n\treturn x // unchanged\n}\n\n", 40)
	for i := range 5000 {
		r.write(fmt.Sprintf("pkg%02d/f%04d.go", i%50, i), fmt.Sprintf("package pkg%02d\n\n%s", i%50, body))
	}
	r.write("pkg07/zz.go", debrisGo)
	r.git("add", "-A")
	res := r.run("hook", "run")
	if res.code != 1 || !strings.Contains(res.stderr, "pkg07/zz.go:4: found elision placeholder") {
		t.Errorf("exit %d, want 1\n%s", res.code, res.stderr)
	}
}

// TestPreCommitManifest checks that .pre-commit-hooks.yaml names the
// hook the README documents and runs the command this binary provides.
func TestPreCommitManifest(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID            string   `yaml:"id"`
		Entry         string   `yaml:"entry"`
		Language      string   `yaml:"language"`
		PassFilenames *bool    `yaml:"pass_filenames"`
		AlwaysRun     bool     `yaml:"always_run"`
		Stages        []string `yaml:"stages"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	if len(hooks) != 1 {
		t.Fatalf("%d hooks", len(hooks))
	}
	h := hooks[0]
	if h.ID != "llm-apply-check" || h.Entry != "git-llm-apply hook run" || h.Language != "golang" ||
		h.PassFilenames == nil || *h.PassFilenames || !h.AlwaysRun {
		t.Errorf("hook: %+v", h)
	}
	readme, _ := os.ReadFile(filepath.Join("..", "..", "docs", "usage.md"))
	if !strings.Contains(string(readme), "- id: "+h.ID) {
		t.Errorf("README does not show the hook id %s", h.ID)
	}
}

// TestHookFlagsNearMisses: the pre-commit check refuses the near misses
// of the markers as it refuses the markers, and lets their look-alikes
// in real files through.
func TestHookFlagsNearMisses(t *testing.T) {
	r := newRepo(t, map[string]string{"a.py": "x = 1\n", "notes.md": "n\n"})
	r.install()
	before := r.head()
	r.write("a.py", "def f():\n<<<<<<<SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> replace\n")
	r.write("b.go", "package b\n\n<<<<<< EDIT\n*** begin patch\n<<<FIUP>>\n<FILE-CHANGES>\n<<<< SEARCH\n")
	r.write("notes.md", "Notes\n=====\n\n    cat <<<\"$x\"\n    >>> search(1)\n<<<<<<< HEAD\n**Begin Patch**\n")
	r.git("add", "-A")
	res := r.gitWithHooks("commit", "-q", "-m", "pasted")
	if res.code != 1 {
		t.Fatalf("git commit: exit %d, want 1\n%s", res.code, res.stderr)
	}
	requireLines(t, res.stderr,
		"a.py:2: found near-miss SEARCH/REPLACE marker `<<<<<<<SEARCH`",
		"a.py:6: found near-miss SEARCH/REPLACE marker `>>>>>>> replace`",
		"b.go:3: found near-miss edit-v2 marker `<<<<<< EDIT`",
		"b.go:4: found near-miss apply-patch marker `*** begin patch`",
		"b.go:5: found near-miss FIUP marker `<<<FIUP>>`",
		"b.go:6: found near-miss udiffx tag `<FILE-CHANGES>`",
		"b.go:7: found near-miss SEARCH/REPLACE marker `<<<< SEARCH`")
	if strings.Contains(res.stderr, "notes.md") {
		t.Errorf("look-alikes reported:\n%s", res.stderr)
	}
	if r.head() != before {
		t.Errorf("a commit was made")
	}
	r.git("reset", "-q", "--", "a.py", "b.go")
	if res := r.gitWithHooks("commit", "-q", "-m", "notes"); res.code != 0 {
		t.Fatalf("commit of the look-alikes: exit %d\n%s", res.code, res.stderr)
	}
}
