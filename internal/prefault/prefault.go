// Package prefault maps the pages of a large buffer about to be filled
// in one system call, where the system has one (Linux's
// MADV_POPULATE_WRITE), rather than a page fault a page as the filling
// first writes each page. On some machines a page fault is the dearest
// part of filling memory fresh from the system: in the virtual machine
// where the benchmarks run, a fault costs 10-18 microseconds, so a
// 2.3 MB file read into a new buffer took 10 ms, of which the copy
// itself was a fraction, and half that with its pages mapped at once.
package prefault

// Min is the length from which Touch maps a buffer's pages: below it
// there are too few pages for a system call to save anything.
const Min = 64 << 10

// Touch maps the pages that lie whole within b, writable, before b is
// written, leaving b's content as it is (a page already mapped is
// left alone). It is only advice: where the system cannot, or b is
// shorter than Min, it does nothing and the pages are mapped as they
// are first written.
func Touch(b []byte) {
	if len(b) >= Min {
		touch(b)
	}
}

// Make returns make([]byte, n), its pages mapped by Touch; n of any
// integer type, as make takes it (a length out of range panics as
// make's does, never wraps).
func Make[N ~int | ~int64 | ~uint64](n N) []byte {
	b := make([]byte, n)
	Touch(b)
	return b
}
