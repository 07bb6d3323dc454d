// Command git-llm-apply applies the edits a language model writes, in
// any supported format, to a git repository: one commit per reply on a
// branch, without touching the user's checkout. See README.md.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

func main() {
	ctx, stop := signalContext()
	code := profiled(func() int { return run(ctx, os.Args, "", os.Stdin, os.Stdout, os.Stderr) })
	stop()
	os.Exit(code)
}

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
