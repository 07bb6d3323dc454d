package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// End-to-end tests of the review outputs: linked worktrees, patch
// files and conversations applied turn by turn.

func TestWorktreeIsAddedOnTheNewBranch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy, "run.sh*": "#!/bin/sh\necho hi\n"})
	before := r.snapshot()
	wt := filepath.Join(t.TempDir(), "review")
	reply := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	res := r.run("apply", "-b", "feature", "--worktree", wt, reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if !strings.Contains(r.git("worktree", "list"), wt) {
		t.Fatalf("git worktree list:\n%s", r.git("worktree", "list"))
	}
	w := &repo{t: t, dir: wt}
	if st := w.git("status", "--porcelain"); st != "" {
		t.Errorf("status in the worktree: %q", st)
	}
	if b := strings.TrimSpace(w.git("rev-parse", "--abbrev-ref", "HEAD")); b != "feature" {
		t.Errorf("worktree HEAD is %q", b)
	}
	if data, _ := os.ReadFile(filepath.Join(wt, "src/app.py")); !strings.Contains(string(data), "import sys") {
		t.Errorf("app.py in the worktree:\n%s", data)
	}
	if fi, err := os.Stat(filepath.Join(wt, "run.sh")); err != nil || fi.Mode()&0o100 == 0 {
		t.Errorf("run.sh in the worktree: %v %v", fi, err)
	}
	if !strings.Contains(res.stderr, "Added a worktree at "+wt) {
		t.Errorf("report:\n%s", res.stderr)
	}
	if out, err := r.gitMayFail("branch", "-D", "feature"); err == nil {
		t.Errorf("the branch was deleted while checked out: %s", out)
	}
	r.git("worktree", "remove", wt)
	r.fsck()
	r.assertUntouched(before)
}

func TestWorktreePathNotEmptyRecordsNothing(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	wt := t.TempDir()
	os.WriteFile(filepath.Join(wt, "keep.txt"), []byte("mine\n"), 0o644)
	reply := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	res := r.run("apply", "-b", "feature", "--worktree", wt, reply)
	if res.code != 2 || !strings.Contains(res.stderr, "not empty") {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if b := r.branches(); b != "main" {
		t.Errorf("branches: %q", b)
	}
	if data, _ := os.ReadFile(filepath.Join(wt, "keep.txt")); string(data) != "mine\n" {
		t.Errorf("keep.txt: %q", data)
	}
}

// A branch checked out in a linked worktree: the next turn's commit is
// recorded, and the worktree follows, keeping a local change to a file
// the commit leaves alone; a local change to a file the commit changes
// stops the update, which names the file (SPEC section 3, worktrees).
func TestWorktreeFollowsTheBranch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy, "notes.txt": "notes\n"})
	wt := filepath.Join(t.TempDir(), "review")
	r1 := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	if res := r.run("apply", "-b", "feature", "--worktree", wt, r1); res.code != 0 {
		t.Fatalf("turn 1: exit %d\n%s", res.code, res.stderr)
	}
	w := &repo{t: t, dir: wt}

	r2 := r.reply("r2.md", "Use sys.\n\n"+block("src/app.py", "import sys\n", "import sys\n\nARGS = sys.argv\n"))
	res := r.run("apply", "-b", "feature", r2)
	if res.code != 0 {
		t.Fatalf("turn 2: exit %d\n%s", res.code, res.stderr)
	}
	if st := w.git("status", "--porcelain"); st != "" {
		t.Errorf("status after following: %q", st)
	}
	if data, _ := os.ReadFile(filepath.Join(wt, "src/app.py")); !strings.Contains(string(data), "ARGS = sys.argv") {
		t.Errorf("the worktree did not follow:\n%s", data)
	}
	if !strings.Contains(res.stderr, "Updated the worktree at "+wt) {
		t.Errorf("report:\n%s", res.stderr)
	}

	// A local change and an untracked file elsewhere: they stay, and
	// the worktree follows all the same.
	os.WriteFile(filepath.Join(wt, "notes.txt"), []byte("my notes\n"), 0o644)
	os.WriteFile(filepath.Join(wt, "out.log"), []byte("test output\n"), 0o644)
	r3 := r.reply("r3.md", "Print the args.\n\n"+block("src/app.py", "ARGS = sys.argv\n", "ARGS = sys.argv\nprint(ARGS)\n"))
	res = r.run("apply", "-b", "feature", r3)
	if res.code != 0 {
		t.Fatalf("turn 3: exit %d\n%s", res.code, res.stderr)
	}
	if data, _ := os.ReadFile(filepath.Join(wt, "src/app.py")); !strings.Contains(string(data), "print(ARGS)") {
		t.Errorf("the worktree did not follow past a local change elsewhere:\n%s\n%s", data, res.stderr)
	}
	if st := w.git("status", "--porcelain"); st != " M notes.txt\n?? out.log\n" {
		t.Errorf("status after following: %q", st)
	}

	// A manual fix of the file the next commit changes: the commit is
	// recorded, the worktree's files stay, and the report names it.
	os.WriteFile(filepath.Join(wt, "src/app.py"), []byte(appPy+"# my fix\n"), 0o644)
	r4 := r.reply("r4.md", "Print twice.\n\n"+block("src/app.py", "print(ARGS)\n", "print(ARGS)\nprint(ARGS)\n"))
	res = r.run("apply", "-b", "feature", r4)
	if res.code != 0 {
		t.Fatalf("turn 4: exit %d\n%s", res.code, res.stderr)
	}
	if s := r.show("feature", "src/app.py"); !strings.Contains(s, "print(ARGS)\nprint(ARGS)") {
		t.Errorf("turn 4 not recorded:\n%s", s)
	}
	if data, _ := os.ReadFile(filepath.Join(wt, "src/app.py")); string(data) != appPy+"# my fix\n" {
		t.Errorf("a file with local changes was overwritten:\n%s", data)
	}
	if !strings.Contains(res.stderr, "src/app.py has changes of its own") || !strings.Contains(res.stderr, "git read-tree -m -u") {
		t.Errorf("report:\n%s", res.stderr)
	}
	// The command the report gives brings it up to date once the fix
	// is put away, keeping the other change.
	w.git("checkout", "--", "src/app.py")
	i := strings.Index(res.stderr, "git read-tree -m -u ")
	args := strings.Fields(strings.SplitN(res.stderr[i:], "\n", 2)[0])[1:]
	w.git(args...)
	if data, _ := os.ReadFile(filepath.Join(wt, "src/app.py")); !strings.Contains(string(data), "print(ARGS)\nprint(ARGS)") {
		t.Errorf("the suggested command did not update the worktree")
	}
	if st := w.git("status", "--porcelain"); st != " M notes.txt\n?? out.log\n" {
		t.Errorf("status after the suggested command: %q", st)
	}
	r.fsck()
}

func TestRefusesTheCurrentCheckoutsBranch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	before := r.snapshot()
	reply := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	res := r.run("apply", "-b", "main", reply)
	if res.code != 2 || !strings.Contains(res.stderr, "checked out") {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	r.assertUntouched(before)
}

// A conversation applied turn by turn gives the same commits as the
// same replies applied at once from a directory.
func TestConversationTurnByTurnEqualsAllAtOnce(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	dir := t.TempDir()
	turns := []string{
		"Import sys.\n\n" + block("src/app.py", "import os\n", "import os\nimport sys\n"),
		"Use sys.\n\n" + block("src/app.py", "import sys\n", "import sys\n\nARGS = sys.argv\n"),
		"Print the args.\n\n" + block("src/app.py", "ARGS = sys.argv\n", "ARGS = sys.argv\nprint(ARGS)\n"),
	}
	for i, text := range turns {
		p := filepath.Join(dir, []string{"01-first.md", "02-second.md", "10-third.md"}[i])
		os.WriteFile(p, []byte(text), 0o644)
		if res := r.run("apply", "-b", "turns", p); res.code != 0 {
			t.Fatalf("turn %d: exit %d\n%s", i+1, res.code, res.stderr)
		}
	}
	if res := r.run("apply", "-b", "at-once", dir); res.code != 0 {
		t.Fatalf("at once: exit %d\n%s", res.code, res.stderr)
	}
	a, b := r.git("rev-parse", "turns"), r.git("rev-parse", "at-once")
	if a != b {
		t.Errorf("turn by turn %s, at once %s:\n%s", a, b, r.git("log", "--format=%s", "main..at-once"))
	}
	if log := r.git("log", "--format=%s", "main..turns"); log != "Print the args.\nUse sys.\nImport sys.\n" {
		t.Errorf("log:\n%s", log)
	}
}

func TestDefaultBranchIsMadeUnique(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	reply := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	for i := 0; i < 2; i++ {
		if res := r.run("apply", reply); res.code != 0 {
			t.Fatalf("exit %d\n%s", res.code, res.stderr)
		}
	}
	if b := r.branches(); b != "llm/import-sys\nllm/import-sys-2\nmain" {
		t.Errorf("branches:\n%s", b)
	}
}

// Patch files from apply -o: git am on a fresh clone at the base gives
// the branch's trees and messages exactly, and git apply --check takes
// each file.
func TestApplyPatchFilesReplayWithGitAm(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy, "run.sh*": "#!/bin/sh\necho hi\n", "old.txt": "old\n"})
	out := filepath.Join(t.TempDir(), "patches")
	r1 := r.reply("r1.md", "Import sys first.\n\nA body line.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	r2 := r.reply("r2.md", "Add docs — naïvely.\n\n"+block("docs/new.md", "", "# New\n")+"\n"+block("run.sh", "echo hi\n", "echo hello\n"))
	res := r.run("apply", "-b", "feature", "-o", out, r1, r2)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	files := patchFiles(t, out)
	if len(files) != 2 || !strings.HasPrefix(filepath.Base(files[0]), "0001-") || !strings.HasPrefix(filepath.Base(files[1]), "0002-") {
		t.Fatalf("patch files: %v", files)
	}
	first, _ := os.ReadFile(files[0])
	if sha := strings.TrimSpace(r.git("rev-parse", "feature~1")); !strings.HasPrefix(string(first), "From "+sha+" ") {
		t.Errorf("From line of %s:\n%s", files[0], strings.SplitN(string(first), "\n", 2)[0])
	}
	if !strings.Contains(string(first), "Subject: [PATCH 1/2] Import sys first.") || !strings.Contains(string(first), " 1 file changed, 1 insertion(+)") {
		t.Errorf("patch file:\n%s", first)
	}
	if !strings.Contains(res.stderr, "patch: "+files[0]) {
		t.Errorf("report:\n%s", res.stderr)
	}
	clone := &repo{t: t, dir: t.TempDir()}
	clone.git("clone", "-q", r.dir, ".")
	clone.git("checkout", "-q", "-b", "replay", "main")
	for _, f := range files {
		clone.git("apply", "--check", f)
		clone.git("am", "-q", f)
	}
	for _, rev := range []string{"HEAD", "HEAD~1"} {
		want := strings.Replace(rev, "HEAD", "feature", 1)
		if a, b := clone.git("rev-parse", rev+"^{tree}"), r.git("rev-parse", want+"^{tree}"); a != b {
			t.Errorf("%s tree %s, want %s", rev, a, b)
		}
		if a, b := clone.git("log", "-1", "--format=%B%an%ae%ad", rev), r.git("log", "-1", "--format=%B%an%ae%ad", want); a != b {
			t.Errorf("%s message %q, want %q", rev, a, b)
		}
	}
}

// translate -o writes the same series without recording anything.
func TestTranslatePatchFiles(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	before := r.snapshot()
	out := t.TempDir()
	r1 := r.reply("r1.md", "Import sys first.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	r2 := r.reply("r2.md", "Use sys.\n\n"+block("src/app.py", "import sys\n", "import sys\n\nARGS = sys.argv\n"))
	res := r.run("translate", "-o", out, r1, r2)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if res.stdout != "" {
		t.Errorf("translate -o printed a diff:\n%s", res.stdout)
	}
	files := patchFiles(t, out)
	if len(files) != 2 {
		t.Fatalf("patch files: %v", files)
	}
	r.git("apply", "--check", files[0]) // the second builds on the first
	clone := &repo{t: t, dir: t.TempDir()}
	clone.git("clone", "-q", r.dir, ".")
	for _, f := range files {
		clone.git("am", "-q", f)
	}
	if s := clone.show("HEAD", "src/app.py"); !strings.Contains(s, "import sys\n\nARGS = sys.argv\n") {
		t.Errorf("app.py after git am:\n%s", s)
	}
	r.assertUntouched(before)
	if b := r.branches(); b != "main" {
		t.Errorf("translate made a branch: %q", b)
	}
}

func patchFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.patch"))
	sort.Strings(files)
	return files
}

// gitMayFail runs git and returns its output and error, for commands
// expected to fail.
func (r *repo) gitMayFail(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// --onto starts a new branch at another revision, and the edits resolve
// against the index still: the commit's parent is REV.
func TestOntoStartsTheNewBranchThere(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	first := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.write("other.txt", "other\n")
	r.git("add", "other.txt")
	r.git("commit", "-q", "-m", "second")
	reply := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	res := r.run("apply", "-b", "from-first", "--onto", first, reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if p := strings.TrimSpace(r.git("rev-parse", "from-first^")); p != first {
		t.Errorf("parent %s, want %s", p, first)
	}
	if got := strings.Join(r.tree("from-first"), " "); got != "100644 src/app.py" {
		t.Errorf("tree: %s", got)
	}
	if res := r.run("apply", "-b", "bad", "--onto", "no-such-rev", reply); res.code != 2 {
		t.Errorf("unknown --onto: exit %d\n%s", res.code, res.stderr)
	}
}

// TestReviewHintRuns: the "Review with" command works as printed, in a
// repository with commits and in one without any.
func TestReviewHintRuns(t *testing.T) {
	t.Parallel()
	unborn := &repo{t: t, dir: t.TempDir()}
	unborn.git("init", "-q", "-b", "main")
	unborn.write("a.txt", "a\n")
	unborn.git("add", "a.txt")
	born := newRepo(t, map[string]string{"a.txt": "a\n"})
	for name, r := range map[string]*repo{"unborn": unborn, "born": born} {
		res := r.run("apply", "-b", "x", r.reply("r.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n")))
		if res.code != 0 {
			t.Fatalf("%s: exit %d\n%s", name, res.code, res.stderr)
		}
		m := regexp.MustCompile(`(?m)^Review with: git (.*)$`).FindStringSubmatch(res.stderr)
		if m == nil {
			t.Fatalf("%s: no review hint:\n%s", name, res.stderr)
		}
		cmd := exec.Command("git", strings.Fields(m[1])...)
		cmd.Dir = r.dir
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "+A\n") || !strings.Contains(string(out), "Change a.") {
			t.Errorf("%s: git %s: %v\n%s", name, m[1], err, out)
		}
	}
}

// TestHintsQuoteBranchNames: git takes branch names a shell reads
// otherwise (x;false, a$b); the Review and Switch hints quote them, so
// that pasted they name the branch and run nothing else. Before,
// "git switch x;false" switched and then ran false.
func TestHintsQuoteBranchNames(t *testing.T) {
	t.Parallel()
	for _, branch := range []string{"x;false", "a$HOME", "it's"} {
		r := newRepo(t, map[string]string{"a.txt": "a\n"})
		res := r.run("apply", "-b", branch, r.reply("r.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n")))
		if res.code != 0 {
			t.Fatalf("%s: exit %d\n%s", branch, res.code, res.stderr)
		}
		for _, label := range []string{"Review with: ", "Switch with: "} {
			_, line, ok := strings.Cut(res.stderr, label)
			if !ok {
				t.Fatalf("%s: no %q:\n%s", branch, label, res.stderr)
			}
			line, _, _ = strings.Cut(line, "\n")
			cmd := exec.Command("sh", "-c", line)
			cmd.Dir = r.dir
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Errorf("%s: %s: %v\n%s", branch, line, err, out)
			}
			if label == "Review with: " && !strings.Contains(string(out), "+A") {
				t.Errorf("%s: %s shows:\n%s", branch, line, out)
			}
		}
		if got := strings.TrimSpace(r.git("branch", "--show-current")); got != branch {
			t.Errorf("switched to %q, want %q", got, branch)
		}
	}
}
