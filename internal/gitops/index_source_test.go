package gitops

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/index"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// stagedRepo is the fixture with staged changes that differ from both
// HEAD and the working tree.
func stagedRepo(t *testing.T) *testRepo {
	tr := newFixture(t)
	tr.write("a.txt", "staged\n", 0o644)
	tr.git("add", "a.txt")
	tr.write("a.txt", "worktree\n", 0o644)
	tr.git("update-index", "--chmod=+x", "dir/b.txt")
	tr.write("new.txt", "new\n", 0o644)
	tr.git("add", "new.txt")
	tr.git("rm", "-q", "--cached", "ab.txt")
	tr.write("ita.txt", "intent\n", 0o644)
	tr.git("add", "-N", "ita.txt")
	return tr
}

func TestIndexSource(t *testing.T) {
	t.Parallel()
	tr := stagedRepo(t)
	src, err := tr.open(tr.dir).IndexSource()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		mode    patch.Mode
		content string
	}{
		{"a.txt", reg, "staged\n"},
		{"dir/b.txt", exe, "b\n"},
		{"run.sh", exe, "#!/bin/sh\necho hi\n"},
		{"link", slnk, "a.txt"},
		{"new.txt", reg, "new\n"},
		{"subm", patch.ModeGitlink, ""},
	}
	for _, tc := range tests {
		e, err := src.Lookup(tc.path)
		if err != nil {
			t.Errorf("Lookup(%s): %v", tc.path, err)
			continue
		}
		if want := tr.git("rev-parse", ":"+tc.path); e.Mode != tc.mode || e.ID != want {
			t.Errorf("Lookup(%s) = %o %s, want %o %s", tc.path, e.Mode, e.ID, tc.mode, want)
		}
		checkRead(t, src, tc.path, tc.mode, tc.content)
	}
	checkAbsent(t, src, []string{"ab.txt", "ita.txt", "dir", "dir/sub", "missing", "a.txt/x"})
	for _, p := range []string{"../x", "/a.txt", ".git/HEAD", "dir//b.txt"} {
		if _, err := src.Lookup(p); err == nil || errors.Is(err, engine.ErrNotExist) {
			t.Errorf("Lookup(%q) = %v, want a bad path error", p, err)
		}
	}
	checkPaths(t, tr, src, "ita.txt")
}

func TestIndexSourceUnmerged(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	var info strings.Builder
	for stage, content := range []string{"base\n", "ours\n", "theirs\n"} {
		blob := tr.gitEnv(tr.dir, nil, content, "hash-object", "-w", "--stdin")
		info.WriteString("100644 " + blob + " " + string(rune('1'+stage)) + "\ta.txt\n")
	}
	tr.git("update-index", "--force-remove", "a.txt")
	tr.gitEnv(tr.dir, nil, info.String(), "update-index", "--index-info")
	if out := tr.git("ls-files", "-u", "a.txt"); strings.Count(out, "\n") != 2 {
		t.Fatalf("setup: ls-files -u:\n%s", out)
	}
	src, err := tr.open(tr.dir).IndexSource()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Lookup("a.txt"); err == nil || !strings.Contains(err.Error(), "unmerged") {
		t.Errorf("Lookup(a.txt) = %v, want an unmerged error", err)
	}
	if _, err := src.Read("a.txt"); err == nil || !strings.Contains(err.Error(), "unmerged") {
		t.Errorf("Read(a.txt) = %v, want an unmerged error", err)
	}
	if _, err := src.Lookup("dir/b.txt"); err != nil {
		t.Errorf("Lookup(dir/b.txt): %v", err)
	}
	paths, _ := src.Paths()
	if n := strings.Count(strings.Join(paths, "\n")+"\n", "a.txt\n"); n != 1 {
		t.Errorf("Paths() lists a.txt %d times: %v", n, paths)
	}
}

func TestIndexSourceHonoursGitIndexFile(t *testing.T) {
	t.Parallel()
	tr := stagedRepo(t)
	alt := filepath.Join(t.TempDir(), "alt-index")
	tr.gitEnv(tr.dir, []string{"GIT_INDEX_FILE=" + alt}, "", "read-tree", "HEAD")
	r := tr.open(tr.dir)
	r.env = lookupIn(append(tr.env, "GIT_INDEX_FILE="+alt))
	src, err := r.IndexSource()
	if err != nil {
		t.Fatal(err)
	}
	if data, err := src.Read("a.txt"); err != nil || string(data) != "hello\n" {
		t.Errorf("Read(a.txt) = %q, %v, want HEAD's content", data, err)
	}
	if _, err := src.Lookup("new.txt"); err != engine.ErrNotExist {
		t.Errorf("Lookup(new.txt) = %v, want ErrNotExist", err)
	}

	// A split index elsewhere is listed by git with that index.
	env := []string{"GIT_INDEX_FILE=" + alt}
	tr.gitEnv(tr.dir, env, "", "update-index", "--add", "--cacheinfo", "100644,"+tr.git("rev-parse", ":new.txt")+",alt.txt")
	tr.gitEnv(tr.dir, env, "", "update-index", "--split-index")
	if src, err = r.IndexSource(); err != nil {
		t.Fatal(err)
	}
	if data, err := src.Read("alt.txt"); err != nil || string(data) != "new\n" {
		t.Errorf("split index at GIT_INDEX_FILE: Read(alt.txt) = %q, %v", data, err)
	}
	if _, err := src.Lookup("new.txt"); err != engine.ErrNotExist {
		t.Errorf("split index at GIT_INDEX_FILE: Lookup(new.txt) = %v, want ErrNotExist", err)
	}
}

func TestIndexSourceWithoutIndex(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	src, err := tr.open(tr.dir).IndexSource()
	if err != nil {
		t.Fatal(err)
	}
	if paths, err := src.Paths(); err != nil || len(paths) != 0 {
		t.Errorf("Paths() = %v, %v, want none", paths, err)
	}
	if _, err := src.Lookup("a.txt"); err != engine.ErrNotExist {
		t.Errorf("Lookup(a.txt) = %v, want ErrNotExist", err)
	}
}

// TestReadIndexLinkedWorktree reads a linked worktree's split index,
// whose shared part git finds from that worktree's git dir.
func TestReadIndexLinkedWorktree(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	wtDir := filepath.Join(filepath.Dir(tr.dir), "wt")
	tr.git("worktree", "add", "-q", "-b", "side", wtDir)
	tr.gitAt(wtDir, "update-index", "--add", "--cacheinfo", "100755,"+tr.git("rev-parse", ":a.txt")+",wt-only.sh")
	tr.gitAt(wtDir, "update-index", "--split-index")
	r := tr.open(tr.dir)
	wt, err := r.worktreeAt(wtDir)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := r.readIndex(filepath.Join(wt.gitDir, "index"), wt.gitDir)
	if err != nil {
		t.Fatal(err)
	}
	if e, ok := idx.Lookup("wt-only.sh"); !ok || e.Mode != exe {
		t.Errorf("lookup(wt-only.sh) = %+v, %v", e, ok)
	}
	if _, ok := idx.Lookup("a.txt"); !ok {
		t.Error("lookup(a.txt): not found")
	}
}

func TestReadIndexCorruptFile(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	file := filepath.Join(tr.dir, ".git", "index")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = tr.open(tr.dir).IndexSource()
	if err == nil || !strings.Contains(err.Error(), "reading the index "+file) {
		t.Errorf("IndexSource on a truncated index: %v", err)
	}
}

// TestIndexFileChanged changes the index file while an IndexSource has
// it open: replaced as git does, the source keeps the index it read;
// written in place, cut or closed, the source fails, saying so.
func TestIndexFileChanged(t *testing.T) {
	tr := stagedRepo(t)
	file := filepath.Join(t.TempDir(), "index")
	env := []string{"GIT_INDEX_FILE=" + file}
	tr.gitEnv(tr.dir, env, "", "read-tree", "HEAD")
	r := tr.open(tr.dir)
	r.env = lookupIn(append(tr.env, env...))
	open := func() (engine.Source, *index.Index) {
		t.Helper()
		src, err := r.IndexSource()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := src.Lookup("a.txt"); err != nil {
			t.Fatal(err)
		}
		return src, src.(*indexSource).idx
	}

	src, _ := open()
	tr.gitEnv(tr.dir, env, "", "update-index", "--add", "--cacheinfo", "100644,"+tr.git("rev-parse", ":new.txt")+",added.txt")
	if _, err := src.Lookup("added.txt"); err != engine.ErrNotExist {
		t.Errorf("replaced: Lookup(added.txt) = %v, want ErrNotExist (the index as opened)", err)
	}
	if data, err := src.Read("a.txt"); err != nil || string(data) != "hello\n" {
		t.Errorf("replaced: Read(a.txt) = %q, %v", data, err)
	}
	if paths, err := src.Paths(); err != nil || slices.Contains(paths, "added.txt") {
		t.Errorf("replaced: Paths() = %v, %v", paths, err)
	}

	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Hour)
	for _, tc := range []struct {
		name   string
		change func(idx *index.Index) error
		want   string
	}{
		{"written in place", func(*index.Index) error {
			if err := os.WriteFile(file, bytes.Replace(data, []byte("a.txt"), []byte("a.txx"), 1), 0o644); err != nil {
				return err
			}
			return os.Chtimes(file, later, later) // as if written later than it was read
		}, "changed while it was in use"},
		{"cut", func(*index.Index) error { return os.Truncate(file, int64(len(data)/2)) }, "changed while it was in use"},
		{"closed", func(idx *index.Index) error { idx.Close(); return nil }, "file already closed"},
	} {
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		src, idx := open()
		if err := tc.change(idx); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{"a.txt", "dir/b.txt", "missing"} {
			if _, err := src.Lookup(p); err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), file) {
				t.Errorf("%s: Lookup(%s) = %v, want an error with %q and the file's name", tc.name, p, err, tc.want)
			}
		}
		if _, err := src.Paths(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Paths() = %v, want an error with %q", tc.name, err, tc.want)
		}
	}
}

// TestReadIndexLayeredWithoutGit reads a sparse and a split index with
// no git on PATH: a sparse directory's files come from the object store
// through walkTree, and the shared index from the git dir (the entries
// themselves are checked against git in gitops/internal/index).
func TestReadIndexLayeredWithoutGit(t *testing.T) {
	for _, setup := range [][]string{
		{"sparse-checkout", "set", "--cone", "--sparse-index", "dir"},
		{"update-index", "--split-index"},
	} {
		tr := newFixture(t)
		tr.git(setup...)
		want := strings.Split(strings.TrimSuffix(tr.git("ls-files", "-z"), "\x00"), "\x00")
		file := filepath.Join(tr.dir, ".git", "index")
		if data, err := os.ReadFile(file); err != nil || !bytes.Contains(data, []byte("sdir")) && !bytes.Contains(data, []byte("link")) {
			t.Fatalf("%s: the index is neither sparse nor split (%v)", setup[0], err)
		}
		// Open refuses the extensions.worktreeConfig that
		// sparse-checkout sets (go-git does not know it).
		r := &Repo{root: tr.dir, gitDir: filepath.Join(tr.dir, ".git"), env: lookupIn(tr.env)}
		r.commonDir = r.gitDir
		old := lookGit
		lookGit = func(string) (string, error) { return "", exec.ErrNotFound }
		idx, err := r.readIndex(file, r.gitDir)
		lookGit = old
		if err != nil {
			t.Fatalf("%s: %v", setup[0], err)
		}
		if got := idx.Paths(); !slices.Equal(got, want) || idx.Err() != nil {
			t.Errorf("%s: paths %v (%v), git lists %v", setup[0], got, idx.Err(), want)
		}
		if e, ok := idx.Lookup("other/deep/y.txt"); !ok || e.Mode != reg {
			t.Errorf("%s: other/deep/y.txt = %+v, %v", setup[0], e, ok)
		}
	}
}
