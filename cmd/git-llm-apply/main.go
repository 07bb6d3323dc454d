// Command git-llm-apply applies the edits a language model writes, in
// any supported format, to a git repository: one commit per reply on a
// branch, without touching the user's checkout. See README.md.
package main

import (
	"os"
	"runtime"
	"runtime/debug"

	"github.com/git-llm-apply/git-llm-apply/internal/poll"
	"github.com/git-llm-apply/git-llm-apply/internal/profile"
)

func main() {
	startLate()
	ctx, stop := signalContext()
	poll.Watch(ctx)
	code := profile.Run("git-llm-apply", func() int { return run(ctx, os.Args, "", os.Stdin, os.Stdout, os.Stderr) })
	poll.Report() // the test hook, when its variable is set
	stop()
	os.Exit(code)
}

// startLate lets the heap grow to 16 MB before the first garbage
// collection, and collects as usual from then on. A run's first
// collections come early, at 4 MB of heap, and most runs end before a
// fourth megabyte of garbage would matter: a 500-hunk check spent
// 1.5 ms of its 21 in them. Long files still have their garbage
// collected from 16 MB on, and their peak memory is as before. A
// GOGC the user set is left alone.
func startLate() {
	if _, set := os.LookupEnv("GOGC"); set {
		return
	}
	debug.SetGCPercent(400) // 4 MB, the first goal, times five
	// The finalizer runs once the first collection has found the
	// sentinel unreachable.
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) { debug.SetGCPercent(100) })
}

// sentinel is a heap object holding a pointer, so that the allocator
// does not pack it with others (a finalizer may not run on those).
type sentinel struct{ _ *int }
