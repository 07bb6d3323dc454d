//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakKB is a finished process's peak resident memory in kilobytes, 0
// where the system does not say.
func peakKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) >> 10 // bytes on macOS
	}
	return int64(ru.Maxrss) // kilobytes on Linux and the BSDs
}
