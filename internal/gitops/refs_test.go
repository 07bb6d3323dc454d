package gitops

import (
	"errors"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

func TestValidBranchName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		ok   bool
	}{
		{"main", true},
		{"llm/fix-parser", true},
		{"feature/x.y", true},
		{"a.b", true},
		{"x.lockx", true},
		{"a@b", true},
		{"@x", true},
		{"ü", true},
		{"", false},
		{"-x", false},
		{"HEAD", false},
		{"a..b", false},
		{"a b", false},
		{"a~b", false},
		{"a^b", false},
		{"a:b", false},
		{"a?b", false},
		{"a*b", false},
		{"a[b", false},
		{`a\b`, false},
		{"a/", false},
		{"/a", false},
		{"a//b", false},
		{".a", false},
		{"a/.b", false},
		{"a.lock", false},
		{"a.lock/b", false},
		{"a.", false},
		{"a@{b", false},
		{"a\x01b", false},
		{"a\x7fb", false},
	}
	for _, tc := range tests {
		err := ValidBranchName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("ValidBranchName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrBadBranchName) {
			t.Errorf("ValidBranchName(%q) = %v, not ErrBadBranchName", tc.name, err)
		}
		if tc.name == "" {
			continue
		}
		gitOK := exec.Command("git", "check-ref-format", "--branch", tc.name).Run() == nil
		if gitOK != tc.ok {
			t.Errorf("git check-ref-format --branch %q: ok=%v, table says %v", tc.name, gitOK, tc.ok)
		}
	}
	if err := ValidBranchName("@"); err == nil {
		t.Error(`ValidBranchName("@") accepted`)
	}
}

func TestCurrentBranch(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	r := tr.open(tr.dir)
	if b, ok := r.CurrentBranch(); !ok || b != "main" {
		t.Errorf("unborn: CurrentBranch() = %q, %v, want main", b, ok)
	}
	tr.git("commit", "-q", "--allow-empty", "-m", "one")
	tr.git("switch", "-q", "-c", "topic/x")
	if b, ok := r.CurrentBranch(); !ok || b != "topic/x" {
		t.Errorf("CurrentBranch() = %q, %v, want topic/x", b, ok)
	}
	tr.git("checkout", "-q", "--detach")
	if b, ok := r.CurrentBranch(); ok {
		t.Errorf("detached: CurrentBranch() = %q, true", b)
	}
}

func TestBranchTip(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.git("branch", "loose")
	tr.git("branch", "packed")
	tr.git("pack-refs", "--all")            // packs every branch
	tr.git("branch", "-f", "loose", "HEAD") // loose again (same value), now shadowing packed-refs
	tr.git("commit", "-q", "--allow-empty", "-m", "two")
	tr.git("branch", "-f", "loose", "HEAD")
	tr.git("branch", "nested/deep")
	r := tr.open(tr.dir)
	for _, b := range []string{"loose", "packed", "nested/deep", "main"} {
		got, exists, err := r.BranchTip(b)
		if err != nil || !exists || got != tr.git("rev-parse", "refs/heads/"+b) {
			t.Errorf("BranchTip(%s) = %s, %v, %v", b, got, exists, err)
		}
	}
	for _, b := range []string{"missing", "nested"} {
		if got, exists, err := r.BranchTip(b); err != nil || exists {
			t.Errorf("BranchTip(%s) = %s, %v, %v, want not found", b, got, exists, err)
		}
	}
	tr.git("symbolic-ref", "refs/heads/sym", "refs/heads/main")
	if _, _, err := r.BranchTip("sym"); err == nil {
		t.Error("BranchTip of a symbolic ref: no error")
	}
}

func TestCheckedOutAt(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.git("branch", "free")
	wt := filepath.Join(filepath.Dir(tr.dir), "wt")
	tr.git("worktree", "add", "-q", "-b", "busy", wt)
	for _, r := range []*Repo{tr.open(tr.dir), tr.open(wt)} {
		if p, ok := r.CheckedOutAt("main"); !ok || p != tr.dir {
			t.Errorf("from %s: CheckedOutAt(main) = %q, %v, want %s", r.Root(), p, ok, tr.dir)
		}
		if p, ok := r.CheckedOutAt("busy"); !ok || p != wt {
			t.Errorf("from %s: CheckedOutAt(busy) = %q, %v, want %s", r.Root(), p, ok, wt)
		}
		if p, ok := r.CheckedOutAt("free"); ok {
			t.Errorf("from %s: CheckedOutAt(free) = %q", r.Root(), p)
		}
	}
	// A detached worktree in the middle of a rebase of "free" counts too.
	tr.gitAt(wt, "checkout", "-q", "--detach")
	if err := scratch.WriteFile(filepath.Join(tr.dir, ".git", "worktrees", "wt", "rebase-merge", "head-name"), "refs/heads/free\n"); err != nil {
		t.Fatal(err)
	}
	if p, ok := tr.open(tr.dir).CheckedOutAt("free"); !ok || p != wt {
		t.Errorf("CheckedOutAt(free) during a rebase = %q, %v, want %s", p, ok, wt)
	}
}
