package odb

import (
	"testing"
)

// FuzzApplyDelta: any base and delta apply without a panic, and a
// result has the size the delta declares. That the deltas git writes
// give git's own objects is TestReadObjectsPackedOfsDelta's and
// TestReadObjectsPackedRefDelta's (against git cat-file).
func FuzzApplyDelta(f *testing.F) {
	f.Add([]byte("hello, world\n"), []byte{13, 6, 0x90, 5, 1, '!'})
	f.Add([]byte("abc"), []byte{3, 3, 0x91, 0, 3})
	f.Add([]byte(""), []byte{0, 2, 2, 'h', 'i'})
	f.Add([]byte("xyz"), []byte{3, 4, 0x80})
	f.Fuzz(func(t *testing.T, base, delta []byte) {
		got, err := applyDelta(base, delta)
		if err != nil {
			return
		}
		_, rest, _ := deltaSize(delta)
		want, _, _ := deltaSize(rest)
		if uint64(len(got)) != want {
			t.Fatalf("result is %d bytes, the delta declares %d", len(got), want)
		}
	})
}
