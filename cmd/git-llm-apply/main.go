// Command git-llm-apply applies the edits a language model writes, in
// any supported format, to a git repository: one commit per reply on a
// branch, without touching the user's checkout. See README.md.
package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

func main() {
	// GIT_LLM_APPLY_CPUPROFILE=FILE writes a CPU profile of the run, for
	// `go tool pprof` (README, Performance).
	if p := os.Getenv("GIT_LLM_APPLY_CPUPROFILE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "git-llm-apply:", err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(f)
		code := run(os.Args, os.Stdin, os.Stdout, os.Stderr)
		pprof.StopCPUProfile()
		f.Close()
		os.Exit(code)
	}
	os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
}
