package scratch

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// The fixtures below are Kept: a package that uses them runs Main
// from its TestMain.

// Fixture returns a repository with one commit on main holding:
// regular files in nested directories, names that sort differently as
// files and directories, an executable, a symbolic link and a
// submodule (gitlink).
func Fixture(t testing.TB) *Repo {
	t.Helper()
	return Kept(t, "scratch.Fixture", func(t testing.TB) *Repo {
		r := New(t)
		r.WriteFiles(map[string]string{
			"a.txt": "hello\n", "dir/b.txt": "b\n", "dir/sub/c.txt": "c\n", "dir/sub/d.txt": "d\n",
			"other/x.txt": "x\n", "other/deep/y.txt": "y\n", "ab/z.txt": "z\n", "ab-c.txt": "ab-c\n",
			"ab.txt": "ab\n", "run.sh*": "#!/bin/sh\necho hi\n",
		})
		r.Symlink("a.txt", "link")
		sub := filepath.Join(r.Dir, "subm")
		r.GitAt(r.Dir, "init", "-q", "-b", "main", sub)
		r.Write("subm/s.txt", "s\n", 0o644)
		r.GitAt(sub, "add", "s.txt")
		r.GitAt(sub, "-c", "maintenance.auto=false", "commit", "-q", "-m", "sub")
		r.Commit("initial")
		return r
	})
}

// ObjectFixture returns a repository with every kind of object:
// commits (a merge among them), nested trees, an executable, a
// symbolic link, an empty blob, a blob of 100 KiB, an annotated tag, a
// tag of a tag, and a file in twelve versions, so that a repack stores
// deltas.
func ObjectFixture(t testing.TB) *Repo {
	t.Helper()
	return Kept(t, "scratch.ObjectFixture", func(t testing.TB) *Repo {
		r := New(t)
		var big strings.Builder
		for i := range 4000 {
			fmt.Fprintf(&big, "line %d of a large file\n", i)
		}
		r.WriteFiles(map[string]string{"big.txt": big.String(), "empty": "", "run.sh*": "#!/bin/sh\necho hi\n", "dir/sub/deep.txt": "deep\n"})
		r.Symlink("big.txt", "link")
		for v := range 12 {
			var s strings.Builder
			for i := range 300 {
				fmt.Fprintf(&s, "version line %d\n", i)
				if i%50 == v {
					fmt.Fprintf(&s, "changed in version %d\n", v)
				}
			}
			r.WriteFiles(map[string]string{"doc/many.txt": s.String(), "big.txt": big.String() + fmt.Sprintf("tail %d\n", v)})
			r.Commit(fmt.Sprintf("version %d", v))
		}
		r.Git("checkout", "-q", "-b", "side", "HEAD~3")
		r.Write("side.txt", "side\n", 0o644)
		r.Commit("side")
		r.Git("checkout", "-q", "main")
		r.Git("-c", "maintenance.auto=false", "merge", "-q", "--no-ff", "-m", "merge side", "side")
		r.Git("tag", "-a", "-m", "annotated", "v1")
		r.Git("tag", "-a", "-m", "tag of a tag", "v1-outer", "v1")
		return r
	})
}
