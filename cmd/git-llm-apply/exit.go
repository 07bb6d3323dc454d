package main

import (
	"errors"
	"fmt"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// The exit statuses of SPEC section 2.
const (
	exitOK          = 0
	exitFailed      = 1   // at least one edit failed
	exitUsage       = 2   // bad usage, unreadable input, no repository, no edit in a reply
	exitMoved       = 3   // the branch moved under us; nothing recorded
	exitShortHelp   = 129 // -h printed the short usage, as git's parse-options exits
	exitInterrupted = 130 // the shell's status for a run stopped by SIGINT
)

// The errors a command ends with that say what its replies earned;
// their messages are what run prints (errEditsFailed and
// errVersionShown print nothing).
var (
	// errEditsFailed ends a run whose report already said what failed.
	errEditsFailed = errors.New("some edits failed")
	// errVersionShown ends a run whose --version flag has printed the
	// version: the command named beside it is not run, as git
	// --version ignores what follows it.
	errVersionShown = errors.New("version shown")
	errNoEdit       = errors.New("no edit found")
	errMalformed    = errors.New("a reply is malformed")
	errOverLimit    = errors.New("a reply is over a limit (see the flags --max-*)")
	// errInterrupted starts the message of a run an interrupt stopped.
	errInterrupted = errors.New("interrupted")
)

// usageErr is bad usage found by the command itself: a flag value, an
// argument, a path that cannot be read.
type usageErr struct{ err error }

func (e *usageErr) Error() string { return e.err.Error() }
func (e *usageErr) Unwrap() error { return e.err }

func usageError(format string, args ...any) error {
	return &usageErr{fmt.Errorf(format, args...)}
}

// exitCode maps the error a command ended with to the exit status; it
// is the one place that does. An error no case names is one of the
// inputs or the repository (a base that cannot be read, say): 2, as
// SPEC section 2 gives unreadable input.
func exitCode(err error) int {
	var (
		usage   *usageErr
		flag    *flagError
		help    shortHelp
		unknown *unknownCommandError
		debris  *debrisError
		stopped *turnFailedError
		child   *childExit
	)
	switch {
	case err == nil, errors.Is(err, errVersionShown):
		return exitOK
	case errors.As(err, &child):
		return child.code // the MCP server's, run as a child: it said why itself
	case errors.As(err, &help):
		return exitShortHelp
	case errors.Is(err, errInterrupted), errors.Is(err, engine.ErrInterrupted):
		return exitInterrupted
	case errors.Is(err, errEditsFailed), errors.As(err, &debris), errors.As(err, &stopped):
		return exitFailed
	case errors.Is(err, gitops.ErrRefMoved), errors.Is(err, gitops.ErrRefLocked):
		return exitMoved
	case errors.As(err, &usage), errors.As(err, &flag), errors.As(err, &unknown),
		errors.Is(err, errNoEdit), errors.Is(err, errMalformed), errors.Is(err, errOverLimit),
		errors.Is(err, gitops.ErrNoRepository), errors.Is(err, gitops.ErrUnsupportedRepository),
		errors.Is(err, gitops.ErrDubiousOwnership),
		errors.Is(err, gitops.ErrBadAbbrev), errors.Is(err, gitops.ErrUnknownRevision),
		errors.Is(err, gitops.ErrUnbornHead), errors.Is(err, gitops.ErrBadBranchName),
		errors.Is(err, gitops.ErrBranchCheckedOut), errors.Is(err, gitops.ErrWorktreePath),
		errors.Is(err, gitops.ErrMissingObject), errors.Is(err, gitops.ErrConversion),
		errors.Is(err, gitops.ErrSign),
		errors.Is(err, translate.ErrNoEdits), errors.Is(err, translate.ErrUnknownFormat),
		errors.Is(err, engine.ErrTooLarge), errors.Is(err, patch.ErrMismatch):
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
