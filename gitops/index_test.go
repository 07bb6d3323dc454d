package gitops

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/engine"
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
	tr := stagedRepo(t)
	src, err := tr.open(tr.dir).IndexSource()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path    string
		mode    engine.Mode
		content string
	}{
		{"a.txt", reg, "staged\n"},
		{"dir/b.txt", exe, "b\n"},
		{"run.sh", exe, "#!/bin/sh\necho hi\n"},
		{"link", slnk, "a.txt"},
		{"new.txt", reg, "new\n"},
		{"subm", engine.ModeGitlink, ""},
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
		data, err := src.Read(tc.path)
		if tc.mode == engine.ModeGitlink {
			if err == nil {
				t.Errorf("Read(%s) of a submodule: no error", tc.path)
			}
			continue
		}
		if err != nil || string(data) != tc.content {
			t.Errorf("Read(%s) = %q, %v, want %q", tc.path, data, err, tc.content)
		}
	}
	for _, p := range []string{"ab.txt", "ita.txt", "dir", "dir/sub", "missing", "a.txt/x"} {
		if _, err := src.Lookup(p); err != engine.ErrNotExist {
			t.Errorf("Lookup(%s) = %v, want ErrNotExist", p, err)
		}
		if _, err := src.Read(p); err != engine.ErrNotExist {
			t.Errorf("Read(%s) = %v, want ErrNotExist", p, err)
		}
	}
	for _, p := range []string{"../x", "/a.txt", ".git/HEAD", "dir//b.txt"} {
		if _, err := src.Lookup(p); err == nil || errors.Is(err, engine.ErrNotExist) {
			t.Errorf("Lookup(%q) = %v, want a bad path error", p, err)
		}
	}
	checkPaths(t, tr, src, "ita.txt")
}

func TestIndexSourceUnmerged(t *testing.T) {
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
}

func TestIndexSourceWithoutIndex(t *testing.T) {
	tr := newTestRepo(t)
	src, err := tr.open(tr.dir).IndexSource()
	if err != nil {
		t.Fatal(err)
	}
	if paths, err := src.Paths(); err != nil || len(paths) != 0 {
		t.Errorf("Paths() = %v, %v, want none", paths, err)
	}
}

func TestReadIndexVersions(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		tr := stagedRepo(t)
		tr.git("update-index", "--index-version", version)
		idx, err := readIndex(filepath.Join(tr.dir, ".git", "index"))
		if err != nil {
			t.Fatalf("index v%s: %v", version, err)
		}
		if e := idx.entries["dir/sub/c.txt"]; e.id.String() != tr.git("rev-parse", ":dir/sub/c.txt") || e.mode != reg {
			t.Errorf("index v%s: dir/sub/c.txt = %+v", version, e)
		}
		if !idx.entries["ita.txt"].intentToAdd {
			t.Errorf("index v%s: ita.txt not intent-to-add", version)
		}
	}
}

func TestReadIndexRefusesSplitIndex(t *testing.T) {
	tr := stagedRepo(t)
	tr.git("update-index", "--split-index")
	if _, err := readIndex(filepath.Join(tr.dir, ".git", "index")); err == nil {
		t.Error("a split index was read without error (its entries would be incomplete)")
	}
}
