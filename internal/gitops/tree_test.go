package gitops

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

func TestEncodeTreeSortsAsGit(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	blob := oid.FromHex(tr.gitEnv(tr.dir, nil, "x\n", "hash-object", "-w", "--stdin"))
	sub := oid.FromHex(tr.gitEnv(tr.dir, nil, "100644 blob "+blob.String()+"\tf\n", "mktree"))
	// Names where "name/" and "name" order differently against their
	// neighbours: '-' (0x2d) and '.' (0x2e) sort before '/', '0' after.
	entries := []treeEntry{
		{mode: dirMode, name: "a", id: sub},
		{mode: "100644", name: "a-b", id: blob},
		{mode: "100644", name: "a.b", id: blob},
		{mode: "100644", name: "a0", id: blob},
		{mode: dirMode, name: "b.d", id: sub},
		{mode: "100644", name: "b", id: blob},
		{mode: "100755", name: "B", id: blob},
		{mode: "120000", name: "c", id: blob},
		{mode: dirMode, name: "c-", id: sub},
		{mode: "160000", name: "m", id: oid.FromHex(strings.Repeat("1", 40))}, // a gitlink sorts as a file
		{mode: "100644", name: "m-", id: blob},
		{mode: "100644", name: "é", id: blob},
	}
	var input strings.Builder
	for _, e := range entries {
		typ := "blob"
		switch e.mode {
		case dirMode:
			typ = "tree"
		case "160000":
			typ = "commit"
		}
		fmt.Fprintf(&input, "%s %s %s\t%s\n", e.mode, typ, e.id, e.name)
	}
	want := tr.gitEnv(tr.dir, nil, input.String(), "mktree", "--missing")
	obj, err := encodeTree(entries)
	if err != nil {
		t.Fatal(err)
	}
	if obj.Hash().String() != want {
		t.Errorf("tree %s, git mktree makes %s", obj.Hash(), want)
	}
	rd, _ := obj.Reader()
	data, _ := io.ReadAll(rd)
	back, err := parseTree(data)
	if err != nil || len(back) != len(entries) {
		t.Fatalf("parseTree: %d entries, %v", len(back), err)
	}
	for i := 1; i < len(back); i++ {
		if !treeLess(back[i-1], back[i]) {
			t.Errorf("entries %q and %q out of order", back[i-1].name, back[i].name)
		}
	}
}

func TestEncodeTreeRefusesBadNames(t *testing.T) {
	t.Parallel()
	for _, entries := range [][]treeEntry{
		{{mode: "100644", name: ""}},
		{{mode: "100644", name: "a/b"}},
		{{mode: "100644", name: "a\x00"}},
		{{mode: "100644", name: "x"}, {mode: "100755", name: "x"}},
	} {
		if _, err := encodeTree(entries); err == nil {
			t.Errorf("encodeTree(%q): no error", entries[0].name)
		}
	}
}

func TestParseTreeRejectsGarbage(t *testing.T) {
	t.Parallel()
	for _, data := range []string{"100644", "100644 name", "100644 name\x00short", " name\x00" + strings.Repeat("x", 20)} {
		if _, err := parseTree([]byte(data)); err == nil {
			t.Errorf("parseTree(%q): no error", data)
		}
	}
}

func TestTreeEntryModes(t *testing.T) {
	t.Parallel()
	for mode, want := range map[string]patch.Mode{
		"100644": reg, "100664": reg, "100755": exe, "120000": slnk, "160000": patch.ModeGitlink,
	} {
		if got := (treeEntry{mode: mode}).engineMode(); got != want {
			t.Errorf("engineMode(%s) = %o, want %o", mode, got, want)
		}
	}
	if !(treeEntry{mode: "040000"}).isDir() || !(treeEntry{mode: "40000"}).isDir() || (treeEntry{mode: "100644"}).isDir() {
		t.Error("isDir wrong")
	}
}

// A legacy mode (100664, written by git before 2005) in an untouched
// entry stays as stored: go-git's tree decoder would rewrite it.
func TestRecordKeepsLegacyModes(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	blob := oid.FromHex(tr.gitEnv(tr.dir, nil, "old\n", "hash-object", "-w", "--stdin"))
	var raw bytes.Buffer
	raw.WriteString("100664 legacy\x00")
	raw.Write(blob[:])
	root := tr.gitEnv(tr.dir, nil, raw.String(), "hash-object", "-t", "tree", "-w", "--literally", "--stdin")
	base := tr.git("commit-tree", root, "-m", "legacy")
	r := tr.open(tr.dir)
	w := newWriter(t, r, WriteOptions{Branch: "x", Parent: base})
	c, err := w.Record(context.Background(), []patch.FileChange{create("new", "n\n", reg)}, "m")
	if err != nil {
		t.Fatal(err)
	}
	finish(t, w) // git reads the run's objects once their pack is named
	// ls-tree prints canonical modes; look at the stored bytes.
	if got := tr.git("cat-file", "tree", c+"^{tree}"); !strings.Contains(got, "100664 legacy\x00"+string(blob[:])) {
		t.Errorf("legacy entry rewritten: %q", got)
	}
	src, _, err := r.RevisionSource(base)
	if err != nil {
		t.Fatal(err)
	}
	if e, err := src.Lookup("legacy"); err != nil || e.Mode != reg {
		t.Errorf("Lookup(legacy) = %+v, %v, want a regular file", e, err)
	}
}
