package gitops

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// FuzzParseCommit: any commit or tag body decodes without a panic; a
// commit we accept starts with its tree header (as git's parser
// requires) and has the tree and parents go-git's decoder (the one this
// package used before its own) reads from it; a tag we accept starts
// with its object header.
func FuzzParseCommit(f *testing.F) {
	tree := strings.Repeat("a", 40)
	f.Add("tree " + tree + "\nparent " + strings.Repeat("b", 40) + "\nauthor A <a@x> 1 +0000\ncommitter C <c@x> 2 +0000\n\nmsg\n")
	f.Add("tree " + tree + "\nauthor A <a@x> 1 +0000\ngpgsig -----BEGIN\n line\n -----END\n\nsigned\n")
	f.Add("object " + tree + "\ntype commit\ntag v1\ntagger T <t@x> 3 +0000\n\nv1\n")
	f.Add("parent " + tree + "\ntree " + tree + "\n\n")
	f.Add("tree 000000000000000000000000000000000000000A")
	f.Add(" \ntree " + strings.Repeat("0", 40))
	f.Add(" \nobject " + tree + "\ntype commit\n\n")
	f.Fuzz(func(t *testing.T, body string) {
		id := plumbing.ComputeHash(plumbing.CommitObject, []byte(body))
		if _, _, err := tagTarget(id, []byte(body)); err == nil && !strings.HasPrefix(body, "object ") {
			t.Fatalf("a tag body not starting with its object header was read: %q", body)
		}
		c, err := parseCommit(id, []byte(body))
		if err != nil {
			return
		}
		// git's hex reader takes either case (hexval), and so do we.
		if first := "tree " + c.TreeHash.String(); len(body) < len(first) || !strings.EqualFold(body[:len(first)], first) {
			t.Fatalf("tree %s is not the first line of %q", c.TreeHash, body)
		}
		o := &plumbing.MemoryObject{}
		o.SetType(plumbing.CommitObject)
		o.Write([]byte(body))
		theirs, err := object.DecodeCommit(nil, o)
		if err != nil {
			return
		}
		if theirs.TreeHash != c.TreeHash || len(theirs.ParentHashes) != len(c.Parents) {
			t.Fatalf("go-git reads tree %s and %d parents, we read %s and %d", theirs.TreeHash, len(theirs.ParentHashes), c.TreeHash, len(c.Parents))
		}
		for i := range c.Parents {
			if theirs.ParentHashes[i] != c.Parents[i] {
				t.Fatalf("parent %d: go-git %s, we %s", i, theirs.ParentHashes[i], c.Parents[i])
			}
		}
	})
}
