package engine

import "znkr.io/diff"

// maxBlankPairing bounds the table alignBlanks fills for one run of
// blank lines; a longer run keeps the diff's own pairing.
const maxBlankPairing = 1 << 16

// alignBlanks re-pairs the blank lines of an edit script of old to new
// (compared without trailing white space, so every blank line equals
// every other). Where the reply adds a blank line near one it keeps,
// the diff may pair the kept line with the added one, and the added
// line then takes the bytes of the kept one (8 spaces become 12).
// Between two kept lines that are not blank, every blank line of the
// side that has fewer is paired, as the diff pairs them, and the
// pairing that keeps the most lines whose white space is identical on
// both sides wins.
func alignBlanks(script []diff.Edit[string], old, new []string) []diff.Edit[string] {
	var out []diff.Edit[string] // nil until a run is paired anew
	from := 0
	settle := func(to int) {
		paired, changed := pairBlanks(script[from:to], old, new)
		switch {
		case out != nil:
			out = append(out, paired...)
		case changed:
			out = append(append(make([]diff.Edit[string], 0, len(script)), script[:from]...), paired...)
		}
	}
	for i, e := range script {
		if e.Op == diff.Match && !isBlank(old[e.PosX]) {
			if i > from {
				settle(i)
			}
			if out != nil {
				out = append(out, e)
			}
			from = i + 1
		}
	}
	if from < len(script) {
		settle(len(script))
	}
	if out == nil {
		return script
	}
	return out
}

// pairBlanks re-pairs the blank lines of run, a stretch of a script
// that matches no other line; changed is false when it keeps the
// diff's pairing, and run comes back as it was.
func pairBlanks(run []diff.Edit[string], old, new []string) (_ []diff.Edit[string], changed bool) {
	var blankX, blankY bool
	for _, e := range run {
		blankX = blankX || e.Op != diff.Insert && isBlank(old[e.PosX])
		blankY = blankY || e.Op != diff.Delete && isBlank(new[e.PosY])
	}
	if !blankX || !blankY {
		return run, false
	}
	var xs, ys []int // old and new lines of the run, in order
	var bx, by []int // the blank ones, as indexes into xs and ys
	same := 0        // pairs of identical lines the diff chose
	for _, e := range run {
		if e.Op != diff.Insert {
			if isBlank(old[e.PosX]) {
				bx = append(bx, len(xs))
			}
			xs = append(xs, e.PosX)
		}
		if e.Op != diff.Delete {
			if isBlank(new[e.PosY]) {
				by = append(by, len(ys))
			}
			ys = append(ys, e.PosY)
		}
		if e.Op == diff.Match && old[e.PosX] == new[e.PosY] {
			same++
		}
	}
	if len(bx) == 0 || len(by) == 0 || len(bx)*len(by) > maxBlankPairing {
		return run, false
	}
	pairs, best := bestPairing(len(bx), len(by), func(a, b int) bool { return old[xs[bx[a]]] == new[ys[by[b]]] })
	if best <= same {
		return run, false // nothing better than the diff's own choice
	}
	out := make([]diff.Edit[string], 0, len(run))
	a, b := 0, 0
	flush := func(toA, toB int) {
		for ; a < toA; a++ {
			out = append(out, diff.Edit[string]{Op: diff.Delete, PosX: xs[a], PosY: -1, X: old[xs[a]]})
		}
		for ; b < toB; b++ {
			out = append(out, diff.Edit[string]{Op: diff.Insert, PosX: -1, PosY: ys[b], Y: new[ys[b]]})
		}
	}
	for _, pr := range pairs {
		flush(bx[pr[0]], by[pr[1]])
		out = append(out, diff.Edit[string]{Op: diff.Match, PosX: xs[a], PosY: ys[b], X: old[xs[a]], Y: new[ys[b]]})
		a, b = a+1, b+1
	}
	flush(len(xs), len(ys))
	return out, true
}

// bestPairing pairs min(n, m) items of two sequences in order (the
// shorter one wholly) so that as many pairs as possible are equal by
// eq; it returns the pairs, in order, and how many are equal.
func bestPairing(n, m int, eq func(a, b int) bool) (pairs [][2]int, equal int) {
	if n > m {
		ps, e := bestPairing(m, n, func(a, b int) bool { return eq(b, a) })
		for i := range ps {
			ps[i][0], ps[i][1] = ps[i][1], ps[i][0]
		}
		return ps, e
	}
	// score[i][j]: the most equal pairs placing a[i:] into b[j:], all of
	// a[i:] paired; only m-j >= n-i is reachable.
	w := m + 1
	score := make([]int, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - (n - i); j >= 0; j-- {
			best := score[(i+1)*w+j+1]
			if eq(i, j) {
				best++
			}
			if m-j-1 >= n-i && score[i*w+j+1] > best {
				best = score[i*w+j+1]
			}
			score[i*w+j] = best
		}
	}
	for i, j := 0, 0; i < n; j++ {
		take := score[(i+1)*w+j+1]
		if eq(i, j) {
			take++
		}
		if m-j-1 >= n-i && score[i*w+j+1] > take {
			continue // b[j] stays unpaired
		}
		pairs = append(pairs, [2]int{i, j})
		i++
	}
	return pairs, score[0]
}
