package patch

// Work on the windows of a diff and the hunks of a verification, side
// by side on every processor when there is much of it.

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// sideBySide calls work(i) for every i below n: on as many goroutines
// as there are processors once n reaches from, else on this one. Each
// goroutine gets its own work from worker, so that it can keep scratch
// space of its own; the items are handed out a few at a time, in order.
func sideBySide(n, from int, worker func() func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n/max(from/2, 1))
	if n < from || workers < 2 {
		work := worker()
		for i := range n {
			work(i)
		}
		return
	}
	const batch = 8
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work := worker()
			for {
				at := int(next.Add(batch)) - batch
				if at >= n {
					return
				}
				for i := at; i < min(at+batch, n); i++ {
					work(i)
				}
			}
		}()
	}
	wg.Wait()
}
