package main

import (
	"strings"
	"testing"
)

// Repositories in the states git allows (issue: reliability): each
// works, or is refused saying what is not supported.

// git sparse-checkout set turns on extensions.worktreeConfig, which
// go-git refuses; apply must still work, from the sparse checkout.
func TestSparseCheckoutRepository(t *testing.T) {
	r := newRepo(t, map[string]string{"src/app.py": appPy, "docs/a.md": "a\n"})
	r.git("sparse-checkout", "set", "src")
	if v := strings.TrimSpace(r.git("config", "extensions.worktreeConfig")); v != "true" {
		t.Fatalf("extensions.worktreeConfig = %q; the test needs it on", v)
	}
	r.git("config", "--worktree", "user.name", "Per Worktree")
	before := r.snapshot()
	reply := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	res := r.run("apply", "-b", "sparse", reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if got := strings.Join(r.tree("sparse"), " "); got != "100644 docs/a.md 100644 src/app.py" {
		t.Errorf("tree: %s", got)
	}
	r.fsck()
	r.assertUntouched(before)
}

// A sparse index (directory entries) is read through git ls-files.
func TestSparseIndexRepository(t *testing.T) {
	r := newRepo(t, map[string]string{"src/app.py": appPy, "docs/a.md": "a\n", "docs/b.md": "b\n"})
	r.git("sparse-checkout", "init", "--cone", "--sparse-index")
	r.git("sparse-checkout", "set", "src")
	if !strings.Contains(r.git("ls-files", "--sparse"), "docs/") {
		t.Skip("git did not write a sparse index here")
	}
	before := r.snapshot()
	reply := r.reply("r1.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	if res := r.run("apply", "-b", "sparse", reply); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	// A file outside the cone is in the index (as a directory entry)
	// and in HEAD: an edit to it resolves against its staged content.
	other := r.reply("r2.md", "Edit docs.\n\n"+block("docs/a.md", "a\n", "A\n"))
	if res := r.run("apply", "-b", "sparse-docs", other); res.code != 0 {
		t.Fatalf("outside the cone: exit %d\n%s", res.code, res.stderr)
	}
	if s := r.show("sparse-docs", "docs/a.md"); s != "A\n" {
		t.Errorf("docs/a.md: %q", s)
	}
	r.fsck()
	r.assertUntouched(before)
}

// oddRepo makes a repository in one of the states git allows and
// returns where to run and the arguments apply needs there.
type oddRepo struct {
	name  string
	setup func(t *testing.T, r *repo) (dir string, args []string)
	// want is "" when apply must work, else a word its error must hold.
	want string
}

func TestOddRepositories(t *testing.T) {
	reply := "Import sys.\n\n" + block("src/app.py", "import os\n", "import os\nimport sys\n")
	cases := []oddRepo{
		{name: "packed refs only", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("pack-refs", "--all")
			return r.dir, nil
		}},
		{name: "branch name that is also a tag", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("tag", "odd")
			return r.dir, nil
		}},
		{name: "detached HEAD", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("checkout", "-q", "--detach")
			return r.dir, nil
		}},
		{name: "split index", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("update-index", "--split-index")
			return r.dir, nil
		}},
		{name: "index version 4", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("update-index", "--index-version", "4")
			return r.dir, nil
		}},
		{name: "core.autocrlf", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("config", "core.autocrlf", "true")
			return r.dir, nil
		}},
		{name: "shared clone (alternates)", setup: func(t *testing.T, r *repo) (string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			c.git("clone", "-q", "--shared", r.dir, ".")
			return c.dir, nil
		}},
		{name: "shallow clone", setup: func(t *testing.T, r *repo) (string, []string) {
			r.write("more.txt", "more\n")
			r.git("add", "more.txt")
			r.git("commit", "-q", "-m", "second")
			c := &repo{t: t, dir: t.TempDir()}
			c.git("clone", "-q", "--depth", "1", "file://"+r.dir, ".")
			return c.dir, nil
		}},
		{name: "bare repository with --base", setup: func(t *testing.T, r *repo) (string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			c.git("clone", "-q", "--bare", r.dir, ".")
			return c.dir, []string{"--base", "main"}
		}},
		{name: "bare repository, index base", want: "it has no index", setup: func(t *testing.T, r *repo) (string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			c.git("clone", "-q", "--bare", r.dir, ".")
			return c.dir, nil
		}},
		{name: "bare repository, worktree base", want: "needs a working tree", setup: func(t *testing.T, r *repo) (string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			c.git("clone", "-q", "--bare", r.dir, ".")
			return c.dir, []string{"--base", "worktree"}
		}},
		{name: "unborn branch (no commit yet), file staged", setup: func(t *testing.T, r *repo) (string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			c.git("init", "-q", "-b", "main")
			c.write("src/app.py", appPy)
			c.git("add", "src/app.py")
			return c.dir, nil
		}},
		{name: "conflicted index", want: "unmerged", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("checkout", "-q", "-b", "other")
			r.write("src/app.py", strings.Replace(appPy, "import os", "import os as o", 1))
			r.git("commit", "-q", "-am", "other")
			r.git("checkout", "-q", "main")
			r.write("src/app.py", strings.Replace(appPy, "import os", "import os as p", 1))
			r.git("commit", "-q", "-am", "main")
			r.gitMayFail("merge", "-q", "other")
			return r.dir, nil
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"src/app.py": appPy})
			dir, args := c.setup(t, r)
			res := r.runIn(dir, "", append(append([]string{"apply", "-b", "odd"}, args...), r.reply("r.md", reply))...)
			if c.want != "" {
				if res.code == 0 || !strings.Contains(res.stderr, c.want) {
					t.Errorf("exit %d, want a refusal saying %q:\n%s", res.code, c.want, res.stderr)
				}
				if strings.Contains(res.stderr, "gitops: ") || strings.Contains(res.stderr, "engine: ") {
					t.Errorf("the error shows an inner package prefix:\n%s", res.stderr)
				}
				return
			}
			if res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			w := &repo{t: t, dir: dir}
			if s := w.show("refs/heads/odd", "src/app.py"); !strings.Contains(s, "import sys") {
				t.Errorf("app.py on odd:\n%s", s)
			}
			w.git("fsck", "--strict", "--no-dangling")
		})
	}
}
