package gitops

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// emptyTree is the id of the tree with no entries, which git knows
// without storing it.
var emptyTree = oid.FromHex("4b825dc642cb6eb9a060e54bf8d69288fbee4904")

// treeEntry is one entry of a tree object as stored. Mode keeps the
// exact bytes of the object (go-git's decoder canonicalises legacy
// modes such as 100664, which would change untouched entries when a
// tree is rewritten).
type treeEntry struct {
	mode string
	name string
	id   oid.ID
}

func (e treeEntry) isDir() bool { return modeBits(e.mode)&0o170000 == 0o040000 }

// engineMode maps the stored mode to a patch.Mode (legacy 100664 is a
// regular file, as git reads it).
func (e treeEntry) engineMode() patch.Mode {
	m := modeBits(e.mode)
	switch m & 0o170000 {
	case 0o100000:
		if m&0o111 != 0 {
			return patch.ModeExec
		}
		return patch.ModeRegular
	case 0o120000:
		return patch.ModeSymlink
	case 0o160000:
		return patch.ModeGitlink
	}
	return patch.Mode(m)
}

func modeBits(mode string) uint32 {
	v, err := strconv.ParseUint(mode, 8, 32)
	if err != nil {
		return 0
	}
	return uint32(v)
}

// treeMode is how a mode is written in a tree object: octal, no
// leading zero ("40000" for a directory).
func treeMode(m patch.Mode) string { return strconv.FormatUint(uint64(m), 8) }

const dirMode = "40000"

// parseTree decodes the body of a tree object.
func parseTree(data []byte) ([]treeEntry, error) {
	var out []treeEntry
	for len(data) > 0 {
		sp := bytes.IndexByte(data, ' ')
		if sp <= 0 {
			return nil, fmt.Errorf("malformed tree: bad mode")
		}
		nul := bytes.IndexByte(data[sp+1:], 0)
		if nul <= 0 || len(data) < sp+1+nul+1+20 {
			return nil, fmt.Errorf("malformed tree: bad entry")
		}
		e := treeEntry{mode: string(data[:sp]), name: string(data[sp+1 : sp+1+nul])}
		copy(e.id[:], data[sp+1+nul+1:])
		out = append(out, e)
		data = data[sp+1+nul+1+20:]
	}
	return out, nil
}

// treeLess orders entries as git does: by name, a directory's name
// compared as if it ended in "/".
func treeLess(a, b treeEntry) bool {
	an, bn := a.name, b.name
	if a.isDir() {
		an += "/"
	}
	if b.isDir() {
		bn += "/"
	}
	return an < bn
}

// encodeTree sorts entries in git's order and encodes them as a tree
// object.
func encodeTree(entries []treeEntry) (encodedObject, error) {
	sorted := append([]treeEntry(nil), entries...)
	sort.Slice(sorted, func(i, j int) bool { return treeLess(sorted[i], sorted[j]) })
	var buf bytes.Buffer
	for i, e := range sorted {
		if e.name == "" || strings.ContainsAny(e.name, "/\x00") {
			return nil, fmt.Errorf("bad tree entry name %q", e.name)
		}
		if i > 0 && sorted[i-1].name == e.name {
			return nil, fmt.Errorf("duplicate tree entry %q", e.name)
		}
		buf.WriteString(e.mode)
		buf.WriteByte(' ')
		buf.WriteString(e.name)
		buf.WriteByte(0)
		buf.Write(e.id[:])
	}
	return newObject(oid.Tree, buf.Bytes()), nil
}

// readTree loads the entries of tree id (none for the empty tree).
// walkFiles calls fn for every non-tree entry under tree id, with its
// path, reading trees through read (which may cache them).
func walkFiles(read func(oid.ID) ([]treeEntry, error), id oid.ID, fn func(path string, e treeEntry)) error {
	var walk func(id oid.ID, prefix string) error
	walk = func(id oid.ID, prefix string) error {
		entries, err := read(id)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if e.isDir() {
				if err := walk(e.id, prefix+e.name+"/"); err != nil {
					return err
				}
				continue
			}
			fn(prefix+e.name, e)
		}
		return nil
	}
	return walk(id, "")
}

func (r *Repo) readTree(id oid.ID) ([]treeEntry, error) {
	if id.IsZero() || id == emptyTree {
		return nil, nil
	}
	data, err := r.readObject(oid.Tree, id)
	if err != nil {
		return nil, err
	}
	return parseTree(data)
}

// readObject returns the content of object id, which must be of type
// t: an object of another type is odb.ErrNotFound, as
// go-git's storage has it.
func (r *Repo) readObject(t oid.Type, id oid.ID) ([]byte, error) {
	return r.readObjectContext(context.Background(), t, id)
}

// readObjectContext is readObject that stops when ctx ends, returning
// its error unwrapped (SPEC section 2).
func (r *Repo) readObjectContext(ctx context.Context, t oid.Type, id oid.ID) ([]byte, error) {
	got, data, err := r.readRawContext(ctx, id)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err == nil && got != t {
		err = odb.ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s %s: %w", t, id, err)
	}
	return data, nil
}

// checkPath accepts a slash-separated path relative to the repository
// root whose components are names git allows in a tree: not empty, not
// "." or "..", not ".git" in any case, no NUL byte.
func checkPath(p string) error {
	if p == "" || strings.HasPrefix(p, "/") {
		return fmt.Errorf("bad path %q: must be relative to the repository root", p)
	}
	for _, c := range strings.Split(p, "/") {
		switch {
		case c == "" || c == "." || c == "..":
			return fmt.Errorf("bad path %q: empty, '.' or '..' component", p)
		case strings.EqualFold(c, ".git"):
			return fmt.Errorf("bad path %q: inside .git", p)
		case strings.IndexByte(c, 0) >= 0:
			return fmt.Errorf("bad path %q: NUL byte", p)
		}
	}
	return nil
}
