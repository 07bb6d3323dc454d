package prefault

import (
	"bytes"
	"testing"
)

// Touch leaves a buffer's bytes as they are, whatever its length and
// alignment, and Make's buffer is zeroed.
func TestTouchKeepsContent(t *testing.T) {
	for _, tc := range []struct{ n, off int }{{0, 0}, {100, 3}, {Min, 0}, {Min + 5000, 1}, {3 << 20, 4095}} {
		buf := make([]byte, tc.n+tc.off)
		for i := range buf {
			buf[i] = byte(i*7 + 1)
		}
		want := bytes.Clone(buf)
		Touch(buf[tc.off:])
		if !bytes.Equal(buf, want) {
			t.Errorf("Touch changed a buffer of %d bytes at offset %d", tc.n, tc.off)
		}
		if b := Make(tc.n); len(b) != tc.n || bytes.Count(b, []byte{0}) != tc.n {
			t.Errorf("Make(%d): %d bytes, not all zero", tc.n, len(b))
		}
	}
}
