package scratch

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// A scratch repository's commits are the same on every machine: the
// user's config and identity do not reach them.
func TestReproducible(t *testing.T) {
	var ids []string
	for range 2 {
		r := New(t)
		r.Write("a/b.txt", "hello\n", 0o644)
		r.Write("run.sh", "#!/bin/sh\n", 0o755)
		r.Symlink("a/b.txt", "link")
		ids = append(ids, r.Commit("first"))
		if got := r.Git("log", "-1", "--format=%an <%ae> %ad|%cn <%ce> %cd", "--date=raw"); got != AuthorName+" <"+AuthorEmail+"> "+AuthorDate+"|"+CommitterName+" <"+CommitterEmail+"> "+CommitterDate {
			t.Errorf("identities: %s", got)
		}
		if got := r.Git("ls-files", "-s", "run.sh", "link"); !strings.Contains(got, "100755") || !strings.Contains(got, "120000") {
			t.Errorf("modes: %s", got)
		}
	}
	if ids[0] != ids[1] {
		t.Errorf("the same commit has ids %s and %s", ids[0], ids[1])
	}
}

// TestOnlyTests: no package but a test imports scratch.
func TestOnlyTests(t *testing.T) {
	const self = "github.com/git-llm-apply/git-llm-apply/internal/scratch"
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == self {
				t.Errorf("%s imports %s", p, self)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// TestKept: a kept repository is made once; each later test gets a
// copy of its own, the same to git (commits, modes, links, a nested
// repository) with an index git need not refresh again.
func TestKept(t *testing.T) {
	made := 0
	make := func(t testing.TB) *Repo {
		made++
		r := New(t)
		r.Write("a/b.txt", "hello\n", 0o644)
		r.Write("run.sh", "#!/bin/sh\n", 0o755)
		r.Symlink("a/b.txt", "link")
		sub := filepath.Join(r.Dir, "sub")
		r.GitAt(r.Dir, "init", "-q", "-b", "main", sub)
		r.Write("sub/s.txt", "s\n", 0o644)
		r.GitAt(sub, "add", "s.txt")
		r.GitAt(sub, "commit", "-q", "-m", "sub")
		r.Commit("first")
		return r
	}
	first := Kept(t, "TestKept", make)
	var want string
	for i := range 3 {
		r := first
		if i > 0 {
			r = Kept(t, "TestKept", make)
		}
		if i > 1 && r.Dir == first.Dir {
			t.Fatal("a copy in the first repository's directory")
		}
		r.Write("only-"+strconv.Itoa(i), "x\n", 0o644) // not seen by the copies after it
		index := r.Git("ls-files", "-s", "--debug")
		status := r.Git("status", "--porcelain")
		if again := r.Git("ls-files", "-s", "--debug"); again != index {
			t.Errorf("copy %d: git status refreshed the index:\n%s\nwas:\n%s", i, again, index)
		}
		got := status + "|" + r.Git("rev-parse", "HEAD", "HEAD:sub") + "|" + r.Git("ls-files", "-s") + "|" + r.Git("-C", "sub", "status", "--porcelain")
		got = strings.ReplaceAll(got, "only-"+strconv.Itoa(i), "only-N")
		if i == 0 {
			want = got
		} else if got != want {
			t.Errorf("copy %d:\n%s\nwant:\n%s", i, got, want)
		}
		if fi, err := os.Stat(filepath.Join(r.Dir, "run.sh")); err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("copy %d: run.sh: %v %v", i, fi, err)
		}
		if target, err := os.Readlink(filepath.Join(r.Dir, "link")); err != nil || target != "a/b.txt" {
			t.Errorf("copy %d: link: %q %v", i, target, err)
		}
		r.Fsck()
	}
	if made != 1 {
		t.Errorf("made %d times, want once", made)
	}
}

// fatalTB records a Fatal instead of ending the test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

// fails runs f against a Repo whose failures are recorded, and returns
// what it failed with ("" for none).
func fails(t *testing.T, r *Repo, f func(*Repo)) string {
	tb := &fatalTB{TB: t}
	c := *r
	c.T = tb
	done := make(chan struct{})
	go func() { defer close(done); f(&c) }()
	<-done
	return tb.msg
}

// TestFsck: Fsck finds a damaged commit-graph, a file it verifies only
// where one is, as well as a damaged object.
func TestFsck(t *testing.T) {
	r := New(t)
	r.Write("a.txt", "a\n", 0o644)
	r.Commit("first")
	if msg := fails(t, r, (*Repo).Fsck); msg != "" {
		t.Fatalf("a sound repository: %s", msg)
	}
	r.Git("commit-graph", "write", "--reachable")
	graph := filepath.Join(r.Dir, ".git", "objects", "info", "commit-graph")
	data, err := os.ReadFile(graph)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-30] ^= 0xff // in a chunk, before the checksum
	os.Chmod(graph, 0o644)
	if err := os.WriteFile(graph, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if msg := fails(t, r, (*Repo).Fsck); !strings.Contains(msg, "commit-graph") {
		t.Errorf("a damaged commit-graph: %q", msg)
	}
}
