package engine

import (
	"context"
	"errors"

	"github.com/git-llm-apply/git-llm-apply/translate"
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
// error what the edit does there. Only failed replies pay for it. A
// base that cannot be read there (a path its filters refuse) leaves
// the advice out; only the end of ctx is an error.
func addElsewhere(ctx context.Context, base, other Source, name string, ops []translate.Operation, opts Options, outs []Outcome) error {
	want := false
	for _, o := range outs {
		want = want || hintable(o)
	}
	if !want {
		return nil
	}
	opts.noSuggest = true
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
