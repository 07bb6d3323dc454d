package engine

import (
	"context"
	"errors"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// ErrInterrupted is what Run's error is (errors.Is) when its context
// ended first; the error is an *InterruptError.
var ErrInterrupted = errors.New("interrupted")

// InterruptError says where a cancelled Run stopped.
type InterruptError struct {
	// Cut is the Source of the reply whose work the cancellation
	// stopped, which records nothing; "" when Run stopped between two
	// replies.
	Cut string
	Err error // the context's error
}

func (e *InterruptError) Error() string {
	if e.Cut == "" {
		return "interrupted between replies"
	}
	return "interrupted in " + e.Cut
}

// Is makes errors.Is(err, ErrInterrupted) hold.
func (e *InterruptError) Is(target error) bool { return target == ErrInterrupted }

func (e *InterruptError) Unwrap() error { return e.Err }

// Phase is a step of the work on one reply, as RunOptions.Progress
// reports it.
type Phase string

// The phases of a reply, in order; a reply may stop after any of them.
const (
	PhaseParse   Phase = "parse"
	PhaseResolve Phase = "resolve"
	PhaseDiff    Phase = "diff"
	PhaseVerify  Phase = "verify"
	PhaseRecord  Phase = "record"
)

// stopped is the panic that unwinds a resolution from deep inside a
// loop over a file's lines when the context ends (see doc.each): the
// code between that loop and Resolve returns no errors, and everything
// it built is thrown away with the reply. Resolve recovers it, and only
// it.
type stopped struct{ err error }

// recoverStopped turns a stopped panic into *err; any other panic goes
// on.
func recoverStopped(err *error) {
	switch p := recover().(type) {
	case nil:
	case stopped:
		*err = p.err
	default:
		panic(p)
	}
}

// checkEvery is how many lines a loop over a file goes between two
// looks at the context: a few milliseconds of work.
const checkEvery = 1 << 14

// parseReply runs the reader, which knows no context. On cancellation
// it stops waiting and leaves the reader to finish on its own: the
// reader touches nothing but the reply's text, so nothing else can see
// it, and what it returns is dropped.
func parseReply(ctx context.Context, text string, opts translate.ParseOptions) (*translate.Reply, error, error) {
	type parsed struct {
		reply *translate.Reply
		err   error
	}
	done := make(chan parsed, 1)
	go func() {
		r, err := translate.Parse(text, opts)
		done <- parsed{r, err}
	}()
	select {
	case p := <-done:
		return p.reply, p.err, nil
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
}
