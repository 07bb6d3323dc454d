package gitops

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// partialClone clones tr without blobs (and checks nothing out, so
// that none is fetched) and returns the clone with the id of a blob it
// lacks.
func partialClone(t *testing.T, tr *testRepo) (*testRepo, plumbing.Hash) {
	t.Helper()
	tr.git("config", "uploadpack.allowFilter", "true")
	c := &testRepo{t: t, dir: filepath.Join(filepath.Dir(tr.dir), "partial"), home: tr.home, env: tr.env}
	tr.gitAt(filepath.Dir(tr.dir), "clone", "-q", "--no-checkout", "--filter=blob:none", "file://"+tr.dir, c.dir)
	id := plumbing.NewHash(tr.git("rev-parse", "main:a.txt"))
	if !strings.Contains(c.git("rev-list", "--objects", "--missing=print", "main"), "?"+id.String()) {
		t.Fatalf("the clone has blob %s already", id)
	}
	return c, id
}

func TestReadPartialCloneFetches(t *testing.T) {
	tr := newFixture(t)
	c, id := partialClone(t, tr)
	r := c.open(c.dir)
	typ, data, err := r.readRaw(id)
	if err != nil || typ != plumbing.BlobObject || !bytes.Equal(data, []byte("hello\n")) {
		t.Fatalf("readRaw(%s) = %v, %q, %v", id, typ, data, err)
	}
	// Fetched for good: the next read needs no git.
	defer func(old func(string) (string, error)) { lookGit = old }(lookGit)
	lookGit = func(string) (string, error) { return "", errors.New("no git") }
	if _, data, err := c.open(c.dir).readRaw(id); err != nil || string(data) != "hello\n" {
		t.Errorf("second read = %q, %v", data, err)
	}
}

func TestReadPartialCloneUnreachable(t *testing.T) {
	tr := newFixture(t)
	c, id := partialClone(t, tr)
	if err := os.Rename(tr.dir, tr.dir+".gone"); err != nil {
		t.Fatal(err)
	}
	r := c.open(c.dir)
	if _, _, err := r.readRaw(id); !errors.Is(err, ErrMissingObject) || !strings.Contains(err.Error(), "git cat-file -p "+id.String()) {
		t.Errorf("readRaw with the remote gone = %v, want ErrMissingObject saying what to run", err)
	}
	defer func(old func(string) (string, error)) { lookGit = old }(lookGit)
	lookGit = func(string) (string, error) { return "", errors.New("no git") }
	if _, _, err := r.readRaw(id); !errors.Is(err, ErrMissingObject) || !strings.Contains(err.Error(), "not on PATH") {
		t.Errorf("readRaw without git = %v, want ErrMissingObject saying git is needed", err)
	}
}

// A missing object in a repository that is not a partial clone is not
// fetched: it is simply not found.
func TestReadMissingNotPartial(t *testing.T) {
	tr := newFixture(t)
	r := tr.open(tr.dir)
	if _, _, err := r.readRaw(plumbing.NewHash(strings.Repeat("ab", 20))); !errors.Is(err, plumbing.ErrObjectNotFound) {
		t.Errorf("readRaw(absent) = %v, want ErrObjectNotFound", err)
	}
}
