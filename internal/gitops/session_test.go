package gitops

import (
	"slices"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// TestCommitChanges: the changes of a commit are git diff's, paths,
// modes and contents, with a file turned into a directory and a
// subtree shared by both sides left unread.
func TestCommitChanges(t *testing.T) {
	tr, from := newWorktreeFixture(t, true)
	to := tr.gitRecord(from, []patch.FileChange{
		modify("a.txt", "to\n", patch.ModeRegular),
		create("added/x.txt", "x\n", patch.ModeRegular),
		remove("new/deep/n.txt", patch.ModeRegular),
		{OldPath: "new/tool", NewPath: "new/tool", OldMode: patch.ModeExec, NewMode: patch.ModeRegular, New: []byte("#!/bin/sh\n")},
	}, "to")
	r := tr.open(tr.dir)
	changes, err := r.CommitChanges(to)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		st := "M"
		switch {
		case c.IsCreate():
			st = "A"
		case c.IsDelete():
			st = "D"
		}
		got = append(got, st+"\t"+c.Path())
		if c.NewPath != "" && strings.TrimSpace(string(c.New)) != strings.TrimSpace(tr.git("show", to+":"+c.NewPath)) {
			t.Errorf("%s: new content %q", c.NewPath, c.New)
		}
		if c.OldPath != "" && strings.TrimSpace(string(c.Old)) != strings.TrimSpace(tr.git("show", from+":"+c.OldPath)) {
			t.Errorf("%s: old content %q", c.OldPath, c.Old)
		}
	}
	want := strings.Split(strings.TrimSpace(tr.git("diff", "--no-renames", "--name-status", from, to)), "\n")
	if !slices.Equal(got, want) {
		t.Errorf("changes %q, git diff %q", got, want)
	}
	// A root commit's changes are its files (a submodule is none).
	root := strings.TrimSpace(tr.git("rev-list", "--max-parents=0", "main"))
	changes, err = r.CommitChanges(root)
	files := 0
	for _, l := range strings.Split(strings.TrimSpace(tr.git("ls-tree", "-r", root)), "\n") {
		if !strings.HasPrefix(l, "160000 ") {
			files++
		}
	}
	if err != nil || len(changes) != files {
		t.Errorf("root commit: %d changes of %d files, %v", len(changes), files, err)
	}
}

// TestCommitsWithTrailer: the commits whose last paragraph has the
// trailer with that value, newest first, as git log's trailers say.
func TestCommitsWithTrailer(t *testing.T) {
	tr, from := newWorktreeFixture(t, true)
	c1 := tr.gitRecord(from, []patch.FileChange{modify("a.txt", "1\n", patch.ModeRegular)}, "one\n\nLLM-MCP-Branch: feat\n")
	c2 := tr.gitRecord(c1, []patch.FileChange{modify("a.txt", "2\n", patch.ModeRegular)}, "two by hand\n")
	c3 := tr.gitRecord(c2, []patch.FileChange{modify("a.txt", "3\n", patch.ModeRegular)}, "three\n\nLLM-MCP-Branch: other\n")
	c4 := tr.gitRecord(c3, []patch.FileChange{modify("a.txt", "4\n", patch.ModeRegular)}, "four\n\nLLM-MCP-Branch: feat\nLLM-Reply: 0123\n")
	c5 := tr.gitRecord(c4, []patch.FileChange{modify("a.txt", "5\n", patch.ModeRegular)}, "five\n\nLLM-MCP-Branch: feat\n\nnot a trailer\n")
	got, err := tr.open(tr.dir).CommitsWithTrailer(strings.TrimSpace(c5), "LLM-MCP-Branch", "feat")
	if err != nil {
		t.Fatal(err)
	}
	want := []CommitInfo{{ID: strings.TrimSpace(c4), Parent: strings.TrimSpace(c3), Subject: "four"}, {ID: strings.TrimSpace(c1), Parent: strings.TrimSpace(from), Subject: "one"}}
	if !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
