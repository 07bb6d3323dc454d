//go:build !unix

package engine

import "time"

// cpuTime is not measured here: the sweep reports 0.
func cpuTime() time.Duration { return 0 }
