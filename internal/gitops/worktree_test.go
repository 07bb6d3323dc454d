package gitops

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/google/go-cmp/cmp"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// gitModes runs a test with the git CLI visible to gitops, and hidden
// from it so that the fallback does the work.
var gitModes = []struct {
	name string
	git  bool
}{{"git", true}, {"nogit", false}}

func setGit(t *testing.T, on bool) {
	t.Helper()
	if on {
		return
	}
	old := lookGit
	lookGit = func(string) (string, error) { return "", exec.ErrNotFound }
	t.Cleanup(func() { lookGit = old })
}

// isolate gives the process the test environment, so that the git
// gitops runs reads no user or system configuration either.
func (tr *testRepo) isolate() {
	tr.t.Helper()
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") {
			tr.t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
	for _, kv := range tr.env {
		k, v, _ := strings.Cut(kv, "=")
		tr.t.Setenv(k, v)
	}
}

// newWorktreeFixture is newFixture (nested files, an executable, a
// symbolic link, a submodule) with a branch feat one commit ahead of
// main, and the process environment isolated. It returns the tip of
// feat.
func newWorktreeFixture(t *testing.T, git bool) (*testRepo, string) {
	t.Helper()
	tr := kept(t, "newWorktreeFixture", func(tr *testRepo) {
		f := newFixture(t)
		tr.dir, tr.home, tr.env = f.dir, f.home, f.env
		feat := tr.gitRecord(tr.git("rev-parse", "main"), []patch.FileChange{
			modify("a.txt", "feat\n", patch.ModeRegular),
			create("new/deep/n.txt", "n\n", patch.ModeRegular),
			create("new/tool", "#!/bin/sh\n", patch.ModeExec),
		}, "feat")
		tr.git("update-ref", "refs/heads/feat", feat)
		// Packed, so that a stray write of a branch shows as a loose ref.
		tr.git("pack-refs", "--all")
	})
	tr.isolate()
	setGit(t, git)
	packed, err := os.ReadFile(filepath.Join(tr.dir, ".git", "packed-refs"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(packed), "\n") {
		if id, ref, _ := strings.Cut(l, " "); ref == "refs/heads/feat" {
			return tr, id
		}
	}
	t.Fatalf("no refs/heads/feat in packed-refs:\n%s", packed)
	return nil, ""
}

// in returns tr for use by the subtest t, which shares its
// repository.
func (tr *testRepo) in(t *testing.T) *testRepo {
	c := *tr
	c.t = t
	return &c
}

// base is the directory holding the repository, where worktrees go.
func (tr *testRepo) base() string { return filepath.Dir(tr.dir) }

// gitErr runs git in dir and returns its combined output and error.
func (tr *testRepo) gitErr(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, tr.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// worktreeBlocks parses `git worktree list --porcelain`: one block of
// lines per worktree, keyed by its path.
func (tr *testRepo) worktreeBlocks() map[string][]string {
	tr.t.Helper()
	out := map[string][]string{}
	for _, block := range strings.Split(tr.git("worktree", "list", "--porcelain"), "\n\n") {
		lines := strings.Split(block, "\n")
		path, _ := strings.CutPrefix(lines[0], "worktree ")
		out[path] = lines[1:]
	}
	return out
}

// adminDirs lists <commondir>/worktrees.
func (tr *testRepo) adminDirs() []string {
	tr.t.Helper()
	ents, _ := os.ReadDir(filepath.Join(tr.dir, ".git", "worktrees"))
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	return out
}

// checkFiles requires the files under root (.git aside) to be rev's
// tree: same paths, modes, contents and link targets; a submodule is
// an empty directory.
func (tr *testRepo) checkFiles(root, rev string) {
	tr.t.Helper()
	want := map[string]string{}
	for _, line := range strings.Split(tr.git("ls-tree", "-r", rev), "\n") {
		meta, p, _ := strings.Cut(line, "\t")
		f := strings.Fields(meta)
		want[p] = f[0] + " " + f[2]
	}
	got := map[string]string{}
	err := filepath.WalkDir(root, func(full string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, full)
		rel = filepath.ToSlash(rel)
		if rel == "." || rel == ".git" {
			return nil
		}
		fi, err := os.Lstat(full)
		if err != nil {
			return err
		}
		var data []byte
		mode := "100644"
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(full)
			if err != nil {
				return err
			}
			data, mode = []byte(target), "120000"
		case fi.IsDir():
			if strings.HasPrefix(want[rel], "160000 ") {
				if ents, _ := os.ReadDir(full); len(ents) == 0 {
					got[rel] = want[rel]
				}
				return filepath.SkipDir
			}
			return nil
		default:
			if fi.Mode()&0o111 != 0 {
				mode = "100755"
			}
			if data, err = os.ReadFile(full); err != nil {
				return err
			}
		}
		got[rel] = mode + " " + oid.Sum(oid.Blob, data).String()
		return nil
	})
	if err != nil {
		tr.t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		tr.t.Errorf("files of %s differ from %s (-tree +disk):\n%s", root, rev, d)
	}
}

// checkAdded requires path to be a linked worktree with branch checked
// out at tip, as git worktree add leaves it, and removes it.
func (tr *testRepo) checkAdded(path, branch, tip string) {
	tr.t.Helper()
	blocks := tr.worktreeBlocks()
	if d := cmp.Diff([]string{"HEAD " + tip, "branch refs/heads/" + branch}, blocks[path]); d != "" {
		tr.t.Errorf("git worktree list --porcelain for %s (-want +got):\n%s\nall: %q", path, d, blocks)
	}
	if out := tr.gitAt(path, "status", "--porcelain"); out != "" {
		tr.t.Errorf("git status in the new worktree:\n%s", out)
	}
	if out, err := tr.gitErr(path, "diff-files", "--quiet"); err != nil {
		tr.t.Errorf("git diff-files (index stat data) in the new worktree: %v\n%s", err, out)
	}
	tr.checkFiles(path, tip)
	tr.fsck()
	if out, err := tr.gitErr(tr.dir, "branch", "-D", branch); err == nil {
		tr.t.Errorf("git branch -D %s succeeded although it is checked out: %s", branch, out)
	}
	tr.git("worktree", "remove", path)
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		tr.t.Errorf("after git worktree remove, %s: %v", path, err)
	}
	if _, ok := tr.worktreeBlocks()[path]; ok {
		tr.t.Errorf("git worktree remove left %s listed", path)
	}
}

func TestAddWorktree(t *testing.T) {
	for _, m := range gitModes {
		for _, rel := range []bool{false, true} {
			name := m.name + "/absolute"
			if rel {
				name = m.name + "/relative"
			}
			t.Run(name, func(t *testing.T) {
				tr, feat := newWorktreeFixture(t, m.git)
				r := tr.open(tr.dir)
				path := filepath.Join(tr.base(), "wts", "feat")
				arg := path
				if rel {
					t.Chdir(tr.base())
					arg = filepath.Join("wts", "feat")
				}
				if err := r.AddWorktree(context.Background(), arg, "feat"); err != nil {
					t.Fatalf("AddWorktree: %v", err)
				}
				gd := filepath.Join(tr.dir, ".git", "worktrees", "feat")
				for file, want := range map[string]string{
					"HEAD":      "ref: refs/heads/feat\n",
					"commondir": "../..\n",
					"gitdir":    path + "/.git\n",
				} {
					if got, _ := os.ReadFile(filepath.Join(gd, file)); string(got) != want {
						t.Errorf("%s = %q, want %q", file, got, want)
					}
				}
				if got, _ := os.ReadFile(filepath.Join(path, ".git")); string(got) != "gitdir: "+gd+"\n" {
					t.Errorf(".git = %q", got)
				}
				if _, err := os.Stat(filepath.Join(gd, "locked")); err == nil {
					t.Errorf("the worktree is left locked")
				}
				if _, err := os.Lstat(filepath.Join(tr.dir, ".git", "refs", "heads", "feat")); err == nil {
					t.Errorf("refs/heads/feat was written")
				}
				tr.checkAdded(path, "feat", feat)
			})
		}
	}
}

// TestAddWorktreeLikeGit compares a worktree the fallback made with one
// git made of the same commit: list entry, index, files.
func TestAddWorktreeLikeGit(t *testing.T) {
	tr, feat := newWorktreeFixture(t, false)
	tr.git("branch", "twin", feat)
	gitPath := filepath.Join(tr.base(), "by-git")
	tr.git("worktree", "add", "-q", gitPath, "twin")
	ourPath := filepath.Join(tr.base(), "by-us")
	if err := tr.open(tr.dir).AddWorktree(context.Background(), ourPath, "feat"); err != nil {
		t.Fatal(err)
	}
	blocks := tr.worktreeBlocks()
	want := strings.ReplaceAll(strings.Join(blocks[gitPath], "\n"), "twin", "feat")
	if got := strings.Join(blocks[ourPath], "\n"); got != want {
		t.Errorf("worktree list entry %q, git's %q", got, want)
	}
	if got, want := tr.gitAt(ourPath, "ls-files", "-s"), tr.gitAt(gitPath, "ls-files", "-s"); got != want {
		t.Errorf("index:\n%s\ngit's:\n%s", got, want)
	}
	tr.checkFiles(gitPath, feat)
	tr.checkAdded(ourPath, "feat", feat)
}

func TestAddWorktreePathTaken(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(path string) error
		wantErr bool
	}{
		{"not empty", func(p string) error { return scratch.WriteFile(filepath.Join(p, "x"), "mine\n") }, true},
		{"a file", func(p string) error { return scratch.WriteFile(p, "mine\n") }, true},
		{"dangling link", func(p string) error { return os.Symlink("nowhere", p) }, true},
		{"empty directory", func(p string) error { return os.Mkdir(p, 0o777) }, false},
	}
	for _, m := range gitModes {
		t.Run(m.name, func(t *testing.T) {
			shared, feat := newWorktreeFixture(t, m.git)
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					tr := shared.in(t)
					path := filepath.Join(tr.base(), "wt-"+strings.ReplaceAll(tc.name, " ", "-"))
					if err := tc.prepare(path); err != nil {
						t.Fatal(err)
					}
					before := tr.worktreeBlocks()
					err := tr.open(tr.dir).AddWorktree(context.Background(), path, "feat")
					if !tc.wantErr {
						if err != nil {
							t.Fatal(err)
						}
						tr.checkAdded(path, "feat", feat)
						return
					}
					if !errors.Is(err, ErrWorktreePath) {
						t.Fatalf("AddWorktree = %v, want ErrWorktreePath", err)
					}
					if d := cmp.Diff(before, tr.worktreeBlocks()); d != "" {
						t.Errorf("worktree list changed:\n%s", d)
					}
					if dirs := tr.adminDirs(); len(dirs) != 0 {
						t.Errorf("left %v in .git/worktrees", dirs)
					}
					if data, _ := os.ReadFile(filepath.Join(path, "x")); tc.name == "not empty" && string(data) != "mine\n" {
						t.Errorf("the file in the way now holds %q", data)
					}
				})
			}
		})
	}
}

// TestAddWorktreeNames checks the administrative directory names:
// base names that collide get git's number suffix, and names are
// sanitized as git does.
func TestAddWorktreeNames(t *testing.T) {
	for _, m := range gitModes {
		t.Run(m.name, func(t *testing.T) {
			tr, _ := newWorktreeFixture(t, m.git)
			r := tr.open(tr.dir)
			for i, p := range []string{"a/wt", "b/wt", "c/wt", "d/w t.lock"} {
				branch := "b" + string(rune('0'+i))
				tr.git("branch", branch, "feat")
				if err := r.AddWorktree(context.Background(), filepath.Join(tr.base(), p), branch); err != nil {
					t.Fatalf("AddWorktree(%s): %v", p, err)
				}
				if out := tr.gitAt(filepath.Join(tr.base(), p), "status", "--porcelain"); out != "" {
					t.Errorf("%s: git status:\n%s", p, out)
				}
			}
			if d := cmp.Diff([]string{"w-t", "wt", "wt1", "wt2"}, tr.adminDirs()); d != "" {
				t.Errorf(".git/worktrees (-want +got):\n%s", d)
			}
			tr.fsck()
		})
	}
}

// TestWorktreeNameLikeGit compares worktreeName with the names git
// gives.
func TestWorktreeNameLikeGit(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	tr.git("commit", "-q", "--allow-empty", "-m", "root")
	bases := []string{"plain", "wt.", "a..b", "...c", ".hidden", "x.lock.lock", ".lock", "a@{b", "q*r", "s:t?u[v", "tab\tname", "é~", "a b"}
	for i, b := range bases {
		path := filepath.Join(tr.base(), "names", string(rune('a'+i)), b)
		tr.git("worktree", "add", "-q", "--detach", "--no-checkout", path, "HEAD")
		data, err := os.ReadFile(filepath.Join(path, ".git"))
		if err != nil {
			t.Fatal(err)
		}
		want := filepath.Base(strings.TrimSpace(string(data)))
		if got := worktreeName(b); got != want {
			t.Errorf("worktreeName(%q) = %q, git says %q", b, got, want)
		}
	}
}

func TestAddWorktreeRefused(t *testing.T) {
	cases := []struct {
		name    string
		prepare func(tr *testRepo, path string) string // returns the branch
		is      error
		msg     string
	}{
		{"no such branch", func(*testRepo, string) string { return "nope" }, ErrUnknownRevision, ""},
		{"checked out", func(*testRepo, string) string { return "main" }, ErrBranchCheckedOut, ""},
		{"invalid name", func(*testRepo, string) string { return "a..b" }, ErrBadBranchName, ""},
		{"registered but missing", func(tr *testRepo, path string) string {
			tr.git("worktree", "add", "-q", "--detach", path, "main")
			if err := os.RemoveAll(path); err != nil {
				tr.t.Fatal(err)
			}
			return "feat"
		}, nil, "registered"},
		{"checkout fails midway", func(tr *testRepo, path string) string {
			blob := tr.gitEnv(tr.dir, nil, "only here\n", "hash-object", "-w", "--stdin")
			c := tr.gitRecord(tr.git("rev-parse", "main"), []patch.FileChange{create("z/lost.txt", "only here\n", patch.ModeRegular)}, "lost")
			tr.git("branch", "broken", c)
			if err := os.Remove(filepath.Join(tr.dir, ".git", "objects", blob[:2], blob[2:])); err != nil {
				tr.t.Fatal(err)
			}
			return "broken"
		}, nil, ""},
	}
	for _, m := range gitModes {
		for _, tc := range cases {
			t.Run(m.name+"/"+tc.name, func(t *testing.T) {
				tr, _ := newWorktreeFixture(t, m.git)
				path := filepath.Join(tr.base(), "wt")
				branch := tc.prepare(tr, path)
				before, dirsBefore := tr.worktreeBlocks(), tr.adminDirs()
				err := tr.open(tr.dir).AddWorktree(context.Background(), path, branch)
				if err == nil {
					t.Fatal("AddWorktree succeeded")
				}
				if tc.is != nil && !errors.Is(err, tc.is) {
					t.Errorf("AddWorktree = %v, want %v", err, tc.is)
				}
				if !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("AddWorktree = %v, want a message with %q", err, tc.msg)
				}
				if d := cmp.Diff(before, tr.worktreeBlocks()); d != "" {
					t.Errorf("worktree list changed:\n%s", d)
				}
				if d := cmp.Diff(dirsBefore, tr.adminDirs()); d != "" {
					t.Errorf(".git/worktrees changed:\n%s", d)
				}
				if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s left behind: %v", path, err)
				}
			})
		}
	}
}

func TestWorktreeClean(t *testing.T) {
	cases := []struct {
		name   string
		change func(tr *testRepo, wt string)
		clean  bool
	}{
		{"clean", func(*testRepo, string) {}, true},
		{"untracked only", func(tr *testRepo, wt string) { mustWrite(tr.t, filepath.Join(wt, "new.txt"), "x\n") }, true},
		{"touched only", func(tr *testRepo, wt string) { touch(tr.t, filepath.Join(wt, "a.txt")) }, true},
		{"modified", func(tr *testRepo, wt string) { mustWrite(tr.t, filepath.Join(wt, "dir/sub/c.txt"), "changed\n") }, false},
		{"deleted", func(tr *testRepo, wt string) { os.Remove(filepath.Join(wt, "ab.txt")) }, false},
		{"mode", func(tr *testRepo, wt string) { os.Chmod(filepath.Join(wt, "a.txt"), 0o755) }, false},
		{"link retargeted", func(tr *testRepo, wt string) {
			os.Remove(filepath.Join(wt, "link"))
			os.Symlink("ab.txt", filepath.Join(wt, "link"))
		}, false},
		{"staged", func(tr *testRepo, wt string) {
			mustWrite(tr.t, filepath.Join(wt, "a.txt"), "staged\n")
			tr.gitAt(wt, "add", "a.txt")
		}, false},
		{"staged and reverted on disk", func(tr *testRepo, wt string) {
			mustWrite(tr.t, filepath.Join(wt, "a.txt"), "staged\n")
			tr.gitAt(wt, "add", "a.txt")
			mustWrite(tr.t, filepath.Join(wt, "a.txt"), "feat\n")
		}, false},
		{"new file staged", func(tr *testRepo, wt string) {
			mustWrite(tr.t, filepath.Join(wt, "new.txt"), "x\n")
			tr.gitAt(wt, "add", "new.txt")
		}, false},
	}
	for _, m := range gitModes {
		t.Run(m.name, func(t *testing.T) {
			shared, _ := newWorktreeFixture(t, m.git)
			wt := filepath.Join(shared.base(), "wt")
			shared.git("worktree", "add", "-q", wt, "feat")
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					tr := shared.in(t)
					defer func() {
						tr.gitAt(wt, "reset", "-q", "--hard")
						tr.gitAt(wt, "clean", "-q", "-f", "-d")
					}()
					if out := tr.gitAt(wt, "status", "--porcelain"); out != "" {
						t.Fatalf("the previous case left:\n%s", out)
					}
					tc.change(tr, wt)
					r := tr.open(tr.dir)
					if at, ok := r.CheckedOutAt("feat"); !ok || at != wt {
						t.Fatalf("CheckedOutAt = %q, %v", at, ok)
					}
					clean, err := r.WorktreeClean(context.Background(), wt)
					if err != nil {
						t.Fatal(err)
					}
					if clean != tc.clean {
						t.Errorf("WorktreeClean = %v, want %v; git status:\n%s", clean, tc.clean, tr.gitAt(wt, "status", "--porcelain"))
					}
				})
			}
		})
	}
}

// touch changes a file's stat data, not its content.
func touch(t *testing.T, path string) {
	t.Helper()
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := scratch.WriteFile(path, content); err != nil {
		t.Fatal(err)
	}
}

// snapshot records every file under root (.git aside): content, link
// target, mode.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(full string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, full)
		if rel == ".git" {
			return nil
		}
		fi, err := os.Lstat(full)
		if err != nil {
			return err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(full)
			out[rel] = "-> " + target
			return err
		}
		data, err := os.ReadFile(full)
		out[rel] = fi.Mode().String() + " " + string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestUpdateWorktree(t *testing.T) {
	// What the new commit does: change, add (also in a new directory,
	// also executable), delete (emptying a directory), change a mode,
	// retarget a link.
	changes := []patch.FileChange{
		modify("a.txt", "to\n", patch.ModeRegular),
		create("added.txt", "added\n", patch.ModeRegular),
		create("fresh/dir/f.sh", "#!/bin/sh\n", patch.ModeExec),
		remove("dir/b.txt", patch.ModeRegular),
		remove("other/deep/y.txt", patch.ModeRegular),
		{OldPath: "run.sh", NewPath: "run.sh", OldMode: patch.ModeExec, NewMode: patch.ModeRegular, New: []byte("#!/bin/sh\necho hi\n")},
		{OldPath: "link", NewPath: "link", OldMode: patch.ModeSymlink, NewMode: patch.ModeSymlink, New: []byte("ab.txt")},
	}
	cases := []struct {
		name  string
		local func(tr *testRepo, wt string)
		ok    bool
		// kept are local changes that must survive an update.
		kept map[string]string
		// named are the files a refusal names.
		named []string
	}{
		{"clean", func(*testRepo, string) {}, true, nil, nil},
		{"unrelated changes", func(tr *testRepo, wt string) {
			mustWrite(tr.t, filepath.Join(wt, "other/x.txt"), "local\n")
			mustWrite(tr.t, filepath.Join(wt, "ab.txt"), "staged\n")
			tr.gitAt(wt, "add", "ab.txt")
			mustWrite(tr.t, filepath.Join(wt, "untracked.txt"), "u\n")
		}, true, map[string]string{"other/x.txt": "local\n", "ab.txt": "staged\n", "untracked.txt": "u\n"}, nil},
		{"changed file touched", func(tr *testRepo, wt string) { touch(tr.t, filepath.Join(wt, "a.txt")) }, true, nil, nil},
		{"changed file modified", func(tr *testRepo, wt string) {
			mustWrite(tr.t, filepath.Join(wt, "a.txt"), "local\n")
		}, false, nil, []string{"a.txt"}},
		{"changed file staged", func(tr *testRepo, wt string) {
			mustWrite(tr.t, filepath.Join(wt, "a.txt"), "local\n")
			tr.gitAt(wt, "add", "a.txt")
		}, false, nil, []string{"a.txt"}},
		{"deleted file modified", func(tr *testRepo, wt string) {
			mustWrite(tr.t, filepath.Join(wt, "dir/b.txt"), "local\n")
		}, false, nil, []string{"dir/b.txt"}},
		{"untracked file in the way", func(tr *testRepo, wt string) {
			mustWrite(tr.t, filepath.Join(wt, "fresh/dir/f.sh"), "mine\n")
		}, false, nil, []string{"fresh/dir/f.sh"}},
		{"several files", func(tr *testRepo, wt string) {
			mustWrite(tr.t, filepath.Join(wt, "a.txt"), "local\n")
			mustWrite(tr.t, filepath.Join(wt, "added.txt"), "mine\n")
			mustWrite(tr.t, filepath.Join(wt, "other/x.txt"), "unrelated\n")
		}, false, nil, []string{"a.txt", "added.txt"}},
	}
	for _, m := range gitModes {
		for _, tc := range cases {
			t.Run(m.name+"/"+tc.name, func(t *testing.T) {
				tr, from := newWorktreeFixture(t, m.git)
				wt := filepath.Join(tr.base(), "wt")
				tr.git("worktree", "add", "-q", wt, "feat")
				to := tr.gitRecord(from, changes, "to")
				tc.local(tr, wt)
				r := tr.open(tr.dir)
				files, index := snapshot(t, wt), tr.gitAt(wt, "ls-files", "-s")
				tr.git("update-ref", "refs/heads/feat", to, from)
				err := r.UpdateWorktree(context.Background(), wt, from, to)
				if !tc.ok {
					if err == nil {
						t.Fatal("UpdateWorktree succeeded over a local change")
					}
					t.Logf("error: %v", err)
					var lc *LocalChangesError
					if !errors.As(err, &lc) {
						t.Fatalf("error %v is no LocalChangesError", err)
					}
					if !slices.Equal(lc.Paths, tc.named) {
						t.Errorf("refusal names %q, want %q", lc.Paths, tc.named)
					}
					if d := cmp.Diff(files, snapshot(t, wt)); d != "" {
						t.Errorf("files changed:\n%s", d)
					}
					if got := tr.gitAt(wt, "ls-files", "-s"); got != index {
						t.Errorf("index changed:\n%s\nwas:\n%s", got, index)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				for p, content := range tc.kept {
					if data, _ := os.ReadFile(filepath.Join(wt, p)); string(data) != content {
						t.Errorf("%s = %q, want the local %q", p, data, content)
					}
				}
				if tc.kept != nil {
					// The commit's own paths moved all the same.
					for p, want := range map[string]string{"a.txt": "to\n", "added.txt": "added\n", "fresh/dir/f.sh": "#!/bin/sh\n"} {
						if data, _ := os.ReadFile(filepath.Join(wt, p)); string(data) != want {
							t.Errorf("%s = %q, want %q", p, data, want)
						}
					}
					if _, err := os.Lstat(filepath.Join(wt, "dir/b.txt")); err == nil {
						t.Errorf("dir/b.txt is left")
					}
					return
				}
				tr.checkFiles(wt, to)
				if out := tr.gitAt(wt, "status", "--porcelain"); out != "" {
					t.Errorf("git status after the update:\n%s", out)
				}
				if out, err := tr.gitErr(wt, "diff-files", "--quiet"); err != nil {
					t.Errorf("git diff-files (index stat data): %v\n%s", err, out)
				}
				if _, err := os.Stat(filepath.Join(wt, "other", "deep")); err == nil {
					t.Errorf("the emptied directory other/deep is left")
				}
				tr.fsck()
			})
		}
	}
}

func TestUpdateWorktreeRefused(t *testing.T) {
	for _, m := range gitModes {
		t.Run(m.name, func(t *testing.T) {
			tr, from := newWorktreeFixture(t, m.git)
			wt := filepath.Join(tr.base(), "wt")
			tr.git("worktree", "add", "-q", wt, "feat")
			to := tr.gitRecord(from, []patch.FileChange{modify("a.txt", "to\n", patch.ModeRegular)}, "to")
			r := tr.open(tr.dir)
			// The branch has not moved: HEAD there is not to.
			if err := r.UpdateWorktree(context.Background(), wt, from, to); err == nil || !strings.Contains(err.Error(), "HEAD") {
				t.Errorf("UpdateWorktree before the branch moved = %v", err)
			}
			if err := r.UpdateWorktree(context.Background(), wt, from[:12], to); err == nil {
				t.Errorf("UpdateWorktree with a short id succeeded")
			}
			other := newTestRepo(t)
			other.git("commit", "-q", "--allow-empty", "-m", "x")
			if _, err := r.WorktreeClean(context.Background(), other.dir); err == nil {
				t.Errorf("WorktreeClean of another repository succeeded")
			}
			if _, err := r.WorktreeClean(context.Background(), filepath.Join(wt, "dir")); err == nil {
				t.Errorf("WorktreeClean of a subdirectory succeeded")
			}
		})
	}
}

// TestWorktreeFromLinked opens the repository from a subdirectory of a
// linked worktree, as when git llm-apply runs there.
func TestWorktreeFromLinked(t *testing.T) {
	for _, m := range gitModes {
		t.Run(m.name, func(t *testing.T) {
			tr, feat := newWorktreeFixture(t, m.git)
			linked := filepath.Join(tr.base(), "linked")
			tr.git("worktree", "add", "-q", "-b", "side", linked, "main")
			t.Chdir(filepath.Join(linked, "dir"))
			r := tr.open(".")
			if r.Root() != linked {
				t.Fatalf("Root = %s, want %s", r.Root(), linked)
			}
			path := filepath.Join(tr.base(), "wt")
			if err := r.AddWorktree(context.Background(), "../../wt", "feat"); err != nil {
				t.Fatal(err)
			}
			if clean, err := r.WorktreeClean(context.Background(), path); err != nil || !clean {
				t.Fatalf("WorktreeClean = %v, %v", clean, err)
			}
			to := tr.gitRecord(feat, []patch.FileChange{create("dir/later.txt", "later\n", patch.ModeRegular)}, "later")
			tr.git("update-ref", "refs/heads/feat", to, feat)
			if err := r.UpdateWorktree(context.Background(), path, feat, to); err != nil {
				t.Fatal(err)
			}
			tr.checkFiles(path, to)
			if out := tr.gitAt(linked, "status", "--porcelain"); out != "" {
				t.Errorf("the current worktree changed:\n%s", out)
			}
			if got := slices.Sorted(maps.Keys(tr.worktreeBlocks())); !slices.Equal(got, slices.Sorted(slices.Values([]string{tr.dir, linked, path}))) {
				t.Errorf("worktrees %v", got)
			}
			tr.checkAdded(path, "feat", to)
		})
	}
}

// TestWorktreeHookEnv runs with the variables git sets for a hook of
// the main worktree (as `git llm-apply hook run` gets them): the git
// that gitops runs must still work on the other worktree.
func TestWorktreeHookEnv(t *testing.T) {
	tr, feat := newWorktreeFixture(t, true)
	t.Setenv("GIT_DIR", filepath.Join(tr.dir, ".git"))
	t.Setenv("GIT_WORK_TREE", tr.dir)
	t.Setenv("GIT_INDEX_FILE", filepath.Join(tr.dir, ".git", "index"))
	r := tr.open(tr.dir)
	path := filepath.Join(tr.base(), "wt")
	if err := r.AddWorktree(context.Background(), path, "feat"); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(tr.dir, "a.txt"), "dirty main\n")
	if clean, err := r.WorktreeClean(context.Background(), path); err != nil || !clean {
		t.Fatalf("WorktreeClean = %v, %v", clean, err)
	}
	to := tr.gitRecord(feat, []patch.FileChange{modify("a.txt", "to\n", patch.ModeRegular)}, "to")
	tr.git("update-ref", "refs/heads/feat", to, feat)
	if err := r.UpdateWorktree(context.Background(), path, feat, to); err != nil {
		t.Fatal(err)
	}
	if got := tr.git("status", "--porcelain"); got != " M a.txt" {
		t.Errorf("main worktree status %q", got)
	}
	tr.checkAdded(path, "feat", to)
}

// Without git, the worktree is checked out here, which must not be the
// judge of the repository's format either: extensions git knows (here
// worktreeConfig, which git sparse-checkout turns on, and
// preciousObjects) and configuration go-git's parser refuses.
func TestAddWorktreeNoGitOddConfig(t *testing.T) {
	tr, feat := newWorktreeFixture(t, false)
	tr.git("config", "extensions.worktreeConfig", "true")
	tr.git("config", "extensions.preciousObjects", "true")
	tr.git("config", "--add", "remote.o.fetch", "^refs/heads/skip")
	path := filepath.Join(tr.base(), "wt")
	if err := tr.open(tr.dir).AddWorktree(context.Background(), path, "feat"); err != nil {
		t.Fatal(err)
	}
	tr.checkAdded(path, "feat", feat)
}
