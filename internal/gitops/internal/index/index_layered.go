package index

// Split and sparse indexes, read here rather than listed by git
// ls-files: every git command that reads an index runs the
// repository's core.fsmonitor (a hook, or a daemon it may start), and
// check, translate and apply run no code the repository configures
// (SPEC section 5). Turning fsmonitor off with -c would leave the next
// such setting git adds; reading the files needs no git at all.

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// flatEntry is one entry of an index file, decoded.
type flatEntry struct {
	path  string
	e     Entry
	stage int
	tree  bool // a sparse index's directory entry: e.ID names its tree
}

// flatIndex reads every entry of the split or sparse index file rd of
// size bytes (at path, of the repository whose git dir is gitDir),
// merges a split index with its shared index and expands a sparse
// index's directories to the files of their trees (listed by files),
// as git does when it reads them, and returns the result as listed
// entries.
func flatIndex(rd io.ReaderAt, size int64, path, gitDir string, files TreeFiles) (*Index, error) {
	ents, link, err := decodeAll(rd, size)
	if err != nil {
		return nil, err
	}
	if link != nil {
		if ents, err = mergeShared(ents, link, path, gitDir); err != nil {
			return nil, err
		}
	}
	if ents, err = expandDirs(ents, files); err != nil {
		return nil, err
	}
	slices.SortStableFunc(ents, func(a, b flatEntry) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return a.stage - b.stage
	})
	listed := []listedEntry{} // not nil: an empty listing still stands for the index
	for _, f := range ents {
		if n := len(listed); n > 0 && listed[n-1].path == f.path {
			listed[n-1].e = fold(listed[n-1].e, true, f.e, f.stage)
		} else {
			listed = append(listed, listedEntry{f.path, fold(Entry{}, false, f.e, f.stage)})
		}
	}
	return &Index{listed: listed}, nil
}

// decodeAll decodes every entry of the index file r of size bytes, in
// file order, and returns the body of its link extension (nil when it
// is not a split index).
func decodeAll(r io.ReaderAt, size int64) ([]flatEntry, []byte, error) {
	idx, end, err := indexHeader(r, size)
	if err != nil {
		return nil, nil, err
	}
	ents := make([]flatEntry, 0, idx.n)
	idx.end, err = idx.walk(end, func(_, _ int, raw, name []byte) error {
		e, stage := entryAt(raw)
		dir := binary.BigEndian.Uint32(raw[modeAt:])&modeTypeMask == modeDir
		ents = append(ents, flatEntry{path: string(name), e: e, stage: stage, tree: dir})
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	link, err := readExtensions(r, idx.end, end)
	return ents, link, err
}

// mergeShared applies the split index's entries to its shared index
// (git's split-index.c, merge_base_index): the link extension names
// the shared index, then marks shared entries deleted and replaced (by
// the split index's first entries, which carry no name, in order;
// deleting wins, as git replaces first);
// the split index's other entries are added, each replacing the entry
// of its path and stage, a stage-0 entry replacing every stage.
func mergeShared(split []flatEntry, link []byte, path, gitDir string) ([]flatEntry, error) {
	if len(link) < idSize {
		return nil, errors.New("corrupt link extension (too short)")
	}
	var baseID oid.ID
	copy(baseID[:], link)
	if baseID.IsZero() {
		return split, nil // the split index holds every entry
	}
	base, err := readShared(baseID, path, gitDir)
	if err != nil {
		return nil, err
	}
	replaced, deleted := 0, make([]bool, len(base))
	if rest := link[idSize:]; len(rest) > 0 {
		n, err := ewahBits(rest, func(pos int) error {
			if pos >= len(base) {
				return fmt.Errorf("position for delete %d exceeds shared index size %d", pos, len(base))
			}
			deleted[pos] = true
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("corrupt delete bitmap in link extension: %w", err)
		}
		n2, err := ewahBits(rest[n:], func(pos int) error {
			switch {
			case pos >= len(base):
				return fmt.Errorf("position for replacement %d exceeds shared index size %d", pos, len(base))
			case replaced >= len(split):
				return fmt.Errorf("too many replacements (%d vs %d)", replaced, len(split))
			case split[replaced].path != "":
				return fmt.Errorf("entry %d should have a zero length name", pos)
			}
			src := split[replaced]
			base[pos].e, base[pos].stage = src.e, src.stage
			replaced++
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("corrupt replace bitmap in link extension: %w", err)
		}
		if n+n2 != len(rest) {
			return nil, errors.New("garbage at the end of link extension")
		}
	}
	// Entries by path and stage; several stages of a path stay apart.
	type key struct {
		path  string
		stage int
	}
	at := make(map[key]flatEntry, len(base)+len(split)-replaced)
	byPath := map[string][]int{} // the stages present, for stage-0 adds
	for i, b := range base {
		if !deleted[i] {
			at[key{b.path, b.stage}] = b
			byPath[b.path] = append(byPath[b.path], b.stage)
		}
	}
	for i, s := range split[replaced:] {
		if s.path == "" {
			return nil, fmt.Errorf("corrupt link extension, entry %d should have a non-zero length name", replaced+i)
		}
		if s.stage == 0 {
			for _, st := range byPath[s.path] {
				delete(at, key{s.path, st})
			}
			byPath[s.path] = nil
		}
		at[key{s.path, s.stage}] = s
		byPath[s.path] = append(byPath[s.path], s.stage)
	}
	out := make([]flatEntry, 0, len(at))
	for _, f := range at {
		out = append(out, f)
	}
	return out, nil
}

// readShared reads the shared index a split index names: in the git
// dir, or else beside the split index (a GIT_INDEX_FILE elsewhere), as
// git looks for it. Its checksum must be the name the split index
// gives it, as git requires.
func readShared(id oid.ID, path, gitDir string) ([]flatEntry, error) {
	name := "sharedindex." + id.String()
	f, fi, err := fsread.Open(filepath.Join(gitDir, name))
	if errors.Is(err, os.ErrNotExist) {
		f, fi, err = fsread.Open(filepath.Join(filepath.Dir(path), name))
	}
	if err != nil {
		return nil, fmt.Errorf("the shared index of this split index: %w", err)
	}
	defer f.Close()
	var sum oid.ID
	if fi.Size() < int64(len(sum)) {
		return nil, fmt.Errorf("the shared index %s is not an index file", f.Name())
	}
	if err := readFull(f, sum[:], int(fi.Size())-len(sum)); err != nil {
		return nil, err
	}
	if sum != id {
		return nil, fmt.Errorf("broken index, expected checksum %s in %s, got %s", id, f.Name(), hex.EncodeToString(sum[:]))
	}
	ents, link, err := decodeAll(f, fi.Size())
	if err != nil {
		return nil, fmt.Errorf("the shared index %s: %w", f.Name(), err)
	}
	if link != nil {
		return nil, fmt.Errorf("the shared index %s is itself split", f.Name())
	}
	return ents, nil
}

// expandDirs replaces each directory entry of a sparse index with the
// files of its tree, at stage 0, as git does before listing them.
func expandDirs(ents []flatEntry, files TreeFiles) ([]flatEntry, error) {
	if !slices.ContainsFunc(ents, func(f flatEntry) bool { return f.tree }) {
		return ents, nil
	}
	out := make([]flatEntry, 0, len(ents))
	for _, f := range ents {
		if !f.tree {
			out = append(out, f)
			continue
		}
		if f.stage != 0 || !strings.HasSuffix(f.path, "/") {
			return nil, fmt.Errorf("malformed sparse directory entry %q", f.path)
		}
		err := files(f.e.ID, func(p string, mode patch.Mode, id oid.ID) {
			out = append(out, flatEntry{path: f.path + p, e: Entry{Mode: mode, ID: id}})
		})
		if err != nil {
			return nil, fmt.Errorf("expanding the sparse directory %s: %w", f.path, err)
		}
	}
	return out, nil
}
