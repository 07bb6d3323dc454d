package gitops

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

func TestFinishCreatesBranchWithReflog(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	r := tr.open(tr.dir)
	head := tr.git("rev-parse", "HEAD")
	w := newWriter(t, r, WriteOptions{Branch: "llm/new", Parent: head, ReflogMsg: "llm-apply: created from HEAD"})
	c1, err := w.Record(context.Background(), []patch.FileChange{modify("a.txt", "1\n", reg)}, "one")
	if err != nil {
		t.Fatal(err)
	}
	c2, err := w.Record(context.Background(), []patch.FileChange{modify("a.txt", "2\n", reg)}, "two")
	if err != nil {
		t.Fatal(err)
	}
	if out := tr.git("branch", "--list", "llm/new"); out != "" {
		t.Fatalf("Record moved a ref: %q", out)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := tr.git("rev-parse", "refs/heads/llm/new"); got != c2 {
		t.Errorf("branch at %s, want %s", got, c2)
	}
	if got := tr.git("rev-list", "--reverse", head+"..llm/new"); got != c1+"\n"+c2 {
		t.Errorf("history %q", got)
	}
	log, err := os.ReadFile(filepath.Join(tr.dir, ".git", "logs", "refs", "heads", "llm", "new"))
	if err != nil {
		t.Fatal(err)
	}
	want := zeroID + " " + c2 + " C O Mitter <committer@example.com> 1112912053 +0200\tllm-apply: created from HEAD\n"
	if string(log) != want {
		t.Errorf("reflog:\n%q\nwant\n%q", log, want)
	}
	if got := tr.git("reflog", "show", "--format=%H %gs", "llm/new"); got != c2+" llm-apply: created from HEAD" {
		t.Errorf("git reflog show: %q", got)
	}
	if _, err := os.Stat(filepath.Join(tr.dir, ".git", "refs", "heads", "llm", "new.lock")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file left behind: %v", err)
	}
	tr.fsck()
}

func TestFinishAdvancesBranch(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	r := tr.open(tr.dir)
	tr.git("branch", "feature")
	tip := tr.git("rev-parse", "feature")
	w := newWriter(t, r, WriteOptions{Branch: "feature", Parent: tip, Expect: tip, ReflogMsg: "llm-apply:  multi\nline  "})
	c, err := w.Record(context.Background(), []patch.FileChange{create("f.txt", "f\n", reg)}, "add f")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := tr.git("rev-parse", "feature"); got != c {
		t.Errorf("feature at %s, want %s", got, c)
	}
	lines := strings.Split(tr.git("reflog", "show", "--format=%H %gs", "feature"), "\n")
	if len(lines) != 2 || lines[0] != c+" llm-apply: multi line" || !strings.HasPrefix(lines[1], tip+" ") {
		t.Errorf("reflog:\n%s", strings.Join(lines, "\n"))
	}
	// Another round continues from the new tip.
	c2, err := w.Record(context.Background(), []patch.FileChange{modify("f.txt", "F\n", reg)}, "change f")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := tr.git("rev-parse", "feature", "feature~1"); got != c2+"\n"+c {
		t.Errorf("feature, feature~1 = %q", got)
	}
	tr.fsck()
}

func TestFinishDefaultReflogMessage(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "d", Parent: tr.git("rev-parse", "HEAD")})
	if _, err := w.Record(context.Background(), nil, "Subject line\n\nbody"); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := tr.git("reflog", "show", "--format=%gs", "d"); got != "llm-apply: Subject line" {
		t.Errorf("reflog message %q", got)
	}
}

func TestFinishWithoutCommitsDoesNothing(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "none", Parent: tr.git("rev-parse", "HEAD")})
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if out := tr.git("branch", "--list", "none"); out != "" {
		t.Errorf("branch created: %q", out)
	}
}

func TestFinishRefMoved(t *testing.T) {
	t.Parallel()
	for _, packed := range []bool{false, true} {
		name := "loose"
		if packed {
			name = "packed"
		}
		t.Run(name, func(t *testing.T) {
			tr := newFixture(t)
			tr.git("commit", "-q", "--allow-empty", "-m", "second")
			tr.git("branch", "feature", "HEAD~1")
			r := tr.open(tr.dir)
			tip := tr.git("rev-parse", "feature")
			w := newWriter(t, r, WriteOptions{Branch: "feature", Parent: tip, Expect: tip})
			if _, err := w.Record(context.Background(), []patch.FileChange{create("f", "f\n", reg)}, "f"); err != nil {
				t.Fatal(err)
			}
			tr.git("branch", "-f", "feature", "main") // another writer
			if packed {
				tr.git("pack-refs", "--all")
			}
			moved := tr.git("rev-parse", "feature")
			err := w.Finish()
			if !errors.Is(err, ErrRefMoved) {
				t.Fatalf("Finish: %v, want ErrRefMoved", err)
			}
			if got := tr.git("rev-parse", "feature"); got != moved {
				t.Errorf("feature at %s, want it left at %s", got, moved)
			}
			if _, err := os.Stat(filepath.Join(tr.dir, ".git", "refs", "heads", "feature.lock")); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("lock file left behind: %v", err)
			}
			if n := len(strings.Split(tr.git("reflog", "show", "feature"), "\n")); n != 2 {
				t.Errorf("reflog has %d entries, want 2 (created, moved)", n)
			}
		})
	}
}

func TestFinishBranchCreatedMeanwhile(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "new", Parent: tr.git("rev-parse", "HEAD")})
	if _, err := w.Record(context.Background(), nil, "m"); err != nil {
		t.Fatal(err)
	}
	tr.git("branch", "new")
	if err := w.Finish(); !errors.Is(err, ErrRefMoved) {
		t.Fatalf("Finish: %v, want ErrRefMoved", err)
	}
	if got, want := tr.git("rev-parse", "new"), tr.git("rev-parse", "HEAD"); got != want {
		t.Errorf("new at %s, want %s", got, want)
	}
}

func TestFinishRefLocked(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "locked", Parent: tr.git("rev-parse", "HEAD")})
	if _, err := w.Record(context.Background(), nil, "m"); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(tr.dir, ".git", "refs", "heads", "locked.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := w.Finish()
	if !errors.Is(err, ErrRefLocked) || !strings.Contains(err.Error(), lock) {
		t.Fatalf("Finish: %v, want ErrRefLocked naming %s", err, lock)
	}
	if _, err := os.Stat(lock); err != nil {
		t.Errorf("someone else's lock file was removed: %v", err)
	}
	if out := tr.git("branch", "--list", "locked"); out != "" {
		t.Errorf("branch created: %q", out)
	}
	if strings.Contains(err.Error(), "rm ") {
		t.Errorf("a lock made during the run is called stale: %v", err)
	}

	// A lock older than the run was left by a process that died: the
	// error says so and gives the command that removes it.
	old := started.Add(-time.Hour)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatal(err)
	}
	err = w.Finish()
	if !errors.Is(err, ErrRefLocked) || !strings.Contains(err.Error(), "rm "+lock) {
		t.Fatalf("Finish with a stale lock: %v, want ErrRefLocked with the rm command", err)
	}

	// A writer that lets go within core.filesRefLockTimeout is waited
	// for. The timeout is lifted (-1, as in git) so that a loaded
	// machine cannot make the wait miss the release.
	tr.git("config", "core.filesRefLockTimeout", "-1")
	go func() {
		time.Sleep(20 * time.Millisecond)
		os.Remove(lock)
	}()
	if err := os.Chtimes(lock, time.Now(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatalf("Finish while the lock goes away: %v", err)
	}
	tr.fsck()
}

func TestFinishPackedBranch(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.git("branch", "feature")
	tr.git("pack-refs", "--all")
	loose := filepath.Join(tr.dir, ".git", "refs", "heads", "feature")
	if _, err := os.Stat(loose); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("feature is still loose after pack-refs: %v", err)
	}
	r := tr.open(tr.dir)
	tip, exists, err := r.BranchTip("feature")
	if err != nil || !exists || tip != tr.git("rev-parse", "feature") {
		t.Fatalf("BranchTip(feature) = %s, %v, %v", tip, exists, err)
	}
	w := newWriter(t, r, WriteOptions{Branch: "feature", Parent: tip, Expect: tip})
	c, err := w.Record(context.Background(), []patch.FileChange{create("p", "p\n", reg)}, "p")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := tr.git("rev-parse", "feature"); got != c {
		t.Errorf("feature at %s, want %s", got, c)
	}
	tr.git("pack-refs", "--all")
	if got := tr.git("rev-parse", "feature"); got != c {
		t.Errorf("after pack-refs feature at %s, want %s", got, c)
	}
	tr.fsck()
}

func TestFinishRefNameConflicts(t *testing.T) {
	t.Parallel()
	for _, packed := range []bool{false, true} {
		tr := newFixture(t)
		tr.git("branch", "topic")
		tr.git("branch", "deep/er")
		if packed {
			tr.git("pack-refs", "--all")
		}
		r := tr.open(tr.dir)
		for _, b := range []string{"topic/x", "deep"} {
			w := newWriter(t, r, WriteOptions{Branch: b, Parent: tr.git("rev-parse", "HEAD")})
			if _, err := w.Record(context.Background(), nil, "m"); err != nil {
				t.Fatal(err)
			}
			if err := w.Finish(); err == nil || !strings.Contains(err.Error(), "cannot create") {
				t.Errorf("packed=%v: Finish(%s) = %v, want a conflict", packed, b, err)
			}
		}
	}
}

func TestFinishFromLinkedWorktree(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	wt := filepath.Join(filepath.Dir(tr.dir), "wt")
	tr.git("worktree", "add", "-q", "-b", "wtbranch", wt)
	r := tr.open(filepath.Join(wt, "dir"))
	head, err := r.ResolveCommit("HEAD")
	if err != nil {
		t.Fatal(err)
	}
	w := newWriter(t, r, WriteOptions{Branch: "from-wt", Parent: head})
	c, err := w.Record(context.Background(), []patch.FileChange{create("w", "w\n", reg)}, "w")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(tr.dir, ".git", "refs", "heads", "from-wt")); err != nil {
		t.Errorf("ref not in the common dir: %v", err)
	}
	if _, err := os.Stat(filepath.Join(tr.dir, ".git", "logs", "refs", "heads", "from-wt")); err != nil {
		t.Errorf("reflog not in the common dir: %v", err)
	}
	if got := tr.git("rev-parse", "from-wt"); got != c {
		t.Errorf("from-wt at %s, want %s", got, c)
	}
	if got := tr.gitAt(wt, "symbolic-ref", "HEAD"); got != "refs/heads/wtbranch" {
		t.Errorf("worktree HEAD changed to %s", got)
	}
	// The branch checked out in the linked worktree is refused, naming it.
	_, err = r.NewBranchWriter(WriteOptions{Branch: "wtbranch", Parent: head, Expect: head})
	if !errors.Is(err, ErrBranchCheckedOut) || !strings.Contains(err.Error(), wt) {
		t.Errorf("NewBranchWriter(wtbranch) = %v, want ErrBranchCheckedOut naming %s", err, wt)
	}
	tr.fsck()
}

func TestRecordingLeavesCheckoutAlone(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.write("a.txt", "staged\n", 0o644)
	tr.git("add", "a.txt")
	tr.write("a.txt", "unstaged\n", 0o644)
	tr.write("untracked", "u\n", 0o644)
	headBefore := tr.git("rev-parse", "HEAD")
	symBefore := tr.git("symbolic-ref", "HEAD")
	statusBefore := tr.git("status", "--porcelain") // may refresh the index: read it after
	cachedBefore := tr.git("diff", "--cached")
	indexBefore, err := os.ReadFile(filepath.Join(tr.dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}

	r := tr.open(tr.dir)
	src, err := r.IndexSource()
	if err != nil {
		t.Fatal(err)
	}
	old, err := src.Read("a.txt")
	if err != nil {
		t.Fatal(err)
	}
	w := newWriter(t, r, WriteOptions{Branch: "side", Parent: headBefore})
	if _, err := w.Record(context.Background(), []patch.FileChange{modify("a.txt", string(old)+"more\n", reg)}, "m"); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if got := tr.git("show", "side:a.txt"); got != "staged\nmore" {
		t.Errorf("side:a.txt = %q", got)
	}
	indexAfter, _ := os.ReadFile(filepath.Join(tr.dir, ".git", "index"))
	if string(indexAfter) != string(indexBefore) {
		t.Error("the index file changed")
	}
	if got := tr.git("rev-parse", "HEAD"); got != headBefore {
		t.Errorf("HEAD moved to %s", got)
	}
	if got := tr.git("symbolic-ref", "HEAD"); got != symBefore {
		t.Errorf("HEAD now points at %s", got)
	}
	if got := tr.git("status", "--porcelain"); got != statusBefore {
		t.Errorf("status changed:\n%s\nwas\n%s", got, statusBefore)
	}
	if got := tr.git("diff", "--cached"); got != cachedBefore {
		t.Errorf("staged changes differ")
	}
	if data, _ := os.ReadFile(filepath.Join(tr.dir, "a.txt")); string(data) != "unstaged\n" {
		t.Errorf("working tree file changed: %q", data)
	}
}

func TestReflogMessage(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain":               "plain",
		"  lead and trail \n": "lead and trail",
		"a\n\nb\tc":           "a b c",
	} {
		if got := reflogMessage(in); got != want {
			t.Errorf("reflogMessage(%q) = %q, want %q", in, got, want)
		}
	}
}
