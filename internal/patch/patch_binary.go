package patch

import (
	"bytes"
	"compress/zlib"
	"fmt"
)

// emptyDeflated is zlib's stream for no data. Go's writer ends with an
// extra empty stored block; using zlib's bytes keeps the common
// "literal 0" of a binary deletion identical to git's.
var emptyDeflated = []byte{0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01}

// writeLiteral writes one "literal" binary hunk holding data: its size,
// then the zlib stream in base85 lines of up to 52 bytes, then a blank
// line (emit_binary_diff_body). The deflated bytes differ from git's,
// which uses C zlib, but both inflate to the same data.
func writeLiteral(w *bytes.Buffer, data []byte) {
	fmt.Fprintf(w, "literal %d\n", len(data))
	z := emptyDeflated
	if len(data) > 0 {
		var zb bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&zb, zlib.BestSpeed) // git's core.loosecompression default
		zw.Write(data)
		zw.Close()
		z = zb.Bytes()
	}
	var line [1 + 65]byte
	for len(z) > 0 {
		n := min(len(z), 52)
		if n <= 26 {
			line[0] = byte('A' + n - 1)
		} else {
			line[0] = byte('a' + n - 27)
		}
		m := encode85(line[1:], z[:n])
		w.Write(line[:1+m])
		w.WriteByte('\n')
		z = z[n:]
	}
	w.WriteByte('\n')
}

// base85Alphabet is git's (base85.c), not Ascii85.
const base85Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// encode85 writes src to dst as git's encode_85 does, five characters
// per four bytes with the last group zero-padded, and returns the
// number of characters written.
func encode85(dst, src []byte) int {
	n := 0
	for len(src) > 0 {
		var acc uint32
		for i := 0; i < 4; i++ {
			acc <<= 8
			if i < len(src) {
				acc |= uint32(src[i])
			}
		}
		for i := 4; i >= 0; i-- {
			dst[n+i] = base85Alphabet[acc%85]
			acc /= 85
		}
		n += 5
		src = src[min(4, len(src)):]
	}
	return n
}
