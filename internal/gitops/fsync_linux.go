package gitops

import (
	"os"

	"golang.org/x/sys/unix"
)

// writeOutFile is git_fsync's FSYNC_WRITEOUT_ONLY on Linux: the
// whole file written out and waited for, the disk's cache not flushed.
func writeOutFile(f *os.File) error {
	return onFD(f, func(fd int) error {
		return unix.SyncFileRange(fd, 0, 0,
			unix.SYNC_FILE_RANGE_WAIT_BEFORE|unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER)
	})
}
