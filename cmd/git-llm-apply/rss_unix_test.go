//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSSKiB is a finished process's peak resident memory in KiB, -1
// where the system does not say.
func peakRSSKiB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return -1
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) >> 10 // bytes on macOS
	}
	return int64(ru.Maxrss) // KiB on Linux and the BSDs
}
