//go:build !unix

package main

import "os"

// peakRSSKiB: Windows' process state has no peak memory.
func peakRSSKiB(*os.ProcessState) int64 { return -1 }
