package gitops

import (
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/google/go-cmp/cmp"
)

func TestParseCommit(t *testing.T) {
	t.Parallel()
	tree := "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	p1 := "1111111111111111111111111111111111111111"
	p2 := "2222222222222222222222222222222222222222"
	body := "tree " + tree + "\n" +
		"parent " + p1 + "\n" +
		"parent " + p2 + "\n" +
		"author A U Thor <a@x> 1700000000 +0100\n" +
		"committer C O Mitter <c@x> 1700000001 -0230\n" +
		"mergetag object " + p2 + "\n type commit\n tag v1\n \n msg\n" +
		"encoding ISO-8859-1\n" +
		"gpgsig -----BEGIN PGP SIGNATURE-----\n \n parent " + p1 + "\n tree " + p1 + "\n -----END PGP SIGNATURE-----\n" +
		"\n" +
		"subject\n\nbody\n"
	c, err := parseCommit(oid.FromHex(p1), []byte(body))
	if err != nil {
		t.Fatal(err)
	}
	want := &commit{
		Hash:      oid.FromHex(p1),
		TreeHash:  oid.FromHex(tree),
		Parents:   []oid.ID{oid.FromHex(p1), oid.FromHex(p2)},
		Author:    "A U Thor <a@x> 1700000000 +0100",
		Committer: "C O Mitter <c@x> 1700000001 -0230",
		Encoding:  "ISO-8859-1",
		Message:   "subject\n\nbody\n",
	}
	if d := cmp.Diff(want, c); d != "" {
		t.Errorf("parseCommit (-want +got):\n%s", d)
	}
	for _, bad := range []string{
		"",
		"parent " + p1 + "\ntree " + tree + "\n\nm\n",
		"tree " + tree[:39] + "\n\nm\n",
		"tree " + tree + "\nauthor A <a> 1 +0000\nparent " + p1 + "\n\nm\n",
	} {
		if _, err := parseCommit(oid.Zero, []byte(bad)); err == nil {
			t.Errorf("parseCommit(%q) accepted it", bad)
		}
	}
}

func TestTagTarget(t *testing.T) {
	t.Parallel()
	obj := "1111111111111111111111111111111111111111"
	id, typ, err := tagTarget(oid.Zero, []byte("object "+obj+"\ntype commit\ntag v1\ntagger T <t@x> 1 +0000\n\nmsg\n"))
	if err != nil || id != oid.FromHex(obj) || typ != oid.Commit {
		t.Errorf("tagTarget = %s, %s, %v", id, typ, err)
	}
	if _, _, err := tagTarget(oid.Zero, []byte("type commit\nobject "+obj+"\n\n")); err == nil {
		t.Errorf("a tag without its object header first was accepted")
	}
}

// TestEncodeCommitLikeGit: the bytes git hash-object gives the same
// commit.
func TestEncodeCommitLikeGit(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	when := time.Unix(1700000000, 0).In(time.FixedZone("", -(2*3600 + 30*60)))
	a := Ident{Name: "A U Thor", Email: "a@x", When: when}
	c := Ident{Name: "C", Email: "c@x", When: time.Unix(1700000001, 0).UTC()}
	parent := oid.FromHex("1111111111111111111111111111111111111111")
	o := encodeCommit(emptyTree, []oid.ID{parent}, a, c, "subject\n")
	text := "tree " + emptyTree.String() + "\nparent " + parent.String() + "\n" +
		"author A U Thor <a@x> 1700000000 -0230\ncommitter C <c@x> 1700000001 +0000\n\nsubject\n"
	if got := tr.gitEnv(tr.dir, nil, text, "hash-object", "-t", "commit", "--stdin"); got != o.Hash().String() {
		t.Errorf("encodeCommit's id %s, git's %s", o.Hash(), got)
	}
}
