// Command git-llm-apply applies the edits a language model writes, in
// any supported format, to a git repository: one commit per reply on a
// branch, without touching the user's checkout. See README.md.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/pprof"

	"github.com/git-llm-apply/git-llm-apply/internal/poll"
)

func main() {
	startLate()
	ctx, stop := signalContext()
	poll.Watch(ctx)
	code := profiled(func() int { return run(ctx, os.Args, "", os.Stdin, os.Stdout, os.Stderr) })
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

// profiled runs fn, writing the profiles the environment asks for, for
// `go tool pprof` (README, Performance): GIT_LLM_APPLY_CPUPROFILE=FILE
// a CPU profile of the run, GIT_LLM_APPLY_MEMPROFILE=FILE the memory
// profile at its end, whose alloc_space shows where each copy of a
// large input was made.
func profiled(fn func() int) int {
	cpu, mem := os.Getenv("GIT_LLM_APPLY_CPUPROFILE"), os.Getenv("GIT_LLM_APPLY_MEMPROFILE")
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			fmt.Fprintln(os.Stderr, "git-llm-apply:", err)
			return 2
		}
		defer f.Close()
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if mem != "" {
		// Every allocation, not a sample: the copies of one large input
		// are few and big, and a run is short.
		runtime.MemProfileRate = 1
	}
	code := fn()
	if mem != "" {
		runtime.GC() // the profile counts what the last collection saw
		f, err := os.Create(mem)
		if err == nil {
			err = pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "git-llm-apply:", err)
			return 2
		}
	}
	return code
}
