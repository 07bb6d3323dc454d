package patch

import "bytes"

// similarity is the "similarity index" git prints for a rename from old
// to new: 100 for equal contents, else estimate_similarity of
// diffcore-rename.c, the share of the larger size made of chunks that
// both sides hold.
func similarity(old, new []byte) int {
	if bytes.Equal(old, new) {
		return 100
	}
	const maxScore = 60000 // MAX_SCORE in diffcore.h
	maxSize := uint64(max(len(old), len(new)))
	if maxSize == 0 {
		return 0
	}
	src, dst := spanCounts(old), spanCounts(new)
	var copied uint64
	for h, n := range src {
		copied += uint64(min(n, dst[h]))
	}
	score := copied * maxScore / maxSize
	return int(score * 100 / maxScore)
}

// spanCounts is hash_chars of diffcore-delta.c: data cut after each
// '\n' or every 64 bytes, each piece hashed, and the bytes counted per
// hash. A text file's CR before LF is skipped, and a last piece
// without '\n' is never counted, as in git.
func spanCounts(data []byte) map[uint32]uint64 {
	const hashBase = 107927
	text := !IsBinary(data)
	counts := make(map[uint32]uint64)
	var acc1, acc2 uint32
	n := uint64(0)
	for i, c := range data {
		if text && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		old1 := acc1
		acc1 = acc1<<7 ^ acc2>>25
		acc2 = acc2<<7 ^ old1>>25
		acc1 += uint32(c)
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(acc1+acc2*9)%hashBase] += n
		n, acc1, acc2 = 0, 0, 0
	}
	return counts
}
