package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Repository code (SPEC section 5): check, translate and apply run no
// code the repository configures, and no git at all, whatever state
// the repository is in.

// tripwires arms r with code that leaves a line in the returned marker
// file when it runs: core.fsmonitor (which every git command that
// reads a split or sparse index runs), the hooks git could reach, a
// clean filter on *.md, a pager, and a git first on the PATH that the
// returned environment sets.
func tripwires(t *testing.T, r *repo) (marker string, env []string) {
	t.Helper()
	dir := t.TempDir()
	marker = filepath.Join(dir, "ran")
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\necho "+name+" \"$@\" >>'"+marker+"'\n"+body), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	r.git("config", "core.fsmonitor", script("fsmonitor", ""))
	hooks := filepath.Join(dir, "hooks")
	if err := os.Mkdir(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"pre-commit", "post-commit", "reference-transaction", "post-checkout", "post-index-change", "pre-auto-gc"} {
		if err := os.Rename(script(h, ""), filepath.Join(hooks, h)); err != nil {
			t.Fatal(err)
		}
	}
	r.git("config", "core.hooksPath", hooks)
	r.git("config", "filter.trip.clean", script("clean", "cat\n"))
	r.git("config", "filter.trip.smudge", "cat")
	r.git("config", "core.pager", script("pager", "cat\n"))
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(script("git", "exec '"+git+"' \"$@\"\n"), filepath.Join(bin, "git")); err != nil {
		t.Fatal(err)
	}
	return marker, append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

func TestNoRepositoryCodeRuns(t *testing.T) {
	t.Parallel()
	setups := map[string]func(r *repo){
		"split index": func(r *repo) { r.git("update-index", "--split-index") },
		"sparse index": func(r *repo) {
			r.git("sparse-checkout", "init", "--cone", "--sparse-index")
			r.git("sparse-checkout", "set", "src")
			if !strings.Contains(r.git("ls-files", "--sparse"), "docs/") {
				t.Skip("git did not write a sparse index here")
			}
		},
	}
	for name, setup := range setups {
		t.Run(name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"src/app.py": appPy, "docs/a.md": "a\n", ".gitattributes": "*.md filter=trip\n"})
			setup(r)
			before := r.snapshot()
			marker, env := tripwires(t, r)
			reply := r.reply("r.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
			docs := r.reply("d.md", "Shout.\n\n"+block("docs/a.md", "a\n", "A\n"))
			for _, args := range [][]string{
				{"check", reply},
				{"check", "--base", "HEAD", reply},
				{"check", "--base", "worktree", reply},
				{"translate", reply},
				{"translate", "-o", filepath.Join(t.TempDir(), "p"), reply},
				{"apply", "-b", "one", reply},
				{"apply", "-b", "two", "-o", filepath.Join(t.TempDir(), "p"), reply, docs},
				{"apply", "-b", "one", docs}, // appending: resolved against the branch
			} {
				cmd := exec.Command(binary(), args...)
				cmd.Dir, cmd.Env = r.dir, env
				res := r.collect(cmd)
				if res.code != 0 {
					t.Errorf("%s: exit %d\n%s", strings.Join(args, " "), res.code, res.stderr)
				}
				if ran, err := os.ReadFile(marker); err == nil {
					t.Errorf("%s ran repository code or git:\n%s", args[0], ran)
					os.Remove(marker)
				}
			}
			if s := r.show("two", "docs/a.md"); s != "A\n" {
				t.Errorf("docs/a.md on two: %q", s)
			}
			// git runs it, and flags entries it vouches for
			r.git("config", "--unset", "core.fsmonitor")
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// A blob a partial clone left out is not fetched (a fetch runs the
// transport the repository configures: here the remote's upload-pack);
// the error gives the command that fetches it, after which apply works.
func TestPartialCloneNotFetched(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	c := partialClone(t, r)
	marker := filepath.Join(t.TempDir(), "fetched")
	script := filepath.Join(t.TempDir(), "upload-pack")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch '"+marker+"'\nexec git-upload-pack \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.git("config", "remote.origin.uploadpack", script)
	reply := c.reply("r.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	res := c.run("apply", "-b", "odd", reply)
	if res.code != exitUsage {
		t.Errorf("exit %d, want %d", res.code, exitUsage)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("apply fetched the missing blob, running the remote's upload-pack")
	}
	if b := c.branches(); b != "main" {
		t.Errorf("branches: %s", b)
	}
	fetch := regexp.MustCompile(`git -C '?([^' ]+)'? cat-file -p ([0-9a-f]{40}) >/dev/null`).FindStringSubmatch(res.stderr)
	if fetch == nil {
		t.Fatalf("the error gives no command to fetch the blob:\n%s", res.stderr)
	}
	c.git("-C", fetch[1], "cat-file", "-p", fetch[2])
	if res := c.run("apply", "-b", "odd", reply); res.code != 0 {
		t.Fatalf("after the fetch: exit %d\n%s", res.code, res.stderr)
	}
	if s := c.show("odd", "src/app.py"); !strings.Contains(s, "import sys") {
		t.Errorf("app.py on odd:\n%s", s)
	}
	c.fsck()
}
