package index

// EWAH-compressed bitmaps, as git serialises them (ewah/ewah_io.c) in
// a split index's link extension.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// ewahBits calls fn with the position of each set bit of the bitmap at
// the start of b, in increasing order, and returns the bitmap's size
// in bytes; an error of fn stops it. The layout: the number of bits
// (32 bits, unused here), the number of 64-bit words (32 bits), the
// words, and the position of the last run-length word (32 bits). Each
// run-length word says, in bit 0, which bit a run repeats, in bits
// 1-32 how many words the run fills, and in bits 33-63 how many
// literal words follow it; a literal word's bits count from its least
// significant one (ewah_each_bit).
func ewahBits(b []byte, fn func(pos int) error) (int, error) {
	if len(b) < 12 {
		return 0, errors.New("too short")
	}
	words := uint64(binary.BigEndian.Uint32(b[4:]))
	if words > uint64(len(b)-12)/8 {
		return 0, fmt.Errorf("%d words do not fit in %d bytes", words, len(b))
	}
	size := 8 + 8*int(words) + 4
	word := func(i int) uint64 { return binary.BigEndian.Uint64(b[8+8*i:]) }
	pos := 0
	for i := 0; i < int(words); {
		rlw := word(i)
		i++
		run := int(rlw>>1&0xffffffff) * 64
		if rlw&1 != 0 {
			// fn bounds this: a position past the index is an error.
			for end := pos + run; pos < end; pos++ {
				if err := fn(pos); err != nil {
					return 0, err
				}
			}
		} else {
			pos += run
		}
		literals := int(rlw >> 33)
		if literals > int(words)-i {
			return 0, fmt.Errorf("%d literal words past the end", literals)
		}
		for ; literals > 0; literals-- {
			for w := word(i); w != 0; w &= w - 1 {
				if err := fn(pos + bits.TrailingZeros64(w)); err != nil {
					return 0, err
				}
			}
			pos += 64
			i++
		}
	}
	return size, nil
}
