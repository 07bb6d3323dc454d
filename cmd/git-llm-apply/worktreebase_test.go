package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// --base worktree stores what git add would store (SPEC section 5):
// the working tree's CR LF checkout of a text file is cleaned to LF
// before the edit, so the commit holds LF lines, the blob git add of the
// edited file would make, and a checkout of the branch shows no change.
func TestWorktreeBaseCleanConversion(t *testing.T) {
	t.Parallel()
	const body = "one\ntwo\nthree\n"
	tests := []struct {
		name   string
		setup  func(r *repo)
		path   string
		stored string // on the branch after two -> TWO
	}{
		{"text eol=crlf", func(r *repo) {
			r.write(".gitattributes", "*.txt text eol=crlf\n")
		}, "a.txt", "one\nTWO\nthree\n"},
		{"core.autocrlf true", func(r *repo) {
			r.git("config", "core.autocrlf", "true")
		}, "a.txt", "one\nTWO\nthree\n"},
		{"text=auto, committed with CR LF (kept)", func(r *repo) {
			r.write("a.txt", strings.ReplaceAll(body, "\n", "\r\n"))
			r.git("add", "a.txt")
			r.git("commit", "-q", "-m", "crlf")
			r.write(".gitattributes", "*.txt text=auto eol=crlf\n")
		}, "a.txt", "one\r\nTWO\r\nthree\r\n"},
		{"-text keeps CR LF", func(r *repo) {
			r.write(".gitattributes", "*.txt -text\n")
			r.write("a.txt", strings.ReplaceAll(body, "\n", "\r\n"))
			r.git("add", "a.txt")
			r.git("commit", "-q", "-m", "crlf")
		}, "a.txt", "one\r\nTWO\r\nthree\r\n"},
		{"ident", func(r *repo) {
			r.write(".gitattributes", "*.c ident\n")
			r.write("a.c", "/* $Id$ */\n"+body)
			r.git("add", "a.c")
			r.git("commit", "-q", "-m", "ident")
		}, "a.c", "/* $Id$ */\none\nTWO\nthree\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"a.txt": body})
			tc.setup(r)
			r.git("add", "-A")
			r.git("commit", "-q", "--allow-empty", "-m", "attributes")
			// Check the files out again, as git writes them.
			os.Remove(filepath.Join(r.dir, tc.path))
			r.git("checkout", "--", tc.path)
			disk, err := os.ReadFile(filepath.Join(r.dir, tc.path))
			if err != nil {
				t.Fatal(err)
			}
			before := r.snapshot()
			reply := r.reply("r.md", "Shout.\n\n"+block(tc.path, "two\n", "TWO\n"))
			if res := r.run("apply", "--base", "worktree", "-b", "wt", reply); res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			if got := r.show("wt", tc.path); got != tc.stored {
				t.Errorf("%s on wt: %q, want %q (on disk: %q)", tc.path, got, tc.stored, disk)
			}
			// The blob git add makes of the working tree file, edited by
			// hand in its own line endings.
			eol := "\n"
			if strings.Contains(string(disk), "\r\n") {
				eol = "\r\n"
			}
			want := gitAddStores(r, tc.path, strings.Replace(string(disk), "two"+eol, "TWO"+eol, 1))
			if got := strings.TrimSpace(r.git("rev-parse", "wt:"+tc.path)); got != want {
				t.Errorf("blob %s, git add of the edited file stores %s", got, want)
			}
			// A checkout of the branch is clean: nothing spurious.
			wt := filepath.Join(t.TempDir(), "wt")
			r.git("worktree", "add", "-q", wt, "wt")
			w := &repo{t: t, dir: wt}
			if st := w.git("status", "--porcelain"); st != "" {
				t.Errorf("git status in a checkout of wt:\n%s", st)
			}
			if d := w.git("diff", "HEAD"); d != "" {
				t.Errorf("git diff in a checkout of wt:\n%s", d)
			}
			r.git("worktree", "remove", wt)
			r.fsck()
			r.assertUntouched(before)
		})
	}
}

// gitAddStores returns the blob id git add stores for content at path
// of r: added from a scratch working tree to a copy of r's index, so
// that git's rules that read the index (text=auto keeps a staged CR LF)
// apply, and r's checkout stays as it is.
func gitAddStores(r *repo, path, content string) string {
	r.t.Helper()
	tmp := r.t.TempDir()
	index := filepath.Join(tmp, "index")
	data, err := os.ReadFile(filepath.Join(r.dir, ".git", "index"))
	if err == nil {
		err = os.WriteFile(index, data, 0o644)
	}
	wt := filepath.Join(tmp, "wt")
	if err == nil {
		err = os.MkdirAll(filepath.Dir(filepath.Join(wt, path)), 0o755)
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(wt, path), []byte(content), 0o644)
	}
	if err != nil {
		r.t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "--", path}, {"rev-parse", ":" + path}} {
		cmd := exec.Command("git", append([]string{"--work-tree=" + wt}, args...)...)
		cmd.Dir, cmd.Env = r.dir, append(os.Environ(), "GIT_INDEX_FILE="+index)
		out, err := cmd.Output()
		if err != nil {
			r.t.Fatalf("git %v: %v", args, err)
		}
		data = out
	}
	return strings.TrimSpace(string(data))
}

// A path whose clean filter git would run is refused, naming the path
// and the attribute, and the filter does not run; an edit of another
// path records.
func TestWorktreeBaseRefusesFilter(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.dat": "one\ntwo\n", "b.txt": "one\ntwo\n", ".gitattributes": "*.dat filter=secret\n"})
	marker := filepath.Join(t.TempDir(), "ran")
	script := filepath.Join(t.TempDir(), "clean")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch '"+marker+"'\ncat\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.git("config", "filter.secret.clean", script)
	before := r.snapshot()
	os.Remove(marker) // the snapshot ran git status
	res := r.run("apply", "--base", "worktree", "-b", "f", r.reply("r.md", "Shout.\n\n"+block("a.dat", "two\n", "TWO\n")))
	want := "a.dat has the attribute filter=secret, and filter.secret.clean configures a command that git add runs on it"
	if res.code == 0 || !strings.Contains(res.stderr, want) {
		t.Errorf("exit %d, want a refusal saying %q:\n%s", res.code, want, res.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the clean filter ran")
	}
	if b := r.branches(); b != "main" {
		t.Errorf("branches: %s", b)
	}
	if res := r.run("apply", "--base", "worktree", "-b", "g", r.reply("r.md", "Shout.\n\n"+block("b.txt", "two\n", "TWO\n"))); res.code != 0 {
		t.Errorf("another path: exit %d\n%s", res.code, res.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the clean filter ran")
	}
	cmd := exec.Command("git", "show", "g:b.txt")
	cmd.Dir = r.dir
	if out, _ := cmd.Output(); string(out) != "one\nTWO\n" {
		t.Errorf("b.txt on g: %q", out)
	}
	r.assertUntouched(before)
}
