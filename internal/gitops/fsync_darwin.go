package gitops

import (
	"os"

	"golang.org/x/sys/unix"
)

// writeOutFile is git_fsync's FSYNC_WRITEOUT_ONLY on macOS, where
// fsync writes out without flushing the disk's cache (os.File.Sync
// flushes it, with F_FULLFSYNC).
func writeOutFile(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	err = rc.Control(func(fd uintptr) { serr = unix.Fsync(int(fd)) })
	if err != nil {
		return err
	}
	return serr
}
