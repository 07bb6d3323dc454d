package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repositories in the states git allows (issue: reliability): each
// works, or is refused saying what is not supported.

// git sparse-checkout set turns on extensions.worktreeConfig, which
// go-git refuses; apply must still work, from the sparse checkout.
func TestSparseCheckoutRepository(t *testing.T) {
	t.Parallel()
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

// A sparse index (directory entries) is read in-process, its
// directories expanded to the files of their trees.
func TestSparseIndexRepository(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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
		{name: "SHA-256 repository", want: "SHA-256 repositories are not supported yet", setup: func(t *testing.T, r *repo) (string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			c.git("init", "-q", "-b", "main", "--object-format=sha256")
			c.write("src/app.py", appPy)
			c.git("add", "-A")
			c.git("commit", "-q", "-m", "initial")
			return c.dir, nil
		}},
		{name: "partial clone, blob missing (not fetched: the error says how)", want: "cat-file -p", setup: func(t *testing.T, r *repo) (string, []string) {
			return partialClone(t, r).dir, nil
		}},
		{name: "partial clone marked by extensions.partialClone", want: "missing from this partial clone", setup: func(t *testing.T, r *repo) (string, []string) {
			c := partialClone(t, r)
			c.git("config", "--unset", "remote.origin.promisor")
			c.git("config", "extensions.partialClone", "origin")
			return c.dir, nil
		}},
		{name: "partial clone, promisor remote gone", want: "missing from this partial clone", setup: func(t *testing.T, r *repo) (string, []string) {
			c := partialClone(t, r)
			c.git("config", "remote.origin.url", "file://"+filepath.Join(t.TempDir(), "gone"))
			return c.dir, nil
		}},
		{name: "extensions.preciousObjects", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("config", "extensions.preciousObjects", "true")
			return r.dir, nil
		}},
		{name: "format version 1 with extensions.noop", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("config", "core.repositoryformatversion", "1")
			r.git("config", "extensions.noop", "true")
			return r.dir, nil
		}},
		{name: "unknown extension, format version 0 (git ignores it)", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("config", "extensions.frobnicate", "true")
			return r.dir, nil
		}},
		{name: "unknown extension, format version 1", want: "extensions.frobnicate = true, which git-llm-apply does not know", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("config", "core.repositoryformatversion", "1")
			r.git("config", "extensions.frobnicate", "true")
			return r.dir, nil
		}},
		{name: "version-1 extension in format version 0", want: "needs core.repositoryformatversion = 1", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("config", "extensions.objectFormat", "sha1")
			return r.dir, nil
		}},
		{name: "format version 2", want: "core.repositoryformatversion = 2", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("config", "core.repositoryformatversion", "2")
			return r.dir, nil
		}},
		{name: "configuration go-git's parser refuses", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("config", "branch.main.merge", "main")
			r.git("config", "remote.o.url", "/nowhere")
			r.git("config", "--add", "remote.o.fetch", "^refs/heads/skip")
			return r.dir, nil
		}},
		{name: "core.bare = true with a .git directory", setup: func(t *testing.T, r *repo) (string, []string) {
			r.git("config", "core.bare", "true")
			return r.dir, nil
		}},
		{name: "bare repository with core.bare = false", setup: func(t *testing.T, r *repo) (string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			c.git("clone", "-q", "--bare", r.dir, ".")
			c.git("config", "core.bare", "false")
			return c.dir, []string{"--base", "main"}
		}},
		{name: "linked worktree of a bare repository", setup: func(t *testing.T, r *repo) (string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			c.git("clone", "-q", "--bare", r.dir, ".")
			wt := filepath.Join(t.TempDir(), "wt")
			c.git("worktree", "add", "-q", wt, "main")
			return wt, nil
		}},
		{name: "separate git dir (.git file)", setup: func(t *testing.T, r *repo) (string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			c.git("clone", "-q", "--separate-git-dir", filepath.Join(t.TempDir(), "gitdir"), r.dir, ".")
			return filepath.Join(c.dir, "src"), nil
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

// partialClone clones r without blobs, with only the top-level files
// checked out (git clone --sparse), so that the blob of src/app.py is
// left out of the clone.
func partialClone(t *testing.T, r *repo) *repo {
	t.Helper()
	r.git("config", "uploadpack.allowFilter", "true")
	c := &repo{t: t, dir: t.TempDir()}
	c.git("clone", "-q", "--filter=blob:none", "--sparse", "file://"+r.dir, ".")
	id := strings.TrimSpace(c.git("rev-parse", "HEAD:src/app.py"))
	if !strings.Contains(c.git("rev-list", "--objects", "--missing=print", "HEAD"), "?"+id) {
		t.Fatalf("the partial clone has the blob of src/app.py")
	}
	return c
}

// A linked worktree with its own configuration (extensions.worktreeConfig,
// git config --worktree) and its own sparse checkout, as the current
// directory: the branch starts at that worktree's HEAD, its
// config.worktree is read, and neither checkout changes.
func TestOddLinkedWorktreeWithWorktreeConfig(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy, "docs/a.md": "a\n"})
	w := &repo{t: t, dir: filepath.Join(t.TempDir(), "linked")}
	r.git("worktree", "add", "-q", "-b", "feature", w.dir)
	w.write("docs/b.md", "b\n")
	w.git("add", "docs/b.md")
	w.git("commit", "-q", "-m", "feature")
	w.git("sparse-checkout", "set", "src")
	if v := strings.TrimSpace(r.git("config", "extensions.worktreeConfig")); v != "true" {
		t.Fatalf("extensions.worktreeConfig = %q; the test needs it on", v)
	}
	w.git("config", "--worktree", "user.name", "Per Worktree")
	w.git("config", "--worktree", "user.email", "wt@example.com")
	if _, err := os.Stat(filepath.Join(w.dir, "docs")); err == nil {
		t.Fatal("docs/ is checked out: the sparse checkout did not take")
	}
	mainBefore, wtBefore := r.snapshot(), w.snapshot()

	reply := r.reply("r.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	cmd := exec.Command(binary(), "apply", "-b", "odd", reply)
	cmd.Dir = filepath.Join(w.dir, "src")
	for _, kv := range os.Environ() {
		// The author then comes from configuration: the worktree's own.
		if !strings.HasPrefix(kv, "GIT_AUTHOR_NAME=") && !strings.HasPrefix(kv, "GIT_AUTHOR_EMAIL=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	if res := w.collect(cmd); res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if got := strings.Join(w.tree("odd"), " "); got != "100644 docs/a.md 100644 docs/b.md 100644 src/app.py" {
		t.Errorf("tree: %s", got)
	}
	if s := w.show("odd", "src/app.py"); !strings.Contains(s, "import sys") {
		t.Errorf("app.py on odd:\n%s", s)
	}
	if p := strings.TrimSpace(w.git("rev-parse", "odd^")); p != strings.TrimSpace(w.git("rev-parse", "feature")) {
		t.Errorf("odd^ = %s, want the worktree's HEAD (feature)", p)
	}
	if a := strings.TrimSpace(w.git("log", "-1", "--format=%an <%ae>", "odd")); a != "Per Worktree <wt@example.com>" {
		t.Errorf("author %q, want the one config.worktree names", a)
	}
	w.fsck()
	r.assertUntouched(mainBefore)
	w.assertUntouched(wtBefore)
}

// GIT_DIR and GIT_WORK_TREE point at the repository from elsewhere, as
// they do for git: a separate git dir, and a git dir whose working tree
// is named by core.worktree (the "dotfiles" layout).
func TestOddGitDirEnvironment(t *testing.T) {
	t.Parallel()
	reply := "Import sys.\n\n" + block("src/app.py", "import os\n", "import os\nimport sys\n")
	for _, c := range []struct {
		name  string
		setup func(t *testing.T, r *repo) (gitDir, workTree string, env []string)
	}{
		{"separate git dir, GIT_DIR and GIT_WORK_TREE", func(t *testing.T, r *repo) (string, string, []string) {
			c := &repo{t: t, dir: t.TempDir()}
			gd := filepath.Join(t.TempDir(), "gitdir")
			c.git("clone", "-q", "--separate-git-dir", gd, r.dir, ".")
			return gd, c.dir, []string{"GIT_DIR=" + gd, "GIT_WORK_TREE=" + c.dir}
		}},
		{"core.worktree, GIT_DIR alone", func(t *testing.T, r *repo) (string, string, []string) {
			gd := filepath.Join(t.TempDir(), "dotfiles.git")
			wt := t.TempDir()
			b := &repo{t: t, dir: t.TempDir()}
			b.git("clone", "-q", "--bare", r.dir, gd)
			b.git("--git-dir="+gd, "config", "core.bare", "false")
			b.git("--git-dir="+gd, "config", "core.worktree", wt)
			b.git("--git-dir="+gd, "--work-tree="+wt, "checkout", "-q", "main", "--", ".")
			return gd, wt, []string{"GIT_DIR=" + gd}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"src/app.py": appPy})
			gd, wt, env := c.setup(t, r)
			g := &repo{t: t, dir: t.TempDir()} // runs git from outside, naming the repository
			at := func(args ...string) string {
				return g.git(append([]string{"--git-dir=" + gd, "--work-tree=" + wt}, args...)...)
			}
			head, index, status := at("rev-parse", "HEAD"), at("ls-files", "-s", "--debug"), at("status", "--porcelain")
			cmd := exec.Command(binary(), "apply", "-b", "odd", r.reply("r.md", reply))
			cmd.Dir = g.dir
			cmd.Env = append(os.Environ(), env...)
			if res := g.collect(cmd); res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			if s := at("show", "odd:src/app.py"); !strings.Contains(s, "import sys") {
				t.Errorf("app.py on odd:\n%s", s)
			}
			at("fsck", "--strict", "--no-dangling")
			if at("rev-parse", "HEAD") != head || at("ls-files", "-s", "--debug") != index || at("status", "--porcelain") != status {
				t.Error("the checkout changed")
			}
		})
	}
}
