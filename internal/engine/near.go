package engine

import (
	"math"
	"sort"
)

// nearIndex lists, for every token of the file's lines (a run of
// letters, digits and underscores, or of other non-space characters),
// the lines that hold it, so that the places most like a pattern an
// edit did not find are found from the pattern's rarest tokens instead
// of by comparing the pattern with every window of the file. Tokens are
// hashed into buckets (a collision only adds a weak vote), kept as one
// array per bucket: a million-line file costs a few tens of megabytes.
// Like a view, it is built once and follows the file's edits.
type nearIndex struct {
	shift uint32  // a token's bucket is the top bits of its mixed hash
	off   []int32 // the lines of bucket b are post[off[b]:off[b+1]]
	post  []int32 // doc lines when the index was built
	built int     // length of the doc's edit log then
	added map[uint32][]addedLine
}

// The closest-place search's budget, in postings visited (each costing
// one more for every edit since the index was built): nearEditWork for
// one failing edit, and nearFileWork plus 8 a line for all the failing
// edits of one file and building its index. Past it, failures are
// reported without their closest lines, so that a hostile reply is
// reported quickly rather than searched thoroughly.
const nearEditWork = 1 << 15

// nearFileWork is a variable so that tests can spend it quickly.
var nearFileWork = 1 << 23

// maxLineToks bounds the tokens of one line the index holds.
const maxLineToks = 64

// smallScan bounds the windows times pattern bytes below which every
// window is compared instead of searched for.
const smallScan = 1 << 16

// nearWork counts what closest-place searches did in one file.
type nearWork struct {
	indexed int // lines tokenized to build the index or follow edits
	visited int // cost of the postings visited
	scored  int // windows compared character by character
	spent   bool
}

func buildNearIndex(d *doc) *nearIndex {
	bits := uint32(12)
	for 1<<bits < d.len() && bits < 22 {
		bits++
	}
	buckets := 1 << bits
	x := &nearIndex{shift: 32 - bits, off: make([]int32, buckets+1), built: len(d.log), added: map[uint32][]addedLine{}}
	var toks []uint32
	d.each(0, func(_ int, l string) bool {
		toks = x.tokens(trimEOL(l), toks[:0])
		for _, b := range toks {
			x.off[b+1]++
		}
		return true
	})
	for b := 1; b <= buckets; b++ {
		x.off[b] += x.off[b-1]
	}
	x.post = make([]int32, x.off[buckets])
	fill := append([]int32(nil), x.off[:buckets]...)
	d.each(0, func(i int, l string) bool {
		toks = x.tokens(trimEOL(l), toks[:0])
		for _, b := range toks {
			x.post[fill[b]] = int32(i)
			fill[b]++
		}
		return true
	})
	return x
}

// tokens appends the distinct buckets of line's tokens to out.
func (x *nearIndex) tokens(line string, out []uint32) []uint32 {
	line = foldTypography(line)
	for i := 0; i < len(line) && len(out) < maxLineToks; {
		c := line[i]
		if isSpaceByte(c) {
			i++
			continue
		}
		word := isWordByte(c)
		h := uint32(2166136261) // FNV-1a
		for ; i < len(line) && !isSpaceByte(line[i]) && isWordByte(line[i]) == word; i++ {
			h = (h ^ uint32(line[i])) * 16777619
		}
		b := (h * 2654435769) >> x.shift // Fibonacci hashing spreads FNV's low bits
		seen := false
		for _, o := range out {
			if o == b {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, b)
		}
	}
	return out
}

func isSpaceByte(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' }

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// note indexes the lines that log entry entry added.
func (x *nearIndex) note(entry int, lines []string) {
	var toks []uint32
	for j, l := range lines {
		toks = x.tokens(trimEOL(l), toks[:0])
		for _, b := range toks {
			x.added[b] = append(x.added[b], addedLine{entry, j})
		}
	}
}

func (x *nearIndex) count(b uint32) int {
	return int(x.off[b+1]-x.off[b]) + len(x.added[b])
}

// where calls fn with every line of d that holds a token of bucket b
// now.
func (x *nearIndex) where(d *doc, b uint32, fn func(line int)) {
	for _, p := range x.post[x.off[b]:x.off[b+1]] {
		if c, ok := d.forward(int(p), x.built); ok {
			fn(c)
		}
	}
	for _, a := range x.added[b] {
		if c, ok := d.forward(d.log[a.entry].at+a.off, a.entry+1); ok {
			fn(c)
		}
	}
}

// workLeft is what the file's budget for closest-place searches has
// left.
func (m *matcher) workLeft() int {
	return nearFileWork + 8*m.d.len() - m.work.visited - m.work.indexed
}

// nearIndex returns the file's token index, building it when the budget
// allows; ok is false when it does not.
func (m *matcher) nearIndex() (*nearIndex, bool) {
	if m.near == nil {
		if m.workLeft() < m.d.len() {
			m.work.spent = true
			return nil, false
		}
		m.near = buildNearIndex(m.d)
		m.work.indexed += m.d.len()
	}
	return m.near, true
}

// tokenWeights returns the distinct token buckets of lines with their
// weights: rarer in the file, heavier (a token the file lacks weighs
// the most).
func (x *nearIndex) tokenWeights(lines []string, fileLines int) map[uint32]float64 {
	out := map[uint32]float64{}
	var toks []uint32
	for _, l := range lines {
		toks = x.tokens(l, toks[:0])
		for _, b := range toks {
			out[b] = math.Log(1 + float64(fileLines)/float64(1+x.count(b)))
		}
	}
	return out
}

// tokenShare is the part of weights (as tokenWeights gives them) that
// the tokens of lines hold.
func (x *nearIndex) tokenShare(weights map[uint32]float64, lines []string) float64 {
	var toks []uint32
	seen := map[uint32]bool{}
	for _, l := range lines {
		toks = x.tokens(l, toks[:0])
		for _, b := range toks {
			seen[b] = true
		}
	}
	var have, all float64
	for b, w := range weights {
		all += w
		if seen[b] {
			have += w
		}
	}
	if all == 0 {
		return 0
	}
	return have / all
}

// scansAll reports whether a search for pattern compares every window
// of the file: a small file's, as cheaply as building an index would
// be.
func (m *matcher) scansAll(pattern []string) bool {
	n := min(len(pattern), m.d.len())
	return (m.d.len()-n+1)*len(joinTrimmed(pattern)) <= smallScan
}

// tokenVoted returns up to keep starts of windows of n lines, most
// voted first: windows are voted for by the lines holding the
// pattern's tokens, rarest tokens first and weighted by their rarity,
// spending at most budget postings. used is what the votes cost; cut
// says that tokens were left out for want of budget; ok is false when
// the file's budget allows no index.
func (m *matcher) tokenVoted(pattern []string, n, keep, budget int) (starts []int, used int, cut, ok bool) {
	x, ok := m.nearIndex()
	if !ok {
		return nil, 0, false, false
	}
	// Which pattern lines hold each token.
	lines := map[uint32][]int{}
	var toks []uint32
	for i, l := range pattern {
		toks = x.tokens(l, toks[:0])
		for _, b := range toks {
			lines[b] = append(lines[b], i)
		}
	}
	type tok struct {
		b     uint32
		count int
	}
	order := make([]tok, 0, len(lines))
	for b := range lines {
		if c := x.count(b); c > 0 {
			order = append(order, tok{b, c})
		}
	}
	sort.Slice(order, func(i, j int) bool {
		if order[i].count != order[j].count {
			return order[i].count < order[j].count
		}
		return order[i].b < order[j].b
	})
	step := 1 + len(m.d.log) - x.built // forwarding a posting through the edits since
	last := m.d.len() - n
	votes := map[int]float64{}
	for _, t := range order {
		is := lines[t.b]
		cost := t.count * step * len(is)
		if cost > budget-used {
			cut = true
			break // the rest are commoner still
		}
		used += cost
		weight := math.Log(1 + float64(m.d.len())/float64(t.count))
		x.where(m.d, t.b, func(c int) {
			for _, i := range is {
				votes[min(max(c-i, 0), last)] += weight
			}
		})
	}
	return topVoted(votes, keep), used, cut, true
}

// topVoted returns the keep starts with the most votes, most first
// (the earlier of two equal ones first), without sorting them all.
func topVoted(votes map[int]float64, keep int) []int {
	if keep <= 0 {
		return nil
	}
	better := func(a, b int) bool {
		if votes[a] != votes[b] {
			return votes[a] > votes[b]
		}
		return a < b
	}
	top := make([]int, 0, keep+1)
	for s := range votes {
		if len(top) == keep && !better(s, top[keep-1]) {
			continue
		}
		i := len(top)
		top = append(top, s)
		for i > 0 && better(s, top[i-1]) {
			top[i] = top[i-1]
			i--
		}
		top[i] = s
		if len(top) > keep {
			top = top[:keep]
		}
	}
	return top
}
