package main

import (
	"context"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
)

// otherBase is the base a failed edit is tried against once more, for
// advice only (engine.RunOptions.Other): the working tree when edits
// resolve against the index, the index when they resolve against the
// working tree, none for a revision. It is opened on first use, so a
// run whose edits all resolve never reads it; one that cannot be
// opened (a bare repository) gives no advice.
func otherBase(repo *gitops.Repo, base string, src engine.Source) (engine.Source, string) {
	switch base {
	case "index":
		if repo.Root() == "" {
			return nil, ""
		}
		// The working tree lists its files by a stat of every path of
		// the index; advice need not pay for that. The index names
		// the same files and those deleted on disk, which Lookup
		// tells apart.
		return &lazySource{open: func() (engine.Source, error) {
			wt, err := repo.WorktreeSource()
			if err != nil {
				return nil, err
			}
			return listedBy{wt, src}, nil
		}}, "worktree"
	case "worktree":
		return &lazySource{open: repo.IndexSource}, "index"
	}
	return nil, ""
}

// listedBy is a Source whose Paths come from another one.
type listedBy struct {
	engine.Source
	list engine.Source
}

func (s listedBy) Paths() ([]string, error) { return s.list.Paths() }

// Size and ReadContext pass on what the embedded interface hides: a
// file over --max-file-size is refused unread for advice too, and its
// read stops with the run.
func (s listedBy) Size(p string) (int64, bool, error) { return sizeOf(s.Source, p) }

func (s listedBy) ReadContext(ctx context.Context, p string) ([]byte, error) {
	return readContext(ctx, s.Source, p)
}

// sizeOf is src's engine.Sizer, when it has one.
func sizeOf(src engine.Source, p string) (int64, bool, error) {
	if sz, ok := src.(engine.Sizer); ok {
		return sz.Size(p)
	}
	return 0, false, nil
}

// readContext reads p through src's engine.ContextReader, when it has
// one.
func readContext(ctx context.Context, src engine.Source, p string) ([]byte, error) {
	if c, ok := src.(engine.ContextReader); ok {
		return c.ReadContext(ctx, p)
	}
	return src.Read(p)
}

// lazySource opens its Source on first use.
type lazySource struct {
	open func() (engine.Source, error)
	src  engine.Source
	err  error
}

func (s *lazySource) get() (engine.Source, error) {
	if s.src == nil && s.err == nil {
		s.src, s.err = s.open()
	}
	return s.src, s.err
}

func (s *lazySource) Lookup(p string) (engine.Entry, error) {
	src, err := s.get()
	if err != nil {
		return engine.Entry{}, err
	}
	return src.Lookup(p)
}

func (s *lazySource) Read(p string) ([]byte, error) {
	src, err := s.get()
	if err != nil {
		return nil, err
	}
	return src.Read(p)
}

// Size is the opened Source's engine.Sizer, when it has one: a file
// over --max-file-size is not read for advice either.
func (s *lazySource) Size(p string) (int64, bool, error) {
	src, err := s.get()
	if err != nil {
		return 0, false, err
	}
	return sizeOf(src, p)
}

// ReadContext reads through the opened Source's engine.ContextReader,
// when it has one, so that an interrupt stops the read (SPEC section 2).
func (s *lazySource) ReadContext(ctx context.Context, p string) ([]byte, error) {
	src, err := s.get()
	if err != nil {
		return nil, err
	}
	return readContext(ctx, src, p)
}

func (s *lazySource) Paths() ([]string, error) {
	src, err := s.get()
	if err != nil {
		return nil, err
	}
	return src.Paths()
}
