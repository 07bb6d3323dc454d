package index

import (
	"encoding/binary"
	"errors"
	"slices"
	"testing"
)

// ewahOf serialises words as git does, with a bit count and the last
// run-length word's position, which the reader does not use.
func ewahOf(words ...uint64) []byte {
	b := binary.BigEndian.AppendUint32(nil, 0)
	b = binary.BigEndian.AppendUint32(b, uint32(len(words)))
	for _, w := range words {
		b = binary.BigEndian.AppendUint64(b, w)
	}
	return binary.BigEndian.AppendUint32(b, 0)
}

// rlw is a run-length word: a run of n words of bit, then lit literal
// words.
func rlw(bit uint64, n, lit uint64) uint64 { return bit | n<<1 | lit<<33 }

func TestEWAHBits(t *testing.T) {
	tests := []struct {
		name string
		data []byte
		want []int
	}{
		{"empty", ewahOf(), nil},
		{"one literal", ewahOf(rlw(0, 0, 1), 1<<0|1<<5|1<<63), []int{0, 5, 63}},
		{"zeros then a literal", ewahOf(rlw(0, 2, 1), 1<<1), []int{129}},
		{"a run of ones", ewahOf(rlw(1, 1, 0)), seq(0, 64)},
		{"two run-length words", ewahOf(rlw(0, 0, 1), 1, rlw(1, 1, 1), 1<<2), append(append([]int{0}, seq(64, 128)...), 130)},
	}
	for _, tc := range tests {
		var got []int
		n, err := ewahBits(append(tc.data, "tail"...), func(pos int) error { got = append(got, pos); return nil })
		if err != nil || n != len(tc.data) || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, size %d (want %d), %v; want %v", tc.name, got, n, len(tc.data), err, tc.want)
		}
	}
	for name, bad := range map[string][]byte{
		"short":               []byte("12345678901"),
		"more words than fit": ewahOf(rlw(0, 0, 1), 1)[:20],
		"literals past end":   ewahOf(rlw(0, 0, 2), 1),
	} {
		if _, err := ewahBits(bad, func(int) error { return nil }); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	// A run of 2^32-1 words of ones stops at the first position the
	// caller refuses.
	stop, calls := errors.New("past the index"), 0
	if _, err := ewahBits(ewahOf(rlw(1, 1<<32-1, 0)), func(pos int) error {
		if calls++; pos >= 10 {
			return stop
		}
		return nil
	}); err != stop || calls != 11 {
		t.Errorf("a huge run: %v after %d calls", err, calls)
	}
}

func seq(from, to int) []int {
	var s []int
	for i := from; i < to; i++ {
		s = append(s, i)
	}
	return s
}

// FuzzEWAHBits: no panic, positions strictly increasing, and the size
// returned within the input.
func FuzzEWAHBits(f *testing.F) {
	f.Add(ewahOf(rlw(0, 2, 1), 1<<1))
	f.Add(ewahOf(rlw(1, 3, 1), 7, rlw(0, 1, 0)))
	f.Fuzz(func(t *testing.T, data []byte) {
		last := -1
		n, err := ewahBits(data, func(pos int) error {
			if pos <= last {
				t.Fatalf("position %d after %d", pos, last)
			}
			if last = pos; pos > 1<<20 {
				return errors.New("enough")
			}
			return nil
		})
		if err == nil && (n < 12 || n > len(data)) {
			t.Fatalf("size %d of %d bytes", n, len(data))
		}
	})
}
