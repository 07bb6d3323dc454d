//go:build unix

package translate

import (
	"syscall"
	"time"
)

// cpuTime is the processor time the process has used, user and
// system: on a busy machine it moves far less than the wall clock.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
