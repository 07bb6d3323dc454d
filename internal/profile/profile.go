// Package profile writes the profiles the environment asks a run of
// git-llm-apply or git-llm-apply-mcp for (README, Performance).
package profile

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Run runs fn, the program prog's work, writing the profiles the environment asks for, for
// `go tool pprof` (README, Performance): GIT_LLM_APPLY_CPUPROFILE=FILE
// a CPU profile of the run, GIT_LLM_APPLY_MEMPROFILE=FILE the memory
// profile at its end, whose alloc_space shows where each copy of a
// large input was made.
func Run(prog string, fn func() int) int {
	cpu, mem := os.Getenv("GIT_LLM_APPLY_CPUPROFILE"), os.Getenv("GIT_LLM_APPLY_MEMPROFILE")
	if cpu != "" {
		f, err := os.Create(cpu)
		if err != nil {
			fmt.Fprintln(os.Stderr, prog+":", err)
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
			fmt.Fprintln(os.Stderr, prog+":", err)
			return 2
		}
	}
	return code
}
