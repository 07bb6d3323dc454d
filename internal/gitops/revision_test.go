package gitops

import (
	"errors"
	"testing"
)

// historyRepo has main with three commits, a merge, annotated and
// lightweight tags, a tag of a tag, a remote-tracking branch and a
// packed branch.
func historyRepo(t *testing.T) *testRepo {
	tr := newFixture(t)
	tr.git("commit", "-q", "--allow-empty", "-m", "two")
	tr.git("switch", "-q", "-c", "side", "HEAD~1")
	tr.git("commit", "-q", "--allow-empty", "-m", "side")
	tr.git("switch", "-q", "main")
	tr.git("merge", "-q", "--no-ff", "-m", "merge", "side")
	tr.git("tag", "light", "HEAD~1")
	tr.git("tag", "-a", "-m", "annotated", "v1", "HEAD^2")
	tr.git("tag", "-a", "-m", "tag of a tag", "v1-outer", "v1")
	tr.git("update-ref", "refs/remotes/origin/main", "HEAD~2")
	tr.git("symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/main")
	tr.git("branch", "packed", "HEAD~1")
	tr.git("pack-refs", "--all")
	return tr
}

func TestResolveCommit(t *testing.T) {
	t.Parallel()
	tr := historyRepo(t)
	r := tr.open(tr.dir)
	head := tr.git("rev-parse", "HEAD")
	revs := []string{
		"HEAD", "@", "main", "refs/heads/main", "heads/main", "side", "packed",
		"light", "v1", "v1-outer", "tags/v1", "origin/main", "origin",
		head, head[:7], head[:12], head[:9],
		"HEAD~1", "HEAD~", "HEAD^", "HEAD^1", "HEAD^2", "HEAD^0", "HEAD~2", "main^2~1", "@~1",
		"v1^{}", "v1^{commit}", "v1-outer~1", "HEAD^^",
	}
	for _, rev := range revs {
		got, err := r.ResolveCommit(rev)
		want := tr.git("rev-parse", "--verify", rev+"^{commit}")
		if err != nil || got != want {
			t.Errorf("ResolveCommit(%q) = %s, %v, want %s", rev, got, err, want)
		}
	}
}

func TestResolveCommitErrors(t *testing.T) {
	t.Parallel()
	tr := historyRepo(t)
	r := tr.open(tr.dir)
	tree := tr.git("rev-parse", "HEAD^{tree}")
	for _, rev := range []string{"", "nope", "HEAD~10", "HEAD^3", tree, "0000000", "HEAD:a.txt", "HEAD@{1}", "HEAD^{tree}", "main~x"} {
		if got, err := r.ResolveCommit(rev); !errors.Is(err, ErrUnknownRevision) {
			t.Errorf("ResolveCommit(%q) = %s, %v, want ErrUnknownRevision", rev, got, err)
		}
	}
}

func TestResolveCommitUnbornHead(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	r := tr.open(tr.dir)
	for _, rev := range []string{"HEAD", "@", "HEAD~1", "main"} {
		if _, err := r.ResolveCommit(rev); !errors.Is(err, ErrUnbornHead) {
			t.Errorf("ResolveCommit(%q) in an empty repository = %v, want ErrUnbornHead", rev, err)
		}
	}
	if _, err := r.ResolveCommit("other"); !errors.Is(err, ErrUnknownRevision) {
		t.Errorf("ResolveCommit(other) = %v, want ErrUnknownRevision", err)
	}
}

func TestResolveCommitPrefersRefsToShortIDs(t *testing.T) {
	t.Parallel()
	tr := historyRepo(t)
	r := tr.open(tr.dir)
	head := tr.git("rev-parse", "HEAD")
	short := head[:8]
	tr.git("branch", short, "HEAD~2") // a branch whose name looks like the short id
	got, err := r.ResolveCommit(short)
	if want := tr.git("rev-parse", "HEAD~2"); err != nil || got != want {
		t.Errorf("ResolveCommit(%s) = %s, %v, want the branch %s", short, got, err, want)
	}
}
