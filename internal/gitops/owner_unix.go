//go:build unix

package gitops

import (
	"io/fs"
	"syscall"
)

// fileOwner is the user id owning fi.
func fileOwner(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Uid), true
}
