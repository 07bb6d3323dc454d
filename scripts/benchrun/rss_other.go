//go:build !unix

package main

import "os"

// peakKB: Windows' process state has no peak memory; 0 is "not known".
func peakKB(*os.ProcessState) int64 { return 0 }
