package gitops

import (
	"os"

	"golang.org/x/sys/unix"
)

// writeOutFile is git_fsync's FSYNC_WRITEOUT_ONLY on Linux: the
// whole file written out and waited for, the disk's cache not flushed.
func writeOutFile(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	err = rc.Control(func(fd uintptr) {
		serr = unix.SyncFileRange(int(fd), 0, 0,
			unix.SYNC_FILE_RANGE_WAIT_BEFORE|unix.SYNC_FILE_RANGE_WRITE|unix.SYNC_FILE_RANGE_WAIT_AFTER)
	})
	if err != nil {
		return err
	}
	return serr
}
