package gitops

import (
	"os"

	"golang.org/x/sys/unix"
)

// writeOutFile is git_fsync's FSYNC_WRITEOUT_ONLY on macOS, where
// fsync writes out without flushing the disk's cache (os.File.Sync
// flushes it, with F_FULLFSYNC).
func writeOutFile(f *os.File) error {
	return onFD(f, unix.Fsync)
}
