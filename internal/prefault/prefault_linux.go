package prefault

import (
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

var pageSize = uintptr(os.Getpagesize())

// touch asks the kernel to fault in the whole pages of b for writing
// (Linux 5.14 and later; before, the call fails and nothing happens).
// The call's error is ignored: every failure leaves the pages to be
// mapped as they are written.
func touch(b []byte) {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := (p + pageSize - 1) &^ (pageSize - 1)
	end := (p + uintptr(len(b))) &^ (pageSize - 1)
	if end > start {
		unix.Syscall(unix.SYS_MADVISE, start, end-start, unix.MADV_POPULATE_WRITE)
	}
}
