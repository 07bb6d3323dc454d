package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStartDirIsWhereRelativePathsStart: -C DIR is git's "as if started
// in DIR": replies, -o and --worktree are relative to it, -C options
// chain, an empty one changes nothing, absolute paths and "-" stay what
// they are, and the report names paths as they were typed.
func TestStartDirIsWhereRelativePathsStart(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"})
	top := filepath.Dir(r.dir) // the test's own temporary directory
	r.write("sub/r.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n"))
	before := r.snapshot()
	elsewhere := t.TempDir()
	res := r.runIn(elsewhere, "", "-C", top, "-C", filepath.Base(r.dir), "-C", "", "-C", "sub",
		"apply", "-b", "c", "-o", "../../patches", "--worktree", "../../review", "r.md")
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	requireLines(t, res.stderr,
		"r.md (diff): Change a. ["+strings.TrimSpace(r.git("rev-parse", "--short=7", "c"))+" on c]",
		"  patch: ../../patches/0001-Change-a.patch",
		"Added a worktree at ../../review with c checked out.")
	if _, err := os.Stat(filepath.Join(top, "patches", "0001-Change-a.patch")); err != nil {
		t.Errorf("the patch file is not under DIR: %v", err)
	}
	if data, err := os.ReadFile(filepath.Join(top, "review", "a.txt")); string(data) != "A\n" {
		t.Errorf("the worktree is not under DIR: %q %v", data, err)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) > 0 {
		t.Errorf("something was written where the command started: %v", ents)
	}
	r.git("worktree", "remove", filepath.Join(top, "review"))
	r.assertUntouched(before)

	// translate -o, an absolute reply, and "-" still standard input.
	abs := r.reply("abs.md", "Change b.\n\n"+block("sub/b.txt", "b\n", "B\n"))
	res = r.runIn(elsewhere, "Change x.\n\n"+block("a.txt", "a\n", "x\n"), "-C", r.dir, "-C", "sub", "translate", "-o", "out", abs, "-")
	if res.code != 0 {
		t.Fatalf("translate: exit %d\n%s", res.code, res.stderr)
	}
	requireLines(t, res.stderr, "  patch: out/0001-Change-b.patch", "  patch: out/0002-Change-x.patch")
	if ents, err := os.ReadDir(filepath.Join(r.dir, "sub", "out")); err != nil || len(ents) != 2 {
		t.Errorf("translate -o wrote %v (%v) under DIR", ents, err)
	}

	// check, hook install: the repository is DIR's.
	if res := r.runIn(top, "", "-C", filepath.Base(r.dir), "check", "sub/r.md"); res.code != 0 {
		t.Errorf("check: exit %d\n%s", res.code, res.stderr)
	}
	if res := r.runIn(top, "", "-C", filepath.Base(r.dir), "-C", "sub", "hook", "install"); res.code != 0 {
		t.Errorf("hook install: exit %d\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(r.dir, ".git", "hooks", "pre-commit")); err != nil {
		t.Errorf("no hook in DIR's repository: %v", err)
	}

	// An -o that is a file under DIR is refused, named as typed.
	res = r.runIn(elsewhere, "", "-C", r.dir, "apply", "-o", "a.txt/x", "sub/r.md")
	if res.code != 2 || !strings.Contains(res.stderr, "-o a.txt/x: a.txt is not a directory") {
		t.Errorf("-o under a file: exit %d\n%s", res.code, res.stderr)
	}
	// A reply missing under DIR is named as typed.
	res = r.runIn(elsewhere, "", "-C", r.dir, "check", "nope.md")
	if res.code != 2 || !strings.Contains(res.stderr, "cannot read reply nope.md: no such file or directory") {
		t.Errorf("missing reply: exit %d\n%s", res.code, res.stderr)
	}
	// A DIR that is not there stops the run, as git's -C does.
	res = r.runIn(elsewhere, "", "-C", r.dir, "-C", "nowhere", "check", "r.md")
	if res.code != 2 || !strings.Contains(res.stderr, "cannot change to "+r.dir+"/nowhere: no such file or directory") {
		t.Errorf("missing DIR: exit %d\n%s", res.code, res.stderr)
	}
}

// TestStartDirMissingStopsEveryCommand: a -C that is no directory stops
// every command, as git's -C does (README, Choices: "A DIR that is not
// a directory stops the run"); before, version, man, completion,
// formats and prompt ignored it and exited 0.
func TestStartDirMissingStopsEveryCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := &repo{t: t, dir: dir}
	for _, args := range [][]string{
		{"version"}, {"man"}, {"completion", "bash"}, {"formats"}, {"prompt", "diff"},
		{"hook", "install"}, {"hook", "run"}, {"check", "r.md"}, {"apply", "r.md"}, {"translate", "r.md"},
	} {
		res := r.runIn(dir, "", append([]string{"-C", "nowhere"}, args...)...)
		if res.code != 2 || res.stdout != "" || !strings.Contains(res.stderr, "cannot change to nowhere: no such file or directory") {
			t.Errorf("-C nowhere %s: exit %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), res.code, res.stdout, res.stderr)
		}
	}
}

// TestStartDirChainsFromTheStartDirectory: a relative -C is taken from
// the directory the command starts in (run's dir), an absolute one
// starts afresh, and with neither base nor -C the process's own
// working directory ("") is meant.
func TestStartDirChainsFromTheStartDirectory(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		base    string
		cs      []string
		at, arg string
	}{
		{"", nil, "", ""},
		{"", []string{"a", "b"}, "a/b", "a/b"},
		{"/start", nil, "/start", ""},
		{"/start", []string{"a", "", "b"}, "/start/a/b", "a/b"},
		{"/start", []string{"a", "/abs", "b"}, "/abs/b", "/abs/b"},
		{"rel", []string{"a"}, "rel/a", "a"},
	} {
		d := &startDir{base: tc.base}
		for _, c := range tc.cs {
			d.Set(c)
		}
		if at, arg := d.at(), d.String(); at != tc.at || arg != tc.arg {
			t.Errorf("base %q, -C %q: at %q, arg %q; want %q, %q", tc.base, tc.cs, at, arg, tc.at, tc.arg)
		}
	}
}

// TestRunReadsRelativePathsFromDir: run's dir is where the command
// starts: replies, -C and -o that are relative are read from it, never
// from the process's working directory, and the report names them as
// given.
func TestRunReadsRelativePathsFromDir(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n", "sub/b.txt": "b\n"})
	r.write("sub/r.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n"))
	r.write("sub/replies/1.md", "Change b.\n\n"+block("sub/b.txt", "b\n", "B\n"))
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(cwd)
	runIn := func(dir string, args ...string) result {
		t.Helper()
		var out, errb strings.Builder
		code := run(t.Context(), append([]string{"git-llm-apply"}, args...), dir, strings.NewReader(""), &out, &errb)
		return result{out.String(), errb.String(), code}
	}

	// A reply file and a directory of replies, relative to dir.
	if res := runIn(filepath.Join(r.dir, "sub"), "check", "r.md", "replies"); res.code != 0 {
		t.Fatalf("check from sub: exit %d\n%s", res.code, res.stderr)
	}
	// -C relative to dir, and -o relative to that.
	top := filepath.Dir(r.dir)
	res := runIn(top, "-C", filepath.Base(r.dir), "-C", "sub", "apply", "-b", "c", "-o", "out", "r.md")
	if res.code != 0 {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	requireLines(t, res.stderr, "  patch: out/0001-Change-a.patch")
	if _, err := os.Stat(filepath.Join(r.dir, "sub", "out", "0001-Change-a.patch")); err != nil {
		t.Errorf("the patch file is not under dir, then -C: %v", err)
	}
	if got := r.show("c", "a.txt"); got != "A\n" {
		t.Errorf("branch c has a.txt %q", got)
	}
	// A failing edit's advice names -C as given, not as resolved.
	r.write("sub/bad.md", "Change a.\n\n"+block("a.txt", "nope\n", "x\n"))
	res = runIn(top, "-C", filepath.Base(r.dir), "check", "sub/bad.md")
	if res.code != 1 || strings.Contains(res.stderr, top) {
		t.Errorf("check bad: exit %d, the report names dir:\n%s", res.code, res.stderr)
	}
	// A -C missing under dir is named as given.
	res = runIn(top, "-C", "nowhere", "check", "r.md")
	if res.code != 2 || !strings.Contains(res.stderr, "cannot change to nowhere: no such file or directory") {
		t.Errorf("missing -C: exit %d\n%s", res.code, res.stderr)
	}
	if after, _ := os.ReadDir(cwd); len(after) != len(before) {
		t.Errorf("something was written in the process's working directory %s", cwd)
	}
}
