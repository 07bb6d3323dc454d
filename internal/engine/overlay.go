package engine

import (
	"context"
	"sort"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// overlay is a base with file changes laid over it: what the next reply
// of a run sees once the replies before it are recorded.
type overlay struct {
	base    Source
	files   map[string]overlayFile
	deleted map[string]bool
	// listed is the base's Paths, read once for the run: the base does
	// not change under it, and listing a large index is the costly part
	// of a name that is no path (a suffix search, path suggestions).
	listed []string
	listOK bool
}

type overlayFile struct {
	mode patch.Mode
	data []byte
}

func newOverlay(base Source) *overlay {
	return &overlay{base: base, files: map[string]overlayFile{}, deleted: map[string]bool{}}
}

func (o *overlay) apply(changes []patch.FileChange) {
	for _, c := range changes {
		if c.OldPath != "" {
			delete(o.files, c.OldPath)
			o.deleted[c.OldPath] = true
		}
		if c.NewPath != "" {
			delete(o.deleted, c.NewPath)
			o.files[c.NewPath] = overlayFile{c.NewMode, c.New}
		}
	}
}

func (o *overlay) Lookup(p string) (Entry, error) {
	if f, ok := o.files[p]; ok {
		return Entry{Mode: f.mode}, nil
	}
	if o.deleted[p] {
		return Entry{}, ErrNotExist
	}
	return o.base.Lookup(p)
}

func (o *overlay) Read(p string) ([]byte, error) {
	if f, ok := o.files[p]; ok {
		return f.data, nil
	}
	if o.deleted[p] {
		return nil, ErrNotExist
	}
	return o.base.Read(p)
}

// ReadContext reads from the base through its ContextReader when it
// has one.
func (o *overlay) ReadContext(ctx context.Context, p string) ([]byte, error) {
	if _, ok := o.files[p]; !ok && !o.deleted[p] {
		return readContext(ctx, o.base, p)
	}
	return o.Read(p)
}

// ReadAhead reads ahead from the base when it can (see AheadReader).
func (o *overlay) ReadAhead(ctx context.Context, p string) ([]byte, func() bool, error) {
	if _, ok := o.files[p]; !ok && !o.deleted[p] {
		if a, ok := o.base.(AheadReader); ok {
			return a.ReadAhead(ctx, p)
		}
	}
	data, err := o.ReadContext(ctx, p)
	return data, nil, err
}

// Size is the base's Sizer for a file the overlay leaves as it is.
func (o *overlay) Size(p string) (int64, bool, error) {
	if f, ok := o.files[p]; ok {
		return int64(len(f.data)), true, nil
	}
	if o.deleted[p] {
		return 0, false, nil
	}
	return sizeOf(o.base, p)
}

func (o *overlay) Paths() ([]string, error) {
	if !o.listOK {
		all, err := o.base.Paths()
		if err != nil {
			return nil, err
		}
		o.listed, o.listOK = all, true
	}
	all := o.listed
	if len(o.files) == 0 && len(o.deleted) == 0 {
		return all, nil
	}
	var out []string
	for _, p := range all {
		if _, ok := o.files[p]; !ok && !o.deleted[p] {
			out = append(out, p)
		}
	}
	for p := range o.files {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}
