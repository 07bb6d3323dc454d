package gitops

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

const (
	reg  = patch.ModeRegular
	exe  = patch.ModeExec
	slnk = patch.ModeSymlink
)

// fixtureFiles is `git ls-tree -r` of the fixture's commit (as lsTree
// prints it), for building expectations.
func fixtureFiles() map[string]string {
	return map[string]string{
		"a.txt":            "100644 blob",
		"ab-c.txt":         "100644 blob",
		"ab.txt":           "100644 blob",
		"ab/z.txt":         "100644 blob",
		"dir/b.txt":        "100644 blob",
		"dir/sub/c.txt":    "100644 blob",
		"dir/sub/d.txt":    "100644 blob",
		"link":             "120000 blob",
		"other/deep/y.txt": "100644 blob",
		"other/x.txt":      "100644 blob",
		"run.sh":           "100755 blob",
		"subm":             "160000 commit",
	}
}

func newWriter(t *testing.T, r *Repo, opts WriteOptions) *BranchWriter {
	t.Helper()
	w, err := r.NewBranchWriter(opts)
	if err != nil {
		t.Fatalf("NewBranchWriter(%+v): %v", opts, err)
	}
	t.Cleanup(w.Close)
	return w
}

// finish names the pack of w's run and moves its branch.
func finish(t *testing.T, w *BranchWriter) {
	t.Helper()
	if err := w.Finish(); err != nil {
		t.Fatalf("Finish: %v", err)
	}
}

func TestRecordMatchesGit(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		changes []patch.FileChange
		// files: path -> "<mode> <type>", "" removes it from the fixture's list.
		files map[string]string
	}{
		{"modify", []patch.FileChange{modify("a.txt", "hello\nworld\n", reg)}, nil},
		{"create nested", []patch.FileChange{create("new/deep/f.txt", "f\n", reg)},
			map[string]string{"new/deep/f.txt": "100644 blob"}},
		{"delete one of two", []patch.FileChange{remove("dir/sub/c.txt", reg)},
			map[string]string{"dir/sub/c.txt": ""}},
		{"delete last files of a directory",
			[]patch.FileChange{remove("dir/sub/c.txt", reg), remove("dir/sub/d.txt", reg)},
			map[string]string{"dir/sub/c.txt": "", "dir/sub/d.txt": ""}},
		{"delete the only file of nested directories", []patch.FileChange{remove("other/deep/y.txt", reg)},
			map[string]string{"other/deep/y.txt": ""}},
		{"rename across directories", []patch.FileChange{rename("dir/b.txt", "moved/b.txt", "b\n", reg)},
			map[string]string{"dir/b.txt": "", "moved/b.txt": "100644 blob"}},
		{"executable stays executable", []patch.FileChange{modify("run.sh", "#!/bin/sh\necho bye\n", exe), create("tool", "x\n", exe)},
			map[string]string{"tool": "100755 blob"}},
		{"mode change", []patch.FileChange{{OldPath: "a.txt", NewPath: "a.txt", OldMode: reg, NewMode: exe, New: []byte("hello\n")}},
			map[string]string{"a.txt": "100755 blob"}},
		{"file and directory names that sort differently",
			[]patch.FileChange{create("ab/y.txt", "y\n", reg), modify("ab.txt", "AB\n", reg), create("ab-b", "-\n", reg), create("ab0", "0\n", reg)},
			map[string]string{"ab/y.txt": "100644 blob", "ab-b": "100644 blob", "ab0": "100644 blob"}},
		{"file becomes directory", []patch.FileChange{rename("a.txt", "a.txt/inner", "hello\n", reg)},
			map[string]string{"a.txt": "", "a.txt/inner": "100644 blob"}},
		{"directory becomes file",
			[]patch.FileChange{remove("other/x.txt", reg), remove("other/deep/y.txt", reg), create("other", "now a file\n", reg)},
			map[string]string{"other/x.txt": "", "other/deep/y.txt": "", "other": "100644 blob"}},
		{"several changes in one directory",
			[]patch.FileChange{modify("dir/sub/c.txt", "C\n", reg), create("dir/sub/e.txt", "e\n", reg), remove("dir/b.txt", reg)},
			map[string]string{"dir/sub/e.txt": "100644 blob", "dir/b.txt": ""}},
		{"no change", nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newFixture(t)
			r := tr.open(tr.dir)
			head := tr.git("rev-parse", "HEAD")
			w := newWriter(t, r, WriteOptions{Branch: "llm/test", Parent: head})
			got, err := w.Record(context.Background(), tc.changes, "Apply the change\n\nBody line.")
			if err != nil {
				t.Fatalf("Record: %v", err)
			}
			finish(t, w) // git reads the run's objects once their pack is named
			tr.fsck()
			want := fixtureFiles()
			for p, m := range tc.files {
				if m == "" {
					delete(want, p)
				} else {
					want[p] = m
				}
			}
			var wantList []string
			for p, m := range want {
				wantList = append(wantList, m+" "+p)
			}
			slices.SortFunc(wantList, func(a, b string) int {
				return strings.Compare(a[strings.LastIndexByte(a, ' ')+1:], b[strings.LastIndexByte(b, ' ')+1:])
			})
			if gotList := tr.lsTree(got); !slices.Equal(gotList, wantList) {
				t.Errorf("ls-tree -r %s:\n%s\nwant:\n%s", got, strings.Join(gotList, "\n"), strings.Join(wantList, "\n"))
			}
			if byGit := tr.gitRecord(head, tc.changes, "Apply the change\n\nBody line.\n"); got != byGit {
				t.Errorf("commit %s, git makes %s\nours:\n%s\ngit's:\n%s", got, byGit,
					tr.git("cat-file", "-p", got), tr.git("cat-file", "-p", byGit))
			}
			if parent := tr.git("rev-parse", got+"^"); parent != head {
				t.Errorf("parent %s, want %s", parent, head)
			}
		})
	}
}

func TestRecordKeepsUntouchedSubtrees(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	r := tr.open(tr.dir)
	head := tr.git("rev-parse", "HEAD")
	w := newWriter(t, r, WriteOptions{Branch: "keep", Parent: head})
	got, err := w.Record(context.Background(), []patch.FileChange{modify("dir/sub/c.txt", "changed\n", reg)}, "m")
	if err != nil {
		t.Fatal(err)
	}
	finish(t, w) // git reads the run's objects once their pack is named
	for _, p := range []string{"other", "other/deep", "ab", "subm", "link", "a.txt"} {
		if a, b := tr.git("rev-parse", head+":"+p), tr.git("rev-parse", got+":"+p); a != b {
			t.Errorf("%s: %s, want %s", p, b, a)
		}
	}
	for _, p := range []string{"", "dir", "dir/sub"} {
		if a, b := tr.git("rev-parse", head+":"+p), tr.git("rev-parse", got+":"+p); a == b {
			t.Errorf("tree %q did not change", p)
		}
	}
}

func TestRecordChainsCommits(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	r := tr.open(tr.dir)
	head := tr.git("rev-parse", "HEAD")
	w := newWriter(t, r, WriteOptions{Branch: "chain", Parent: head})
	c1, err := w.Record(context.Background(), []patch.FileChange{modify("a.txt", "one\n", reg)}, "first")
	if err != nil {
		t.Fatal(err)
	}
	c2, err := w.Record(context.Background(), []patch.FileChange{modify("a.txt", "two\n", reg), create("b.txt", "b\n", reg)}, "second\n\n\n")
	if err != nil {
		t.Fatal(err)
	}
	finish(t, w) // git reads the run's objects once their pack is named
	if got := w.Commits(); !slices.Equal(got, []string{c1, c2}) {
		t.Errorf("Commits() = %v, want %v", got, []string{c1, c2})
	}
	if p := tr.git("rev-parse", c2+"^"); p != c1 {
		t.Errorf("parent of second = %s, want %s", p, c1)
	}
	if got := tr.git("show", "-s", "--format=%B", c2); got != "second" {
		t.Errorf("message %q", got)
	}
	if raw := tr.git("cat-file", "commit", c2); !strings.HasSuffix(raw, "\n\nsecond") {
		t.Errorf("raw commit does not end with one newline after the message:\n%q", raw)
	}
	if byGit := tr.gitRecord(c1, []patch.FileChange{modify("a.txt", "two\n", reg), create("b.txt", "b\n", reg)}, "second\n"); byGit != c2 {
		t.Errorf("second commit %s, git makes %s", c2, byGit)
	}
	tr.fsck()
}

// A Record whose context has ended makes no commit and writes no
// object: the next one builds on the commit before it.
func TestRecordStopsWithItsContext(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	r := tr.open(tr.dir)
	head := tr.git("rev-parse", "HEAD")
	w := newWriter(t, r, WriteOptions{Branch: "cut", Parent: head})
	before := tr.storedObjects()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if c, err := w.Record(ctx, []patch.FileChange{create("cut.txt", "cut\n", reg)}, "cut"); !errors.Is(err, context.Canceled) || c != "" {
		t.Fatalf("Record after cancellation = %q, %v; want context.Canceled", c, err)
	}
	if got := w.Commits(); len(got) != 0 {
		t.Errorf("Commits() = %v after a cancelled Record", got)
	}
	if after := tr.storedObjects(); len(after) != len(before) {
		t.Errorf("a cancelled Record wrote %d objects", len(after)-len(before))
	}
	c, err := w.Record(context.Background(), []patch.FileChange{create("kept.txt", "kept\n", reg)}, "kept")
	if err != nil {
		t.Fatal(err)
	}
	finish(t, w) // git reads the run's objects once their pack is named
	if p := tr.git("rev-parse", c+"^"); p != head {
		t.Errorf("parent of the next commit = %s, want %s", p, head)
	}
	if files := tr.lsTree(c); slices.ContainsFunc(files, func(f string) bool { return strings.HasSuffix(f, "cut.txt") }) {
		t.Errorf("the next commit holds the cancelled one's file: %v", files)
	}
}

func TestRecordRootCommit(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "orphan"})
	changes := []patch.FileChange{create("README", "hi\n", reg), create("bin/x", "x\n", exe)}
	got, err := w.Record(context.Background(), changes, "root")
	if err != nil {
		t.Fatal(err)
	}
	finish(t, w) // git reads the run's objects once their pack is named
	if l := tr.lsTree(got); !slices.Equal(l, []string{"100644 blob README", "100755 blob bin/x"}) {
		t.Errorf("ls-tree: %v", l)
	}
	if byGit := tr.gitRecord("", changes, "root\n"); byGit != got {
		t.Errorf("commit %s, git makes %s", got, byGit)
	}
	tr.fsck()
}

func TestRecordDeletingEverythingGivesEmptyTree(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	tr.write("only/file", "x\n", 0o644)
	tr.git("add", ".")
	tr.git("commit", "-q", "-m", "one file")
	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "empty", Parent: tr.git("rev-parse", "HEAD")})
	got, err := w.Record(context.Background(), []patch.FileChange{remove("only/file", reg)}, "remove it")
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if tree := tr.git("rev-parse", got+"^{tree}"); tree != emptyTree.String() {
		t.Errorf("tree %s, want the empty tree", tree)
	}
	tr.fsck()
}

func TestRecordRefusesBadChanges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		changes []patch.FileChange
		want    string
	}{
		{"below a file", []patch.FileChange{create("a.txt/x", "x\n", reg)}, "is a file"},
		{"below a symlink", []patch.FileChange{create("link/x", "x\n", reg)}, "is a file"},
		{"create over a directory", []patch.FileChange{create("dir", "x\n", reg)}, "a directory is there"},
		{"create over a non-empty directory after deleting part of it", []patch.FileChange{remove("dir/b.txt", reg), create("dir", "x\n", reg)}, "a directory is there"},
		{"delete a directory", []patch.FileChange{remove("other", reg)}, "is a directory"},
		{"parent outside", []patch.FileChange{create("../x", "x\n", reg)}, "bad path"},
		{"absolute", []patch.FileChange{create("/etc/x", "x\n", reg)}, "bad path"},
		{"inside .git", []patch.FileChange{create(".git/config", "x\n", reg)}, "inside .git"},
		{"inside .GIT", []patch.FileChange{create("d/.GIT/x", "x\n", reg)}, "inside .git"},
		{"empty component", []patch.FileChange{create("a//b", "x\n", reg)}, "bad path"},
		{"written twice", []patch.FileChange{create("n", "1\n", reg), create("n", "2\n", reg)}, "written twice"},
		{"submodule", []patch.FileChange{modify("subm", "x", patch.ModeGitlink)}, "cannot write"},
		{"no path", []patch.FileChange{{}}, "without a path"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newFixture(t)
			r := tr.open(tr.dir)
			w := newWriter(t, r, WriteOptions{Branch: "bad", Parent: tr.git("rev-parse", "HEAD")})
			before := tr.storedObjects()
			_, err := w.Record(context.Background(), tc.changes, "m")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Record: %v, want an error containing %q", err, tc.want)
			}
			if after := tr.storedObjects(); !slices.Equal(before, after) {
				t.Errorf("a failed Record wrote objects: %d before, %d after", len(before), len(after))
			}
			if len(w.Commits()) != 0 {
				t.Errorf("Commits() = %v after a failure", w.Commits())
			}
		})
	}
}

func TestRecordWritesNoUnreachableObjects(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	tr.git("gc", "-q") // start from a packed repository without loose objects
	before := len(tr.storedObjects())
	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "clean", Parent: tr.git("rev-parse", "HEAD")})
	if _, err := w.Record(context.Background(), []patch.FileChange{remove("dir/sub/c.txt", reg), remove("dir/sub/d.txt", reg),
		create("n1/n2/n3.txt", "n\n", reg), modify("other/deep/y.txt", "Y\n", reg)}, "first"); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Record(context.Background(), []patch.FileChange{create("dir", "was a directory\n", reg), remove("dir/b.txt", reg)}, "second"); err != nil {
		t.Fatal(err)
	}
	if err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if out := tr.git("fsck", "--unreachable", "--no-reflogs", "--no-progress"); out != "" {
		t.Errorf("unreachable objects after recording:\n%s", out)
	}
	// 2 commits; blobs n3.txt, y.txt, dir; trees: root, n1, n1/n2, other,
	// other/deep, dir (first commit) and root (second commit).
	if n := len(tr.storedObjects()) - before; n != 12 {
		t.Errorf("%d objects written, want 12", n)
	}
	tr.fsck()
}

func TestNewBranchWriterRefuses(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	r := tr.open(tr.dir)
	head := tr.git("rev-parse", "HEAD")
	tr.git("branch", "exists")
	tests := []struct {
		name string
		opts WriteOptions
		want error
	}{
		{"checked out", WriteOptions{Branch: "main", Parent: head, Expect: head}, ErrBranchCheckedOut},
		{"bad name", WriteOptions{Branch: "a..b", Parent: head}, ErrBadBranchName},
		{"exists but expected new", WriteOptions{Branch: "exists", Parent: head}, ErrRefMoved},
		{"expected but missing", WriteOptions{Branch: "missing", Parent: head, Expect: head}, ErrRefMoved},
		{"wrong value", WriteOptions{Branch: "exists", Parent: head, Expect: strings.Repeat("1", 40)}, ErrRefMoved},
		{"unknown parent", WriteOptions{Branch: "new", Parent: strings.Repeat("2", 40)}, ErrUnknownRevision},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.NewBranchWriter(tc.opts)
			if !errors.Is(err, tc.want) {
				t.Fatalf("NewBranchWriter: %v, want %v", err, tc.want)
			}
			if tc.want == ErrBranchCheckedOut && !strings.Contains(err.Error(), tr.dir) {
				t.Errorf("error %q does not name the worktree %s", err, tr.dir)
			}
		})
	}
}

func TestWriteOptionsValidate(t *testing.T) {
	t.Parallel()
	id := strings.Repeat("a", 40)
	tests := []struct {
		opts WriteOptions
		ok   bool
	}{
		{WriteOptions{Branch: "llm/x", Parent: id, Expect: id}, true},
		{WriteOptions{Branch: "llm/x"}, true},
		{WriteOptions{Branch: ""}, false},
		{WriteOptions{Branch: "x", Parent: "abc"}, false},
		{WriteOptions{Branch: "x", Expect: strings.ToUpper(id)}, false},
		{WriteOptions{Branch: "x", ReflogMsg: "a\x00b"}, false},
	}
	for _, tc := range tests {
		if err := tc.opts.Validate(); (err == nil) != tc.ok {
			t.Errorf("Validate(%+v) = %v, want ok=%v", tc.opts, err, tc.ok)
		}
	}
}
