package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// exitCode gives every sentinel and error type its status of SPEC
// section 2, as it comes and wrapped the way commands wrap errors.
func TestExitCodeOfEverySentinel(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		err  error
		want int
	}{
		{"nil", nil, exitOK},
		{"errVersionShown", errVersionShown, exitOK},
		{"errEditsFailed", errEditsFailed, exitFailed},
		{"debrisError", &debrisError{findings: 2, files: 1}, exitFailed},
		{"turnFailedError", &turnFailedError{at: "log.jsonl#3"}, exitFailed},
		{"gitops.ErrRefMoved", gitops.ErrRefMoved, exitMoved},
		{"gitops.ErrRefLocked", gitops.ErrRefLocked, exitMoved},
		{"notRecorded", notRecorded(fmt.Errorf("%w: refs/heads/b", gitops.ErrRefMoved)), exitMoved},
		{"errInterrupted", errInterrupted, exitInterrupted},
		{"interruptedError", interruptedError(nil, []engine.Input{{Source: "r.md"}}, outputs{cut: "r.md"}, ""), exitInterrupted},
		{"engine.ErrInterrupted", &engine.InterruptError{Cut: "r.md"}, exitInterrupted},
		{"usageError", usageError("bad %s", "flag"), exitUsage},
		{"flagError", &flagError{err: errors.New("unknown option `x'")}, exitUsage},
		{"errNoEdit", errNoEdit, exitUsage},
		{"errMalformed", errMalformed, exitUsage},
		{"errOverLimit", errOverLimit, exitUsage},
		{"gitops.ErrNoRepository", gitops.ErrNoRepository, exitUsage},
		{"gitops.ErrUnsupportedRepository", gitops.ErrUnsupportedRepository, exitUsage},
		{"gitops.ErrBadAbbrev", gitops.ErrBadAbbrev, exitUsage},
		{"gitops.ErrUnknownRevision", gitops.ErrUnknownRevision, exitUsage},
		{"gitops.ErrUnbornHead", gitops.ErrUnbornHead, exitUsage},
		{"gitops.ErrBadBranchName", gitops.ErrBadBranchName, exitUsage},
		{"gitops.ErrBranchCheckedOut", gitops.ErrBranchCheckedOut, exitUsage},
		{"gitops.ErrWorktreePath", gitops.ErrWorktreePath, exitUsage},
		{"gitops.ErrMissingObject", gitops.ErrMissingObject, exitUsage},
		{"gitops.ErrConversion", gitops.ErrConversion, exitUsage},
		{"translate.ErrNoEdits", translate.ErrNoEdits, exitUsage},
		{"translate.ErrUnknownFormat", translate.ErrUnknownFormat, exitUsage},
		{"engine.ErrTooLarge", engine.ErrTooLarge, exitUsage},
		{"patch.ErrMismatch", patch.ErrMismatch, exitUsage},
		{"an error of no kind", errors.New("read base: input/output error"), exitUsage},
	}
	for _, c := range cases {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("exitCode(%s) = %d, want %d", c.name, got, c.want)
		}
		if c.err == nil {
			continue
		}
		if got := exitCode(fmt.Errorf("the commits are recorded on b, but %w", c.err)); got != c.want {
			t.Errorf("exitCode(%s wrapped) = %d, want %d", c.name, got, c.want)
		}
	}
}

// The statuses of SPEC section 2 are the shell's: a change of one is a
// change of the command's interface.
func TestExitStatuses(t *testing.T) {
	t.Parallel()
	if exitOK != 0 || exitFailed != 1 || exitUsage != 2 || exitMoved != 3 || exitInterrupted != 130 {
		t.Errorf("exit statuses %d %d %d %d %d, want 0 1 2 3 130", exitOK, exitFailed, exitUsage, exitMoved, exitInterrupted)
	}
}
