// Package poll is how work on one large file looks at its context:
// reading, inflating, hashing and indexing go a step of a few
// megabytes at a time and look between two steps, so that an interrupt
// stops them within moments whatever the file's size (SPEC section 2).
//
// A test hook counts the bytes: with GIT_LLM_APPLY_TEST_POLL naming a
// file, Begin appends "begin WHAT SIZE" to it when a long piece of work
// starts, and Report appends what was processed before and after the
// context ended, so that a test knows when to signal a process and what
// it did afterwards without measuring a duration.
package poll

import (
	"context"
	"fmt"
	"os"
	"sync/atomic"
)

// Step is the most a loop over a file's bytes does between two looks
// at its context: a few milliseconds of inflating or hashing.
const Step = 4 << 20

// hookEnv names the test hook's file.
const hookEnv = "GIT_LLM_APPLY_TEST_POLL"

var (
	processed atomic.Int64 // bytes of the steps begun, in every loop
	atStop    atomic.Int64 // processed when the watched context ended; -1 before
	looks     atomic.Int64

	// watched and noted let Report wait for Watch's note: AfterFunc
	// runs it in a goroutine of its own, which a process interrupted
	// and on its way out may not have scheduled yet.
	watched context.Context
	noted   = make(chan struct{})
)

func init() { atStop.Store(-1) }

// Check is the look before a step of n bytes: ctx's error, or nil and
// the step counted as begun.
func Check(ctx context.Context, n int) error {
	looks.Add(1)
	if err := ctx.Err(); err != nil {
		return err
	}
	processed.Add(int64(n))
	return nil
}

// Begin tells the test hook that work on size bytes starts (what says
// which: "read", "inflate", "hash", "index"), when size is more than a
// step.
func Begin(what string, size int) {
	if size > Step {
		hook(fmt.Sprintf("begin %s %d\n", what, size))
	}
}

// Watch notes how much had been processed when ctx ends, for Report.
func Watch(ctx context.Context) {
	watched = ctx
	context.AfterFunc(ctx, func() {
		atStop.CompareAndSwap(-1, processed.Load())
		close(noted)
	})
}

// Report tells the test hook the bytes of the steps begun in all, and
// when the watched context ended (-1: it did not), and the looks.
func Report() {
	if os.Getenv(hookEnv) == "" {
		return
	}
	if watched != nil && watched.Err() != nil {
		<-noted
	}
	hook(fmt.Sprintf("processed %d at-stop %d looks %d\n", processed.Load(), atStop.Load(), looks.Load()))
}

func hook(line string) {
	name := os.Getenv(hookEnv)
	if name == "" {
		return
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	f.WriteString(line)
	f.Close()
}
