//go:build linux || darwin

package gitops

import "os"

// onFD calls do with f's descriptor, held open meanwhile.
func onFD(f *os.File, do func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var derr error
	if err := rc.Control(func(fd uintptr) { derr = do(int(fd)) }); err != nil {
		return err
	}
	return derr
}
