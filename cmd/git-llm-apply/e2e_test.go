package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// block writes one SEARCH/REPLACE block in the diff format.
func block(path, search, replace string) string {
	return path + "\n```\n<<<<<<< SEARCH\n" + search + "=======\n" + replace + ">>>>>>> REPLACE\n```\n"
}

const appPy = "import os\n\n\ndef greet(name):\n    return \"hello \" + name\n\n\ndef main():\n    print(greet(os.getlogin()))\n"

func TestApplyRecordsOneCommitOnANewBranch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy, "run.sh*": "#!/bin/sh\necho hi\n", "README": "readme\n"})
	before := r.snapshot()
	reply := r.reply("r1.md", "Greet politely.\n\nThe greeting should be polite.\n\n"+
		block("src/app.py", "    return \"hello \" + name\n", "    return \"good day, \" + name\n")+"\n"+
		block("run.sh", "echo hi\n", "echo hello\n")+"\n"+
		block("docs/new.md", "", "# New\n"))
	res := r.run("apply", reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	branch := r.branches()
	if !strings.Contains(branch, "llm/greet-politely") {
		t.Fatalf("branches: %q", branch)
	}
	got := r.tree("llm/greet-politely")
	want := []string{"100644 README", "100644 docs/new.md", "100644 src/app.py", "100755 run.sh"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tree:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := r.show("llm/greet-politely", "src/app.py"); !strings.Contains(s, "good day") {
		t.Errorf("app.py:\n%s", s)
	}
	msg := r.git("log", "-1", "--format=%B", "llm/greet-politely")
	if !strings.HasPrefix(msg, "Greet politely.\n\nThe greeting should be polite.\n") || !strings.Contains(msg, "LLM-Edit-Format: diff\n") {
		t.Errorf("message:\n%s", msg)
	}
	if p := r.git("rev-parse", "llm/greet-politely^"); p != r.git("rev-parse", "HEAD") {
		t.Errorf("parent %s is not HEAD", p)
	}
	if !strings.Contains(res.stderr, "M src/app.py (+1 -1)") || !strings.Contains(res.stderr, "A docs/new.md") ||
		!strings.Contains(res.stderr, "git log -p") {
		t.Errorf("report:\n%s", res.stderr)
	}
	r.fsck()
	r.assertUntouched(before)
	if log := r.git("reflog", "show", "llm/greet-politely"); !strings.Contains(log, "llm-apply") {
		t.Errorf("reflog: %q", log)
	}
}

func TestTranslateOutputAppliesWithGit(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy, "a.txt": "one\ntwo"})
	reply := r.reply("r.md", block("src/app.py", "import os\n", "import os\nimport sys\n")+block("a.txt", "two\n", "2\n")+block("b.txt", "", "new\n"))
	res := r.run("translate", reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if !strings.HasPrefix(res.stdout, "diff --git a/a.txt b/a.txt\n") {
		t.Errorf("stdout does not start with a diff:\n%s", res.stdout)
	}
	if strings.Contains(res.stdout, "src/app.py (") {
		t.Errorf("human report on stdout")
	}
	patch := r.reply("p.diff", res.stdout)
	r.git("apply", "--check", "--cached", patch)
	r.git("apply", "--check", patch)
	// Applying it gives exactly what apply commits.
	r.run("apply", "-b", "via-apply", reply)
	r.git("apply", "--cached", patch)
	if idx, br := r.git("write-tree"), r.git("rev-parse", "via-apply^{tree}"); idx != br {
		t.Errorf("git apply --cached gives tree %s, apply committed %s", idx, br)
	}
}

func TestFailedEditRecordsNothing(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	before := r.snapshot()
	reply := r.reply("r.md", "Two edits.\n\n"+
		block("src/app.py", "import os\n", "import os\nimport sys\n")+
		block("src/app.py", "def greet(nam):\n    return \"hello \" + nam\n", "def greet(name):\n    return name\n"))
	res := r.run("apply", reply)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
	}
	if b := r.branches(); b != "main" {
		t.Errorf("a branch was made: %q", b)
	}
	// Line numbers are those of the file as the earlier edit left it.
	for _, want := range []string{"edit 2 (replace src/app.py, reply line", "does not match", "closest lines are 5-6", "def greet(name):", "nothing recorded"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.stderr)
		}
	}
	r.assertUntouched(before)
	// --partial records the edit that resolved.
	res = r.run("apply", "--partial", "-b", "part", reply)
	if res.code != 1 {
		t.Fatalf("partial: exit %d", res.code)
	}
	if s := r.show("part", "src/app.py"); !strings.Contains(s, "import sys") {
		t.Errorf("partial commit lacks the good edit:\n%s", s)
	}
}

func TestRerunRecordsNothing(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	reply := r.reply("r.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n")+block("new.txt", "", "fresh\n"))
	if res := r.run("apply", "-b", "work", reply); res.code != 0 {
		t.Fatalf("first: exit %d\n%s", res.code, res.stderr)
	}
	tip := r.git("rev-parse", "work")
	res := r.run("apply", "-b", "work", reply)
	if res.code != 0 {
		t.Fatalf("rerun: exit %d\n%s", res.code, res.stderr)
	}
	if r.git("rev-parse", "work") != tip {
		t.Errorf("rerun recorded a commit")
	}
	// The branch's last commit carries the reply's digest (SPEC
	// section 5): it is not resolved again.
	if !strings.Contains(res.stderr, "already recorded as "+tip[:7]) {
		t.Errorf("rerun report:\n%s", res.stderr)
	}
}

func TestTwoRepliesTwoCommits(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	r1 := r.reply("r1.md", "Import sys first.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	// The second reply names a line the first one wrote.
	r2 := r.reply("r2.md", "**Then use sys.** More words here.\n\n"+block("src/app.py", "import sys\n", "import sys\n\nARGS = sys.argv\n"))
	res := r.run("apply", "-b", "fix-parser", r1, r2)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	log := r.git("log", "--format=%s", "main..fix-parser")
	if log != "Then use sys.\nImport sys first.\n" {
		t.Errorf("log:\n%s", log)
	}
	if s := r.show("fix-parser", "src/app.py"); !strings.Contains(s, "import sys\n\nARGS = sys.argv\n") {
		t.Errorf("app.py:\n%s", s)
	}
	if body := r.git("log", "-1", "--format=%b", "fix-parser"); !strings.Contains(body, "More words here.") {
		t.Errorf("body:\n%s", body)
	}
	r.fsck()
}

func TestLineEndingsFinalNewlineAndModes(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"crlf.txt": "one\r\ntwo\r\nthree\r\n", "nofinal.txt": "alpha\nbeta", "tool.sh*": "#!/bin/sh\nexit 0\n"})
	reply := r.reply("r.md", block("crlf.txt", "two\n", "2\nand more\n")+block("nofinal.txt", "beta\n", "gamma\n")+block("tool.sh", "exit 0\n", "exit 1\n"))
	if res := r.run("apply", "-b", "eol", reply); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if s := r.show("eol", "crlf.txt"); s != "one\r\n2\r\nand more\r\nthree\r\n" {
		t.Errorf("crlf.txt = %q", s)
	}
	if s := r.show("eol", "nofinal.txt"); s != "alpha\ngamma" {
		t.Errorf("nofinal.txt = %q", s)
	}
	if tr := r.tree("eol"); !contains(tr, "100755 tool.sh") {
		t.Errorf("tool.sh lost its mode: %v", tr)
	}
	r.fsck()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestNoEditExitsTwo(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	for name, text := range map[string]string{"empty": "", "prose": "I think the code is fine as it is.\n", "blank": "\n\n  \n"} {
		for _, cmd := range []string{"apply", "check", "translate"} {
			res := r.run(cmd, r.reply(name+".md", text))
			if res.code != 2 || !strings.Contains(res.stderr, "no edit") && !strings.Contains(res.stderr, "empty") {
				t.Errorf("%s %s: exit %d\n%s", cmd, name, res.code, res.stderr)
			}
		}
	}
	if b := r.branches(); b != "main" {
		t.Errorf("branches: %q", b)
	}
}

func TestCheckWritesNothing(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	objects := func() string { return r.git("count-objects", "-v") }
	before, refs := objects(), r.git("for-each-ref")
	good := r.reply("good.md", block("a.txt", "a\n", "b\n"))
	bad := r.reply("bad.md", block("a.txt", "zzz\n", "b\n"))
	if res := r.run("check", good); res.code != 0 {
		t.Errorf("check good: exit %d\n%s", res.code, res.stderr)
	}
	if res := r.run("check", bad); res.code != 1 {
		t.Errorf("check bad: exit %d\n%s", res.code, res.stderr)
	}
	if objects() != before || r.git("for-each-ref") != refs {
		t.Errorf("check wrote something")
	}
}

func TestJSONReport(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\nb\n"})
	reply := r.reply("r.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n")+block("a.txt", "nope\n", "x\n"))
	res := r.run("apply", "--json", "--partial", "-b", "j", reply)
	var rep struct {
		Replies []struct {
			Source, Format, Description, Status string
			Commit, Branch                      *string
			Edits                               []struct {
				N       int
				Path    string
				Op      string
				Status  string
				Rung    *string
				Lines   *[2]int
				Reason  *string
				Closest *struct{ Lines [2]int }
			}
		}
		OK bool
	}
	if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil {
		t.Fatalf("stdout is not JSON: %v\n%s", err, res.stdout)
	}
	if rep.OK || len(rep.Replies) != 1 {
		t.Fatalf("report: %+v", rep)
	}
	x := rep.Replies[0]
	if x.Status != "partial" || x.Format != "diff" || x.Description != "Change a." || x.Commit == nil || *x.Branch != "j" {
		t.Errorf("reply: %+v", x)
	}
	if len(x.Edits) != 2 || x.Edits[0].Status != "applied" || *x.Edits[0].Rung != "exact" || *x.Edits[0].Lines != [2]int{1, 1} ||
		x.Edits[1].Status != "failed" || x.Edits[1].Reason == nil || x.Edits[1].Op != "replace" {
		t.Errorf("edits: %+v", x.Edits)
	}
	if *x.Commit != strings.TrimSpace(r.git("rev-parse", "j")) {
		t.Errorf("commit %s is not the branch tip", *x.Commit)
	}
}

func TestDeterministicCommitIDs(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	reply := r.reply("r.md", "Same.\n\n"+block("a.txt", "a\n", "b\n"))
	r.run("apply", "-b", "one", reply)
	r.run("apply", "-b", "two", reply)
	if a, b := r.git("rev-parse", "one"), r.git("rev-parse", "two"); a != b {
		t.Errorf("commit ids differ: %s %s", a, b)
	}
	if a := r.git("log", "-1", "--format=%an <%ae> %ad|%cn <%ce> %cd", "--date=raw", "one"); a != "Ada Author <ada@example.com> 1700000000 +0100|Cy Committer <cy@example.com> 1700000100 +0100\n" {
		t.Errorf("idents: %s", a)
	}
}

func TestIndexBaseAndStagedNote(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	r.write("a.txt", "a\nstaged\n")
	r.git("add", "a.txt")
	r.write("b.txt", "b\nunstaged\n")
	r.write("c.txt", "staged but untouched\n")
	r.git("add", "c.txt")
	before := r.snapshot()
	reply := r.reply("r.md", block("a.txt", "staged\n", "staged and edited\n"))
	res := r.run("apply", "-b", "st", reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if s := r.show("st", "a.txt"); s != "a\nstaged and edited\n" {
		t.Errorf("a.txt = %q", s)
	}
	if tr := r.tree("st"); contains(tr, "100644 c.txt") {
		t.Errorf("staged change to another path swept in: %v", tr)
	}
	if !strings.Contains(res.stderr, "note: a.txt") {
		t.Errorf("no note about staged content:\n%s", res.stderr)
	}
	// --base HEAD does not see the staged line; --base worktree sees unstaged ones.
	if res := r.run("check", "--base", "HEAD", reply); res.code != 1 {
		t.Errorf("--base HEAD: exit %d", res.code)
	}
	if res := r.run("check", "--base", "worktree", r.reply("w.md", block("b.txt", "unstaged\n", "x\n"))); res.code != 0 {
		t.Errorf("--base worktree: exit %d\n%s", res.code, res.stderr)
	}
	r.assertUntouched(before)
}

func TestRunsFromSubdirectoryAndWithC(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"pkg/deep/a.txt": "a\n"})
	reply := r.reply("r.md", block("a.txt", "a\n", "b\n")) // a unique suffix names pkg/deep/a.txt
	if res := r.runIn(filepath.Join(r.dir, "pkg", "deep"), "", "apply", "-b", "sub", reply); res.code != 0 {
		t.Fatalf("from a subdirectory: exit %d\n%s", res.code, res.stderr)
	}
	if s := r.show("sub", "pkg/deep/a.txt"); s != "b\n" {
		t.Errorf("a.txt = %q", s)
	}
	if res := r.runIn(t.TempDir(), "", "-C", r.dir, "check", reply); res.code != 0 {
		t.Errorf("-C: exit %d\n%s", res.code, res.stderr)
	}
	if res := r.runIn(t.TempDir(), "", "check", reply); res.code != 2 || !strings.Contains(res.stderr, "repository") {
		t.Errorf("outside a repository: exit %d\n%s", res.code, res.stderr)
	}
}

func TestStandardInputAndDirectory(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	if res := r.runIn(r.dir, block("a.txt", "a\n", "b\n"), "check"); res.code != 0 {
		t.Errorf("stdin: exit %d\n%s", res.code, res.stderr)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "01.md"), []byte("First.\n\n"+block("a.txt", "a\n", "b\n")), 0o644)
	os.WriteFile(filepath.Join(dir, "02.md"), []byte("Second.\n\n"+block("a.txt", "b\n", "c\n")), 0o644)
	if res := r.run("apply", "-b", "conv", dir); res.code != 0 {
		t.Fatalf("directory: exit %d\n%s", res.code, res.stderr)
	}
	if log := r.git("log", "--format=%s", "main..conv"); log != "Second.\nFirst.\n" {
		t.Errorf("log: %q", log)
	}
}

func TestBranchLockedExitsThree(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	lock := filepath.Join(r.dir, ".git", "refs", "heads", "locked.lock")
	os.WriteFile(lock, []byte("x"), 0o644)
	// The binary, as for a stale lock (crash_test.go): a lock's age is
	// measured against the process's.
	res := r.runBinary("apply", "-b", "locked", r.reply("r.md", block("a.txt", "a\n", "b\n")))
	if res.code != 3 || !strings.Contains(res.stderr, "nothing was recorded") {
		t.Errorf("exit %d\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("the other writer's lock was removed")
	}
}

func TestUsageErrors(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	reply := r.reply("r.md", block("a.txt", "a\n", "b\n"))
	for _, args := range [][]string{
		{"apply", "--fuzz", "wild", reply},
		{"apply", "--format", "nope", reply},
		{"apply", "--no-such-flag", reply},
		{"apply", "-b", "bad..name", reply},
		{"check", "--base", "no-such-rev", reply},
		{"frobnicate"},
		{"check", "/no/such/reply.md"},
	} {
		if res := r.run(args...); res.code != 2 {
			t.Errorf("%v: exit %d\n%s", args, res.code, res.stderr)
		}
	}
	if res := r.run("prompt", "nope"); res.code != 2 {
		t.Errorf("prompt nope: exit %d", res.code)
	}
	if res := r.run("--help"); res.code != 0 || !strings.Contains(res.stdout, "apply") {
		t.Errorf("--help: exit %d\n%s", res.code, res.stdout)
	}
	if res := r.run("apply", "--help"); res.code != 0 || !strings.Contains(res.stdout, "--partial") {
		t.Errorf("apply --help: exit %d\n%s", res.code, res.stdout)
	}
}

func TestRefusesCheckedOutBranch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	before := r.snapshot()
	res := r.run("apply", "-b", "main", r.reply("r.md", block("a.txt", "a\n", "b\n")))
	if res.code != 2 {
		t.Errorf("exit %d\n%s", res.code, res.stderr)
	}
	r.assertUntouched(before)
}

func TestGitSubcommand(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	cmd := exec.Command("git", "llm-apply", "check", r.reply("r.md", block("a.txt", "a\n", "b\n")))
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary())+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("git llm-apply: %v\n%s", err, out)
	}
}

func TestRunsInsideALinkedWorktree(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	wt := filepath.Join(t.TempDir(), "wt")
	r.git("worktree", "add", "-q", "-b", "side", wt)
	res := r.runIn(filepath.Join(wt), "", "apply", "-b", "from-wt", r.reply("r.md", block("a.txt", "a\n", "b\n")))
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	// The branch lives in the shared refs and starts at the worktree's HEAD.
	if r.git("rev-parse", "from-wt^") != r.git("rev-parse", "side") {
		t.Errorf("parent is not the linked worktree's HEAD")
	}
	if s := r.show("from-wt", "a.txt"); s != "b\n" {
		t.Errorf("a.txt = %q", s)
	}
	r.fsck()
}

func TestRevisionBaseStartsTheBranchThere(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "old\n"})
	first := strings.TrimSpace(r.git("rev-parse", "HEAD"))
	r.write("a.txt", "new\n")
	r.git("commit", "-qam", "second")
	res := r.run("apply", "--base", first, "-b", "from-first", r.reply("r.md", block("a.txt", "old\n", "older\n")))
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if p := strings.TrimSpace(r.git("rev-parse", "from-first^")); p != first {
		t.Errorf("parent %s, want %s", p, first)
	}
	if s := r.show("from-first", "a.txt"); s != "older\n" {
		t.Errorf("a.txt = %q", s)
	}
}

func TestFormatsAndPrompt(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	res := r.run("formats")
	for _, name := range []string{"diff", "diff-fenced", "fiup", "chunk", "edit-v2", "udiffx", "docs/formats.md#fiup", "Aider-AI/aider"} {
		if res.code != 0 || !strings.Contains(res.stdout, name) {
			t.Errorf("formats lacks %q (exit %d):\n%s", name, res.code, res.stdout)
		}
	}
	// It fits an 80-column terminal, and names no file a user lacks.
	for _, l := range strings.Split(res.stdout, "\n") {
		if utf8.RuneCountInString(l) > 80 || strings.Contains(l, "seeds/") {
			t.Errorf("formats line of %d columns: %q", utf8.RuneCountInString(l), l)
		}
	}
	for _, name := range []string{"diff", "diff-fenced", "fiup", "chunk", "edit-v2", "udiffx"} {
		res := r.run("prompt", name)
		if res.code != 0 || len(res.stdout) < 500 || strings.Contains(res.stdout, "<!-- example -->") {
			t.Errorf("prompt %s: exit %d\n%s", name, res.code, res.stderr)
		}
	}
}
