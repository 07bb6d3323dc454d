package gitops

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// editNode is one path component touched by a record: its children
// (the touched paths below it) and what happens to the file at it.
type editNode struct {
	children map[string]*editNode
	del      bool       // the file here goes away
	write    *treeEntry // the file here becomes this (name unset)
}

func newEditNode() *editNode { return &editNode{children: map[string]*editNode{}} }

// node returns the node for path, creating the nodes along it.
func (n *editNode) node(path string) *editNode {
	for _, name := range strings.Split(path, "/") {
		c, ok := n.children[name]
		if !ok {
			c = newEditNode()
			n.children[name] = c
		}
		n = c
	}
	return n
}

// pendingObject is an object computed by a record, written only once
// the whole record has been computed without error.
type pendingObject struct {
	id  oid.ID
	obj encodedObject
}

// encodedObject is an object to be written: the pack writer reads its
// content once (a test's object fails or stops while it is read).
type encodedObject interface {
	Hash() oid.ID
	Type() oid.Type
	Size() int64
	Reader() (io.ReadCloser, error)
}

// memObject is an object over content it does not copy: a copy would
// be a second copy of every new file held until the commit is written.
type memObject struct {
	typ  oid.Type
	id   oid.ID
	data []byte
}

func newObject(t oid.Type, data []byte) *memObject {
	return &memObject{t, oid.Sum(t, data), data}
}

func newBlob(data []byte) *memObject { return newObject(oid.Blob, data) }

func (o *memObject) Hash() oid.ID   { return o.id }
func (o *memObject) Type() oid.Type { return o.typ }
func (o *memObject) Size() int64    { return int64(len(o.data)) }
func (o *memObject) Reader() (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(o.data)), nil
}

// planChanges turns file changes into an edit tree and the blobs to
// write. Deletions (and the old side of renames) are marked first, so
// a change may write a path another change of the record vacates.
func planChanges(changes []patch.FileChange) (*editNode, []pendingObject, error) {
	root := newEditNode()
	for _, c := range changes {
		if c.OldPath == "" && c.NewPath == "" {
			return nil, nil, fmt.Errorf("a file change without a path")
		}
		if c.OldPath != "" && c.OldPath != c.NewPath {
			if err := checkPath(c.OldPath); err != nil {
				return nil, nil, err
			}
			root.node(c.OldPath).del = true
		}
	}
	var blobs []pendingObject
	seen := map[oid.ID]bool{}
	for _, c := range changes {
		if c.NewPath == "" {
			continue
		}
		if err := checkPath(c.NewPath); err != nil {
			return nil, nil, err
		}
		mode := c.NewMode
		if mode == 0 {
			mode = c.OldMode
		}
		if mode == 0 {
			mode = patch.ModeRegular
		}
		switch mode {
		case patch.ModeRegular, patch.ModeExec, patch.ModeSymlink:
		default:
			return nil, nil, fmt.Errorf("%s: cannot write a file of mode %o", c.NewPath, mode)
		}
		n := root.node(c.NewPath)
		if n.write != nil {
			return nil, nil, fmt.Errorf("%s is written twice in one commit", c.NewPath)
		}
		blob := newBlob(c.New)
		if c.NewID != "" && c.NewID != blob.Hash().String() {
			// The diff's index line names NewID; patch.Verify trusts a
			// carried id of a long file, so the blob written, hashed
			// here anyway, is what holds it to the content.
			return nil, nil, fmt.Errorf("%s: the change names blob %s, its content is blob %s", c.NewPath, c.NewID, blob.Hash())
		}
		n.write = &treeEntry{mode: treeMode(mode), id: blob.Hash()}
		if !seen[blob.Hash()] {
			seen[blob.Hash()] = true
			blobs = append(blobs, pendingObject{blob.Hash(), blob})
		}
	}
	return root, blobs, nil
}

// rewriteTree applies the edits below n to tree base (zero or the empty
// tree for none) and returns the new tree's id, or empty when no entry
// is left. New trees are appended to out children first, so writing
// out in order writes each tree after the trees it refers to. A tree
// that does not change is not appended; one that ends up empty is
// neither built nor appended.
func (r *Repo) rewriteTree(base oid.ID, n *editNode, prefix string, out *[]pendingObject) (oid.ID, bool, error) {
	entries, err := r.readTree(base)
	if err != nil {
		return oid.Zero, false, err
	}
	at := map[string]int{}
	for i, e := range entries {
		at[e.name] = i
	}
	names := make([]string, 0, len(n.children))
	for name := range n.children {
		names = append(names, name)
	}
	sort.Strings(names)
	removed := map[string]bool{}
	for _, name := range names {
		var cur *treeEntry
		i, ok := at[name]
		if ok {
			e := entries[i]
			cur = &e
		}
		next, err := r.applyNode(cur, name, n.children[name], prefix+name, out)
		if err != nil {
			return oid.Zero, false, err
		}
		switch {
		case next == nil && ok:
			removed[name] = true
		case next != nil && ok:
			entries[i] = *next
		case next != nil:
			entries = append(entries, *next)
		}
	}
	kept := entries[:0:0]
	for _, e := range entries {
		if !removed[e.name] {
			kept = append(kept, e)
		}
	}
	if len(kept) == 0 {
		return emptyTree, true, nil
	}
	obj, err := encodeTree(kept)
	if err != nil {
		return oid.Zero, false, err
	}
	if obj.Hash() != base {
		*out = append(*out, pendingObject{obj.Hash(), obj})
	}
	return obj.Hash(), false, nil
}

// applyNode computes the entry named name (cur before, nil if absent)
// after the edits of n; nil means the entry goes away.
func (r *Repo) applyNode(cur *treeEntry, name string, n *editNode, path string, out *[]pendingObject) (*treeEntry, error) {
	if n.del {
		if cur != nil && cur.isDir() {
			return nil, fmt.Errorf("cannot delete %s: it is a directory", path)
		}
		cur = nil // deleting what is not there changes nothing
	}
	if len(n.children) > 0 {
		base := emptyTree
		if cur != nil {
			if !cur.isDir() {
				return nil, fmt.Errorf("cannot write below %s: it is a file, not a directory", path)
			}
			base = cur.id
		}
		id, empty, err := r.rewriteTree(base, n, path+"/", out)
		if err != nil {
			return nil, err
		}
		switch {
		case empty:
			cur = nil
		case cur == nil || cur.id != id: // an unchanged tree keeps its entry as stored
			cur = &treeEntry{mode: dirMode, name: name, id: id}
		}
	}
	if n.write != nil {
		if cur != nil && cur.isDir() {
			return nil, fmt.Errorf("cannot write %s: a directory is there", path)
		}
		e := *n.write
		e.name = name
		cur = &e
	}
	return cur, nil
}
