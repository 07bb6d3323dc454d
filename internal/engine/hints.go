package engine

import (
	"bytes"
	"context"
	"errors"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Elsewhere is what a failed edit finds in the other base (RunOptions
// Other): the working tree when edits resolve against the index, or
// the index when they resolve against the working tree. A user who
// edited a file and did not stage it, or a model that read the file
// from disk, sees an edit fail that the other base would take; saying
// so is the advice that helps. It is advice only: nothing recorded
// depends on it.
type Elsewhere struct {
	// Base names the other base: "worktree" or "index".
	Base string
	// Status is what the edit does there: Applied or AlreadyApplied,
	// or Failed when only its file is there (the edit named a path the
	// base lacks and the other base has).
	Status Status
	// OnlyThere: the base lacks the edit's file and the other base has
	// it, an untracked file (or one deleted from the working tree) that
	// the reply edits or creates and then edits.
	OnlyThere bool
}

// hintable reports whether the other base may explain o's failure: a
// text that is not in the file, or a file that is not in the base.
func hintable(o Outcome) bool {
	return o.Status == Failed && o.Err != nil && (errors.Is(o.Err, ErrNotFound) || errors.Is(o.Err, ErrNoFile))
}

// addElsewhere resolves ops again against other, when one of outs
// failed in a way other may explain, and notes in each such outcome's
// error what the edit does there. Only failed replies pay for it, and
// only when other holds one of their files otherwise (most often the
// working tree is the index: resolving again would repeat every
// failure, at the cost of the first resolution). A base that cannot be
// read there (a path its filters refuse) leaves the advice out; only
// the end of ctx is an error.
func addElsewhere(ctx context.Context, base, other Source, name string, ops []translate.Operation, opts Options, outs []Outcome) error {
	want := false
	for _, o := range outs {
		want = want || hintable(o)
	}
	if !want || sameFiles(ctx, base, other, ops, outs, opts.Limits) {
		return nil
	}
	opts.forAdvice = true
	res, err := ResolveContext(ctx, other, ops, opts)
	if err != nil {
		return ctx.Err()
	}
	for i := range outs {
		o := &outs[i]
		if !hintable(*o) || i >= len(res.Outcomes) {
			continue
		}
		there := res.Outcomes[i]
		if there.N != o.N || there.Path != o.Err.Path {
			// The edit took another file there (a name found by its
			// end, say): no claim about the one it named here.
			continue
		}
		_, err := base.Lookup(o.Err.Path)
		only := errors.Is(err, ErrNotExist) && isFile(other, o.Err.Path)
		switch {
		case there.Status == Applied || there.Status == AlreadyApplied:
			o.Err.Elsewhere = &Elsewhere{Base: name, Status: there.Status, OnlyThere: only}
		case errors.Is(o.Err, ErrNoFile) && only:
			o.Err.Elsewhere = &Elsewhere{Base: name, Status: Failed, OnlyThere: true}
		}
	}
	return nil
}

// isFile reports whether src holds a file that could be edited at p.
func isFile(src Source, p string) bool {
	e, err := src.Lookup(p)
	return err == nil && e.Mode.Editable()
}

// sameFiles reports whether every file ops name, or outs resolved them
// to, stands in base and in other alike (mode and content): ops then
// resolve in other as they did in base. A file either lacks is not
// taken as alike (a name may then be resolved from the base's list of
// paths, which other need not share). Sizes the two know without
// reading settle it first: files of two sizes differ, and one over
// limits' --max-file-size is taken as not alike unread, for the
// resolution against other to refuse it unread too (SPEC section 5).
func sameFiles(ctx context.Context, base, other Source, ops []translate.Operation, outs []Outcome, limits Limits) bool {
	seen := map[string]bool{}
	alike := func(p string) bool {
		if p == "" || seen[p] {
			return true
		}
		seen[p] = true
		a, errA := base.Lookup(p)
		b, errB := other.Lookup(p)
		if errA != nil || errB != nil || a.Mode != b.Mode {
			return false
		}
		sa, knownA, _ := sizeOf(base, p)
		sb, knownB, _ := sizeOf(other, p)
		if knownA && knownB && sa != sb || knownB && limits.checkSize(p, sb) != "" {
			return false
		}
		y, err := readContext(ctx, other, p)
		if err != nil {
			return false
		}
		if len(a.ID) == 40 {
			// The index knows its blob's name: no need to read it.
			return patch.BlobID(y) == a.ID
		}
		x, err := readContext(ctx, base, p)
		return err == nil && bytes.Equal(x, y)
	}
	for _, op := range ops {
		if !alike(op.Path) || !alike(op.NewPath) {
			return false
		}
	}
	for _, o := range outs {
		if !alike(o.Path) {
			return false
		}
	}
	return true
}
