package gitops

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestOpenFromSubdirectory(t *testing.T) {
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
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".git"), []byte("nonsense\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrNoRepository) {
		t.Errorf("Open with a bad .git file = %v, want ErrNoRepository", err)
	}
}

func TestOpenRefusesUnsupportedFormats(t *testing.T) {
	for _, ext := range []string{"objectFormat = sha256", "refStorage = reftable"} {
		tr := newTestRepo(t)
		cfg := filepath.Join(tr.dir, ".git", "config")
		old, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(cfg, append(old, []byte("[extensions]\n\t"+ext+"\n")...), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Open(tr.dir); err == nil || !strings.Contains(err.Error(), "not supported") {
			t.Errorf("Open with %s = %v, want not supported", ext, err)
		}
	}
}
