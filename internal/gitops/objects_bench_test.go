package gitops

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// benchBlobs is how many small files the object benchmarks'
// repository holds, all in one pack, as a large repository's.
const benchBlobs = 100_000

// benchObjectRepo has git fast-import write a repository of benchBlobs
// files (content(i) the i-th) in one commit, in one pack as a clone
// leaves it, and returns its top and ten of its files: their paths and
// blob ids.
func benchObjectRepo(b *testing.B, content func(int) string) (string, []string, []oid.ID) {
	b.Helper()
	base := b.TempDir()
	dir := filepath.Join(base, "repo")
	env := testEnv(base)
	run := func(stdin io.Reader, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, stdin
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	cmd := exec.Command("git", "init", "-q", "-b", "main", dir)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("git init: %v\n%s", err, out)
	}
	var in bytes.Buffer
	for i := range benchBlobs {
		c := content(i)
		fmt.Fprintf(&in, "blob\nmark :%d\ndata %d\n%s\n", i+1, len(c), c)
	}
	fmt.Fprintf(&in, "commit refs/heads/main\ncommitter %s <%s> %s\ndata 8\ninitial\n", committerName, committerEmail, committerDate)
	for i := range benchBlobs {
		fmt.Fprintf(&in, "M 100644 :%d %s\n", i+1, benchObjectPath(i))
	}
	run(&in, "fast-import", "--quiet")
	var paths []string
	var ids []oid.ID
	for i := benchBlobs/20 + 7; i < benchBlobs; i += benchBlobs / 10 {
		paths = append(paths, benchObjectPath(i))
		ids = append(ids, oid.Sum(oid.Blob, []byte(content(i))))
	}
	return dir, paths, ids
}

// smallBlob is the content of a small file, too small for git to
// store it as a delta.
func smallBlob(i int) string { return fmt.Sprintf("file %d\nalpha %d\nbeta %d\n", i, i, i) }

// similarBlob is the content of a file much like its neighbours:
// fast-import stores each as a delta of the one before, in chains of
// up to 50 (OFS_DELTA), so reading one reads a chain of bases.
func similarBlob(i int) string {
	var s strings.Builder
	fmt.Fprintf(&s, "file %d\n", i)
	for j := range 8 {
		fmt.Fprintf(&s, "shared line %d of the common text\n", j)
	}
	fmt.Fprintf(&s, "end %d\n", i)
	return s.String()
}

func benchObjectPath(i int) string {
	return fmt.Sprintf("d%02d/e%02d/f%d.txt", i/1000%100, i/10%100, i%10)
}

// BenchmarkReadObjects opens a repository of benchBlobs files and
// reads ten blobs ("blobs10"), or resolves HEAD and reads ten files of
// its tree, trees on the way included ("revision10"); "open" is Open
// alone. "gitops" names this package's reader, as when go-git's
// storage was measured beside it. The files are small ("small") or
// deltas in chains of up to 50 ("chains").
func BenchmarkReadObjects(b *testing.B) {
	for _, repo := range []struct {
		name    string
		content func(int) string
	}{{"small", smallBlob}, {"chains", similarBlob}} {
		b.Run(repo.name, func(b *testing.B) { benchReadObjects(b, repo.content) })
	}
}

func benchReadObjects(b *testing.B, content func(int) string) {
	dir, paths, ids := benchObjectRepo(b, content)
	b.Run("open", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Open(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("blobs10/gitops", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			for _, id := range ids {
				if _, err := r.readObject(oid.Blob, id); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("revision10/gitops", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			src, _, err := r.RevisionSource("HEAD")
			if err != nil {
				b.Fatal(err)
			}
			for _, p := range paths {
				if _, err := src.Read(p); err != nil {
					b.Fatal(p, err)
				}
			}
		}
	})
}
