package main

import (
	"errors"
	"fmt"

	"github.com/git-llm-apply/git-llm-apply/gitops"
	"github.com/git-llm-apply/git-llm-apply/translate"
)

// The exit statuses of SPEC section 2.
const (
	exitOK     = 0
	exitFailed = 1 // at least one edit failed
	exitUsage  = 2 // bad usage, unreadable input, no repository, no edit in a reply
	exitMoved  = 3 // the branch moved under us; nothing recorded
)

// exitError carries a status chosen where the error was made.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageError(format string, args ...any) error {
	return &exitError{exitUsage, fmt.Errorf(format, args...)}
}

// errEditsFailed is the quiet error of a run whose report already said
// what failed.
var errEditsFailed = &exitError{exitFailed, errors.New("some edits failed")}

// exitCode maps an error to the exit status: an *exitError carries its
// own; the others are told apart here by their kind.
func exitCode(err error) int {
	var ee *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, gitops.ErrRefMoved), errors.Is(err, gitops.ErrRefLocked):
		return exitMoved
	case errors.Is(err, translate.ErrNoEdits):
		return exitUsage
	}
	return exitUsage
}

// malformedReply reports whether a reply could not be read as its
// format at all: JSON tool calls that are not valid JSON are unreadable
// input (exit 2, SPEC section 2), not an edit that failed.
func malformedReply(err error) bool {
	var pe *translate.ParseError
	return errors.As(err, &pe) && pe.Format == translate.FormatToolCalls
}
