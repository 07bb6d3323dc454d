package gitops

import (
	"bytes"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// benchBlobs is how many small files the object benchmarks'
// repository holds, all in one pack, as a large repository's.
const benchBlobs = 100_000

// benchObjectRepo has git fast-import write a repository of benchBlobs
// files (content(i) the i-th) in one commit, in one pack as a clone
// leaves it, and returns its top and ten of its files: their paths and
// blob ids.
func benchObjectRepo(b *testing.B, content func(int) string) (string, []string, []plumbing.Hash) {
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
	var ids []plumbing.Hash
	for i := benchBlobs/20 + 7; i < benchBlobs; i += benchBlobs / 10 {
		paths = append(paths, benchObjectPath(i))
		ids = append(ids, plumbing.ComputeHash(plumbing.BlobObject, []byte(content(i))))
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

// readObjectGoGit is readObject as it was: through go-git's storage.
func readObjectGoGit(g *git.Repository, t plumbing.ObjectType, id plumbing.Hash) ([]byte, error) {
	o, err := g.Storer.EncodedObject(t, id)
	if err != nil {
		return nil, err
	}
	rd, err := o.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	return io.ReadAll(rd)
}

// BenchmarkReadObjects opens a repository of benchBlobs files and
// reads ten blobs ("blobs10"), or resolves HEAD and reads ten files of
// its tree, trees on the way included ("revision10"), with go-git's
// object storage ("go-git") and this package's ("gitops"); "open" is
// Open alone, the part both share. The files are small ("small") or
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
	for _, how := range []string{"go-git", "gitops"} {
		b.Run("blobs10/"+how, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				r, err := Open(dir)
				if err != nil {
					b.Fatal(err)
				}
				read := r.readObject
				if how == "go-git" {
					g, err := git.PlainOpen(dir)
					if err != nil {
						b.Fatal(err)
					}
					read = func(t plumbing.ObjectType, id plumbing.Hash) ([]byte, error) { return readObjectGoGit(g, t, id) }
				}
				for _, id := range ids {
					if _, err := read(plumbing.BlobObject, id); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
	b.Run("revision10/go-git", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := Open(dir)
			if err != nil {
				b.Fatal(err)
			}
			id, err := r.ResolveCommit("HEAD")
			if err != nil {
				b.Fatal(err)
			}
			g, err := git.PlainOpen(dir)
			if err != nil {
				b.Fatal(err)
			}
			c, err := g.CommitObject(plumbing.NewHash(id))
			if err != nil {
				b.Fatal(err)
			}
			trees := map[plumbing.Hash][]treeEntry{}
			for _, p := range paths {
				if _, err := readPathGoGit(g, trees, c.TreeHash, p); err != nil {
					b.Fatal(p, err)
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

// readPathGoGit reads the blob at path under tree root as treeSource
// did with readObjectGoGit, keeping the trees it reads.
func readPathGoGit(g *git.Repository, trees map[plumbing.Hash][]treeEntry, root plumbing.Hash, path string) ([]byte, error) {
	id := root
	for name := range strings.SplitSeq(path, "/") {
		entries, ok := trees[id]
		if !ok {
			data, err := readObjectGoGit(g, plumbing.TreeObject, id)
			if err != nil {
				return nil, err
			}
			if entries, err = parseTree(data); err != nil {
				return nil, err
			}
			trees[id] = entries
		}
		i := slices.IndexFunc(entries, func(e treeEntry) bool { return e.name == name })
		if i < 0 {
			return nil, fmt.Errorf("%s: no %s", path, name)
		}
		id = entries[i].id
	}
	return readObjectGoGit(g, plumbing.BlobObject, id)
}
