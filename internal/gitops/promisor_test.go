package gitops

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// partialClone clones tr without blobs (and checks nothing out, so
// that none is fetched) and returns the clone with the id of a blob it
// lacks.
func partialClone(t *testing.T, tr *testRepo) (*testRepo, oid.ID) {
	t.Helper()
	tr.git("config", "uploadpack.allowFilter", "true")
	c := &testRepo{t: t, dir: filepath.Join(filepath.Dir(tr.dir), "partial"), home: tr.home, env: tr.env}
	tr.gitAt(filepath.Dir(tr.dir), "clone", "-q", "--no-checkout", "--filter=blob:none", "file://"+tr.dir, c.dir)
	id := oid.FromHex(tr.git("rev-parse", "main:a.txt"))
	if !strings.Contains(c.git("rev-list", "--objects", "--missing=print", "main"), "?"+id.String()) {
		t.Fatalf("the clone has blob %s already", id)
	}
	return c, id
}

// TestReadPartialCloneDoesNotFetch: a blob the clone left out is an
// error naming the command that fetches it, and reading it runs
// nothing, not even the upload-pack the remote's configuration names
// (which a fetch over file:// runs here); once the user has run that
// command, the blob reads.
func TestReadPartialCloneDoesNotFetch(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	c, id := partialClone(t, tr)
	marker := filepath.Join(t.TempDir(), "fetched")
	script := filepath.Join(t.TempDir(), "upload-pack")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch "+marker+"\nexec git-upload-pack \"$@\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	c.git("config", "remote.origin.uploadpack", script)
	r := c.open(c.dir)
	_, _, err := r.readRaw(id)
	want := "git -C " + shquote.Word(c.dir) + " cat-file -p " + id.String()
	if !errors.Is(err, ErrMissingObject) || !strings.Contains(err.Error(), want) {
		t.Fatalf("readRaw(%s) = %v, want ErrMissingObject saying %q", id, err, want)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("reading the missing blob ran the remote's upload-pack")
	}
	c.git("cat-file", "-p", id.String())
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("setup: git's fetch did not run the upload-pack script")
	}
	if _, data, err := c.open(c.dir).readRaw(id); err != nil || !bytes.Equal(data, []byte("hello\n")) {
		t.Errorf("after the fetch: readRaw = %q, %v", data, err)
	}
}

// A missing object in a repository that is not a partial clone is not
// fetched: it is simply not found.
func TestReadMissingNotPartial(t *testing.T) {
	t.Parallel()
	tr := newFixture(t)
	r := tr.open(tr.dir)
	if _, _, err := r.readRaw(oid.FromHex(strings.Repeat("ab", 20))); !errors.Is(err, odb.ErrNotFound) {
		t.Errorf("readRaw(absent) = %v, want ErrObjectNotFound", err)
	}
}
