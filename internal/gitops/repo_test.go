package gitops

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenFromSubdirectory(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	for _, dir := range []string{tr.dir, filepath.Join(tr.dir, "dir"), filepath.Join(tr.dir, "dir", "sub")} {
		r := tr.open(dir)
		if r.Root() != tr.dir {
			t.Errorf("Open(%s).Root() = %s, want %s", dir, r.Root(), tr.dir)
		}
		gd := filepath.Join(tr.dir, ".git")
		if r.GitDir() != gd || r.CommonDir() != gd {
			t.Errorf("Open(%s): GitDir %s, CommonDir %s, want %s", dir, r.GitDir(), r.CommonDir(), gd)
		}
	}
}

func TestOpenLinkedWorktree(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	wt := filepath.Join(filepath.Dir(tr.dir), "linked")
	tr.git("worktree", "add", "-q", "-b", "wt", wt)
	tr.gitAt(wt, "commit", "-q", "--allow-empty", "-m", "in the worktree")

	r := tr.open(filepath.Join(wt, "dir", "sub"))
	if r.Root() != wt {
		t.Errorf("Root() = %s, want %s", r.Root(), wt)
	}
	if want := filepath.Join(tr.dir, ".git", "worktrees", "linked"); r.GitDir() != want {
		t.Errorf("GitDir() = %s, want %s", r.GitDir(), want)
	}
	if want := filepath.Join(tr.dir, ".git"); r.CommonDir() != want {
		t.Errorf("CommonDir() = %s, want %s", r.CommonDir(), want)
	}
	if b, ok := r.CurrentBranch(); !ok || b != "wt" {
		t.Errorf("CurrentBranch() = %q, %v, want wt", b, ok)
	}
	head, err := r.ResolveCommit("HEAD")
	if err != nil || head != tr.gitAt(wt, "rev-parse", "HEAD") {
		t.Errorf("ResolveCommit(HEAD) = %s, %v, want the worktree's HEAD", head, err)
	}
	if got, err := r.ResolveCommit("main"); err != nil || got != tr.git("rev-parse", "main") {
		t.Errorf("ResolveCommit(main) = %s, %v", got, err)
	}
}

func TestOpenBare(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	bare := filepath.Join(filepath.Dir(tr.dir), "bare.git")
	tr.git("clone", "-q", "--bare", tr.dir, bare)
	for _, dir := range []string{bare, filepath.Join(bare, "refs")} {
		r := tr.open(dir)
		if r.Root() != "" || r.GitDir() != bare || r.CommonDir() != bare {
			t.Errorf("Open(%s): Root %q, GitDir %s, CommonDir %s", dir, r.Root(), r.GitDir(), r.CommonDir())
		}
		if got, err := r.ResolveCommit("main"); err != nil || got != tr.git("rev-parse", "main") {
			t.Errorf("ResolveCommit(main) = %s, %v", got, err)
		}
		if _, err := r.WorktreeSource(); err == nil {
			t.Error("WorktreeSource of a bare repository: no error")
		}
		if p, ok := r.CheckedOutAt("main"); ok {
			t.Errorf("CheckedOutAt(main) in a bare repository = %s", p)
		}
	}
}

func TestOpenNoRepository(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := Open(dir); !errors.Is(err, ErrNoRepository) {
		t.Errorf("Open(empty dir) = %v, want ErrNoRepository", err)
	}
	if _, err := Open(filepath.Join(dir, "missing")); err == nil {
		t.Error("Open(missing dir): no error")
	}
}

func TestOpenStopsAtCeiling(t *testing.T) {
	tr := newFixture(t)
	t.Setenv("GIT_CEILING_DIRECTORIES", tr.dir)
	if _, err := Open(filepath.Join(tr.dir, "dir")); !errors.Is(err, ErrNoRepository) {
		t.Errorf("Open below a ceiling = %v, want ErrNoRepository", err)
	}
	if _, err := Open(tr.dir); err != nil {
		t.Errorf("Open at the ceiling itself: %v", err)
	}
}

func TestOpenBrokenGitFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".git"), []byte("nonsense\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrNoRepository) {
		t.Errorf("Open with a bad .git file = %v, want ErrNoRepository", err)
	}
}

func TestOpenRefusesUnsupportedFormats(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ ext, want string }{
		{"objectFormat = sha256", "SHA-256 repositories are not supported yet"},
		{"refStorage = reftable", "reftable ref storage"},
	} {
		tr := newTestRepo(t)
		tr.git("config", "core.repositoryformatversion", "1")
		cfg := filepath.Join(tr.dir, ".git", "config")
		old, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cfg, append(old, []byte("[extensions]\n\t"+c.ext+"\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(tr.dir); !errors.Is(err, ErrUnsupportedRepository) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Open with %s = %v, want %q", c.ext, err, c.want)
		}
	}
}

// The configuration git accepts and go-git's parser or extension check
// refuses must not keep a repository from opening.
func TestOpenConfigGoGitRefuses(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.git("config", "extensions.preciousObjects", "true")
	tr.git("config", "branch.main.merge", "main")
	tr.git("config", "remote.o.url", "/nowhere")
	tr.git("config", "--add", "remote.o.fetch", "^refs/heads/skip")
	r := tr.open(tr.dir)
	if got, err := r.ResolveCommit("main"); err != nil || got != tr.git("rev-parse", "main") {
		t.Errorf("ResolveCommit(main) = %s, %v", got, err)
	}
}

// GIT_DIR and GIT_WORK_TREE (relative to the directory), and
// core.worktree, place the repository as they do for git.
func TestOpenEnvironment(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	base := filepath.Dir(tr.dir)
	other := filepath.Join(base, "elsewhere")
	if err := os.Mkdir(other, 0o777); err != nil {
		t.Fatal(err)
	}
	gd := filepath.Join(tr.dir, ".git")
	dotfiles := filepath.Join(base, "dotfiles.git")
	tr.git("clone", "-q", "--bare", tr.dir, dotfiles)
	tr.gitAt(dotfiles, "config", "core.bare", "false")
	tr.gitAt(dotfiles, "config", "core.worktree", "../repo")
	bare := filepath.Join(base, "bare.git")
	tr.git("clone", "-q", "--bare", tr.dir, bare)
	bareWt := filepath.Join(base, "bare-wt")
	tr.gitAt(bare, "worktree", "add", "-q", bareWt, "main")
	pointer := filepath.Join(base, "pointer")
	if err := os.WriteFile(pointer, []byte("gitdir: repo/.git\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, dir  string
		env        []string
		root, gdir string
	}{
		{"GIT_DIR and GIT_WORK_TREE from elsewhere", other, []string{"GIT_DIR=" + gd, "GIT_WORK_TREE=../repo"}, tr.dir, gd},
		{"GIT_DIR alone: the directory is the top", other, []string{"GIT_DIR=../repo/.git"}, other, gd},
		{"GIT_DIR naming a .git file", other, []string{"GIT_DIR=" + pointer}, other, gd},
		{"GIT_WORK_TREE alone", filepath.Join(tr.dir, "dir"), []string{"GIT_WORK_TREE=" + other}, other, gd},
		{"GIT_DIR of a bare repository", other, []string{"GIT_DIR=" + bare}, "", bare},
		// What a hook of that worktree gets: the common config's
		// core.bare is the bare repository's, not the worktree's.
		{"GIT_DIR of a linked worktree of a bare repository", bareWt, []string{"GIT_DIR=" + filepath.Join(bare, "worktrees", "bare-wt")}, bareWt, filepath.Join(bare, "worktrees", "bare-wt")},
		{"core.worktree", other, []string{"GIT_DIR=" + dotfiles}, tr.dir, dotfiles},
		{"core.worktree, found from inside", dotfiles, nil, tr.dir, dotfiles},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, err := open(c.dir, lookupIn(append(append([]string(nil), tr.env...), c.env...)))
			if err != nil {
				t.Fatal(err)
			}
			if r.Root() != c.root || r.GitDir() != c.gdir {
				t.Errorf("Root %q, GitDir %q; want %q, %q", r.Root(), r.GitDir(), c.root, c.gdir)
			}
			if got, err := r.ResolveCommit("main"); err != nil || got != tr.git("rev-parse", "main") {
				t.Errorf("ResolveCommit(main) = %s, %v", got, err)
			}
		})
	}
	for _, env := range [][]string{{"GIT_DIR=" + other}, {"GIT_WORK_TREE=" + filepath.Join(base, "missing")}} {
		if _, err := open(tr.dir, lookupIn(append(append([]string(nil), tr.env...), env...))); err == nil {
			t.Errorf("open with %v: no error", env)
		}
	}
	// Objects or the common dir moved elsewhere: refused, naming the
	// variable, rather than written where git does not look.
	for _, v := range []string{"GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR"} {
		_, err := open(tr.dir, lookupIn(append(append([]string(nil), tr.env...), v+"="+other)))
		if !errors.Is(err, ErrUnsupportedRepository) || !strings.Contains(err.Error(), v+" is set") {
			t.Errorf("open with %s set: %v", v, err)
		}
	}
}
