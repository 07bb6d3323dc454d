//go:build !unix

package gitops

import "errors"

// mkfifo: Windows has no named pipes in the file system (the FIFO
// case does not run there).
func mkfifo(string) error { return errors.ErrUnsupported }
