package engine

import "znkr.io/diff"

// maxBlankPairing bounds the table pairBlanks fills for one run of
// blank lines; a longer run is paired line for line from its anchor.
const maxBlankPairing = 1 << 16

// alignBlanks pairs the blank lines of an edit script of old to new
// (compared without trailing white space, so that every blank line
// equals every other) by the script's alignment of the other lines
// (SPEC section 5). The lines the script matches that are not blank
// are the anchors, the lines the edit keeps; the top and bottom of the
// edit count as anchors too. A blank line keeps the file's bytes only
// when it stands in the same run of blank lines as an old one, next to
// the same anchor: a diff that matches blank lines across lines the
// edit rewrites (a blank line of an old method body with the one the
// reply writes between two new methods) would give the reply's line
// the bytes of a line that goes (12 spaces for 8). Between two
// anchors, the blank lines right below the upper one pair with each
// other, and those right above the lower one; when one side holds
// nothing but blank lines, they pair with either run. Within a run,
// the shorter side is paired wholly, and the pairing that keeps the
// most lines whose white space is identical on both sides wins.
func alignBlanks(script []diff.Edit[string], old, new []string) []diff.Edit[string] {
	var out []diff.Edit[string] // nil until a stretch is paired anew
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

// pairBlanks pairs the blank lines of run, the stretch of a script
// between two anchors, as alignBlanks says; changed is false when the
// script's own pairing is one of the best, and run comes back as it
// was.
func pairBlanks(run []diff.Edit[string], old, new []string) (_ []diff.Edit[string], changed bool) {
	var xs, ys []int // old and new lines of the run, in order
	for _, e := range run {
		if e.Op != diff.Insert {
			xs = append(xs, e.PosX)
		}
		if e.Op != diff.Delete {
			ys = append(ys, e.PosY)
		}
	}
	leadX, trailX := blankEnds(old, xs)
	leadY, trailY := blankEnds(new, ys)
	if leadX+trailX == 0 || leadY+trailY == 0 {
		// No blank line next to an anchor on one side: none pairs.
		for _, e := range run {
			if e.Op == diff.Match {
				return unpaired(xs, ys, old, new), true
			}
		}
		return run, false
	}
	// The groups of blank lines that pair, as indexes into xs and ys:
	// those below the upper anchor, then those above the lower one; a
	// side of nothing but blank lines is one group with both runs of
	// the other side.
	nx, ny := len(xs), len(ys)
	ends := func(lead, trail, n int) (top, bottom, both []int) {
		for i := range n {
			switch {
			case i < lead:
				top = append(top, i)
			case i >= n-trail:
				bottom = append(bottom, i)
			}
		}
		return top, bottom, append(append([]int(nil), top...), bottom...)
	}
	topX, botX, edgeX := ends(leadX, trailX, nx)
	topY, botY, edgeY := ends(leadY, trailY, ny)
	groups := [][2][]int{{topX, topY}, {botX, botY}}
	switch {
	case leadX == nx:
		groups = [][2][]int{{topX, edgeY}}
	case leadY == ny:
		groups = [][2][]int{{edgeX, topY}}
	}
	group := make([]int, nx+ny) // 1 + the group of each line, 0 for none
	var pairs [][2]int
	best := 0 // lines of identical white space the pairs keep
	for g, gr := range groups {
		gx, gy := gr[0], gr[1]
		for _, a := range gx {
			group[a] = g + 1
		}
		for _, b := range gy {
			group[nx+b] = g + 1
		}
		n, m := len(gx), len(gy)
		if n == 0 || m == 0 {
			continue
		}
		eq := func(a, b int) bool { return old[xs[gx[a]]] == new[ys[gy[b]]] }
		var ps [][2]int
		e := 0
		if n*m <= maxBlankPairing {
			ps, e = bestPairing(n, m, eq)
		} else {
			// Line for line from the anchor the run stands by.
			k := min(n, m)
			for i := range k {
				a, b := i, i
				if g > 0 {
					a, b = n-k+i, m-k+i
				}
				ps = append(ps, [2]int{a, b})
				if eq(a, b) {
					e++
				}
			}
		}
		for _, p := range ps {
			pairs = append(pairs, [2]int{gx[p[0]], gy[p[1]]})
		}
		best += e
	}
	if scriptPairs(run, old, new, len(pairs), best, func(a, b int) bool {
		return group[a] != 0 && group[a] == group[nx+b]
	}) {
		return run, false
	}
	out := make([]diff.Edit[string], 0, len(xs)+len(ys))
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
		flush(pr[0], pr[1])
		out = append(out, diff.Edit[string]{Op: diff.Match, PosX: xs[a], PosY: ys[b], X: old[xs[a]], Y: new[ys[b]]})
		a, b = a+1, b+1
	}
	flush(nx, ny)
	return out, true
}

// scriptPairs reports whether the script's own pairing of run is as
// good as the one pairBlanks found: as many pairs, each within a group
// (within says so, by the places of the two lines in the stretch's old
// and new lines), keeping as many
// lines of identical white space.
func scriptPairs(run []diff.Edit[string], old, new []string, pairs, identical int, within func(a, b int) bool) bool {
	a, b, n, same := 0, 0, 0, 0
	for _, e := range run {
		if e.Op == diff.Match {
			if !within(a, b) {
				return false
			}
			n++
			if old[e.PosX] == new[e.PosY] {
				same++
			}
		}
		if e.Op != diff.Insert {
			a++
		}
		if e.Op != diff.Delete {
			b++
		}
	}
	return n == pairs && same >= identical
}

// blankEnds counts the blank lines among lines[at[i]] that open and
// that close the list; both are len(at) when all are blank.
func blankEnds(lines []string, at []int) (lead, trail int) {
	for lead < len(at) && isBlank(lines[at[lead]]) {
		lead++
	}
	for trail < len(at) && isBlank(lines[at[len(at)-1-trail]]) {
		trail++
	}
	return lead, trail
}

// unpaired is the stretch of xs and ys with nothing kept: the old lines
// deleted, then the new ones inserted.
func unpaired(xs, ys []int, old, new []string) []diff.Edit[string] {
	out := make([]diff.Edit[string], 0, len(xs)+len(ys))
	for _, x := range xs {
		out = append(out, diff.Edit[string]{Op: diff.Delete, PosX: x, PosY: -1, X: old[x]})
	}
	for _, y := range ys {
		out = append(out, diff.Edit[string]{Op: diff.Insert, PosX: -1, PosY: y, Y: new[y]})
	}
	return out
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
