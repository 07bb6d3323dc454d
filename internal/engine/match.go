package engine

import (
	"hash/maphash"
	"math/bits"
	"slices"
	"sort"
	"strings"
)

// view is a file's lines as one rung compares them, indexed by key so
// that finding a pattern costs the occurrences of its rarest line, not
// a scan of the file. The index is built at most once per file and
// follows the file's edits: it holds the ids of lines, which the doc
// maps to where they stand now, and lines added since are indexed as
// they arrive.
//
// The index is a sorted list of the 64-bit hashes of the keys, each
// with its line's id, rather than a map from keys: for a file of a
// million lines the map's entries and their slices cost hundreds of
// milliseconds and several times the file's memory, the list a radix
// sort and twelve bytes a line. Hashes are seeded at random and the
// index is built again with another seed in the unlikely case that two
// different keys of the file share one, so that the lines of a hash are
// exactly the lines of its key.
//
// The index is built when first needed, not with the view: at the
// rungs whose keys are parts of the lines, a view's first finds scan
// the file instead (see matcher.find), which for a reply of a few edits
// to a long file costs a fraction of the index.
//
// When the matcher knows the lines the reply looks for in the file
// (matcher.want), the index holds only the lines whose keys hash as one
// of theirs: the others could only answer a lookup of a key outside
// them, and such a lookup has the index built whole first. A reply of
// 500 hunks to a 50,000-line file looks for 3,500 lines; hashing every
// line and keeping those costs a third of indexing them all.
//
// At the comments rungs of a language whose comments span lines, a
// line's key depends on the lines before it (is it inside a block
// comment?), so such a view keeps every line's key and is built again
// when the file has changed since.
type view struct {
	key  normalizer // for a view whose keys carry no state
	rung Rung
	lang string
	skip bool // blank lines (by key) are not indexed
	// hashes are the hashes of the keys of the lines when the view was
	// built, sorted, and ids[i] the id of the line of hashes[i] (see
	// doc.where), the lines of one hash in file order; nil until built.
	hashes []uint64
	ids    []int
	seed   maphash.Seed
	built  int // length of the doc's edit log then
	added  map[string][]addedLine
	keys   []string // every line's key, for a view whose keys carry state
	scans  int      // finds made by scanning the file, before the index
	// want is the lines the reply looks for (see matcher.want), and
	// wanted their keys while the index holds only the lines whose
	// keys pass it; nil when it holds every line.
	want   [][]string
	wanted *keyFilter
}

// addedLine is line off of the lines that log entry entry added.
type addedLine struct{ entry, off int }

// maxScans is how many finds a view answers by scanning the file before
// it builds its index: building costs tens of scans (a map entry and a
// key per line).
const maxScans = 8

func newView(d *doc, r Rung, lang string) *view {
	v := &view{rung: r, lang: lang, skip: r.skipsBlank()}
	if r >= RungComments && languages[lang].spansLines() {
		v.index(d) // keys that carry state are computed in one pass anyway
	} else {
		v.key = keyFunc(r, lang)
	}
	return v
}

// index builds the view's index of d, if it has none.
func (v *view) index(d *doc) {
	if v.hashes != nil {
		return
	}
	v.built, v.added = len(d.log), map[string][]addedLine{}
	stateful := v.key == nil
	if stateful {
		v.keys = make([]string, 0, d.len())
	}
	for {
		v.seed = maphash.MakeSeed()
		key := v.keyer()
		size := d.len()
		if v.wanted = v.wantedSet(key); v.wanted != nil {
			size = min(size, 4*v.wanted.len()+16)
		}
		hashes, ids := make([]uint64, 0, size), make([]int, 0, size)
		keep := func(k string, id int) {
			if v.skip && k == "" {
				return
			}
			if v.wanted != nil && !v.wanted.mayHave(k) {
				return
			}
			h := hashKey(v.seed, k)
			if v.wanted != nil && !v.wanted.hasHash(h) {
				return
			}
			hashes = append(hashes, h)
			ids = append(ids, id)
		}
		if !stateful && d.unedited() {
			// The common case, a file no edit has touched yet, read
			// straight from the line table, a line's id its number.
			for i := range d.textLines {
				if i%checkEvery == 0 && d.stop != nil && d.stop.Err() != nil {
					panic(stopped{d.stop.Err()})
				}
				keep(key(trimEOL(d.text[d.off(i):d.off(i+1)])), i)
			}
		} else {
			d.walk(0, func(i, id int, l string) bool {
				k := key(trimEOL(l))
				if stateful {
					v.keys = append(v.keys, k)
				}
				keep(k, id)
				return true
			})
		}
		sortByHash(hashes, ids)
		if v.distinct(d, hashes, ids) {
			v.hashes, v.ids = hashes, ids
			return
		}
		v.keys = v.keys[:0]
	}
}

// wantedSet returns the filter of the keys of the lines the reply
// looks for, their hashes under the view's seed; nil when the index is
// to hold every line: the matcher knows no such lines, or the keys
// carry state.
func (v *view) wantedSet(key normalizer) *keyFilter {
	if v.want == nil || v.key == nil {
		return nil
	}
	n := 0
	for _, lines := range v.want {
		n += len(lines)
	}
	f := newKeyFilter(n)
	for _, lines := range v.want {
		for _, l := range lines {
			if k := key(l); !v.skip || k != "" {
				f.add(k, hashKey(v.seed, k))
			}
		}
	}
	return f
}

// whole makes the view's index hold every line from now on: it is
// built again, whole, when next used.
func (v *view) whole() {
	v.want, v.wanted, v.hashes, v.ids = nil, nil, nil, nil
}

// covered makes sure the index answers for key k: a key that does not
// pass the filter of the lines the reply looks for has the index built
// whole. The index holds every line whose key passes, and whether a key
// passes depends on the key alone, so every line of a key that passes
// is there.
func (v *view) covered(d *doc, k string) {
	v.index(d)
	if v.wanted != nil && !(v.wanted.mayHave(k) && v.wanted.hasHash(hashKey(v.seed, k))) {
		v.whole()
		v.index(d)
	}
}

// keyFilter is the keys of the lines the reply looks for: a bitmap of
// their fingerprints (see fingerprint), sixteen bits to a key, which
// most other keys fail at the cost of a few loads, before their hashes
// are looked up among theirs.
//
// The hashes are a set of their own, open addressing in a table at
// most half full: the hashes are random already (hashKey), so a slot
// is a hash's low bits and a lookup one or two loads, where a Go map of
// 80,000 hashes (a reply of 10,000 hunks) cost a probe of a group and
// its control bytes for every key the reply looks for and every line
// that passes the bitmap.
type keyFilter struct {
	bits  []uint64
	mask  uint64
	slots []uint64 // the hashes; 0 is an empty slot (zero: the hash 0)
	zero  bool
	n     int // distinct hashes
}

func newKeyFilter(keys int) *keyFilter {
	n := 64
	for n < 16*keys {
		n <<= 1
	}
	// 16 bits to a key: the table of n/8 slots is at most half full.
	return &keyFilter{bits: make([]uint64, n/64), mask: uint64(n - 1), slots: make([]uint64, n/8)}
}

func (f *keyFilter) add(k string, h uint64) {
	b := fingerprint(k) & f.mask
	f.bits[b>>6] |= 1 << (b & 63)
	if h == 0 {
		if !f.zero {
			f.zero, f.n = true, f.n+1
		}
		return
	}
	m := uint64(len(f.slots) - 1)
	for i := h & m; ; i = (i + 1) & m {
		switch f.slots[i] {
		case h:
			return
		case 0:
			f.slots[i], f.n = h, f.n+1
			return
		}
	}
}

func (f *keyFilter) len() int { return f.n }

// mayHave reports whether k's fingerprint is in the bitmap.
func (f *keyFilter) mayHave(k string) bool {
	b := fingerprint(k) & f.mask
	return f.bits[b>>6]&(1<<(b&63)) != 0
}

// hasHash reports whether h is the hash of one of the keys.
func (f *keyFilter) hasHash(h uint64) bool {
	if h == 0 {
		return f.zero
	}
	m := uint64(len(f.slots) - 1)
	for i := h & m; ; i = (i + 1) & m {
		switch f.slots[i] {
		case h:
			return true
		case 0:
			return false
		}
	}
}

// fingerprint is a cheap hash of a key: its length and its first,
// middle and last eight bytes, mixed. Lines of one file often share
// their starts or their ends; rarely all three and their length.
func fingerprint(k string) uint64 {
	n := len(k)
	var a, b uint64
	if n >= 8 {
		a, b = load64(k), load64(k[n-8:])
		if n >= 24 {
			a ^= load64(k[n/2-4:]) * 0x94d049bb133111eb
		}
	} else {
		for i := 0; i < n; i++ {
			a = a<<8 | uint64(k[i])
		}
	}
	// Multiplying carries low bits upward only; the shifts bring the
	// high ones, where the last bytes land, down to the bits the
	// bitmap reads (murmur3's finaliser).
	h := a*0x9e3779b97f4a7c15 ^ b ^ uint64(n)
	h ^= h >> 33
	h *= 0xff51afd7ed558ccd
	h ^= h >> 33
	h *= 0xc4ceb9fe1a85ec53
	return h ^ h>>33
}

// load64 reads the first eight bytes of s, little-endian (one load
// where the processor allows it).
func load64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// hashKey is the hash of a key in the index; a variable so that a test
// can make keys collide.
var hashKey = func(seed maphash.Seed, k string) uint64 { return maphash.String(seed, k) }

// distinct reports whether the lines of each hash of a freshly built
// index have one key. Where keys carry no state, lines of the same
// content have the same key, so only the others have theirs computed.
func (v *view) distinct(d *doc, hashes []uint64, ids []int) bool {
	for i := 0; i < len(hashes); {
		j := i + 1
		for j < len(hashes) && hashes[j] == hashes[i] {
			j++
		}
		if j-i > 1 {
			first, _ := d.where(ids[i])
			line, k := d.content(first), v.keyAt(d, first)
			for _, id := range ids[i+1 : j] {
				at, _ := d.where(id)
				if (v.keys != nil || d.content(at) != line) && v.keyAt(d, at) != k {
					return false
				}
			}
		}
		i = j
	}
	return true
}

// sortByHash sorts hashes, and ids with them, by hash, keeping the order
// of equal hashes. The entries are dealt into buckets by the top bits
// of their hashes, about four to a bucket, and each bucket is sorted by
// insertion: with the hashes seeded at random, the moves this costs are
// expected to be few whatever the file, as lines of one key move
// past those of another only when the two keys share a bucket. A bucket
// of many entries, the lines of a common key, is radix sorted, so
// that no bucket costs the square of its size.
func sortByHash(hashes []uint64, ids []int) {
	n := len(hashes)
	if n < 2 {
		return
	}
	b := min(max(bits.Len(uint(n/4)), 1), 20)
	shift := 64 - b
	starts := make([]int, 1<<b+1)
	for _, h := range hashes {
		starts[h>>shift+1]++
	}
	for x := 1; x < len(starts); x++ {
		starts[x] += starts[x-1]
	}
	h2, i2 := make([]uint64, n), make([]int, n)
	next := slices.Clone(starts[:1<<b])
	for k, h := range hashes {
		x := h >> shift
		h2[next[x]], i2[next[x]] = h, ids[k]
		next[x]++
	}
	for x := range 1 << b {
		lo, hi := starts[x], starts[x+1]
		if hi-lo > 64 {
			radixByHash(h2[lo:hi], i2[lo:hi], hashes[lo:hi], ids[lo:hi])
			continue
		}
		for i := lo + 1; i < hi; i++ {
			h, id := h2[i], i2[i]
			j := i
			for ; j > lo && h2[j-1] > h; j-- {
				h2[j], i2[j] = h2[j-1], i2[j-1]
			}
			h2[j], i2[j] = h, id
		}
	}
	copy(hashes, h2)
	copy(ids, i2)
}

// radixByHash sorts hashes, and ids with them, by hash, keeping the
// order of equal hashes, a byte at a time from the lowest, passing over
// the bytes that all hashes share; th and ti are room for as many.
func radixByHash(hashes []uint64, ids []int, th []uint64, ti []int) {
	var counts [8][256]int
	for _, h := range hashes {
		for d := range 8 {
			counts[d][byte(h>>(8*d))]++
		}
	}
	src, srcIDs, dst, dstIDs := hashes, ids, th, ti
	for d := range 8 {
		c := &counts[d]
		if c[byte(hashes[0]>>(8*d))] == len(hashes) {
			continue
		}
		at := 0
		for x, n := range c {
			c[x] = at
			at += n
		}
		for k, h := range src {
			x := byte(h >> (8 * d))
			dst[c[x]], dstIDs[c[x]] = h, srcIDs[k]
			c[x]++
		}
		src, srcIDs, dst, dstIDs = dst, dstIDs, src, srcIDs
	}
	if &src[0] != &hashes[0] {
		copy(hashes, src)
		copy(ids, srcIDs)
	}
}

// lookup returns where the lines of key k stand in the index:
// hashes[lo:hi].
func (v *view) lookup(k string) (lo, hi int) {
	h := hashKey(v.seed, k)
	lo = sort.Search(len(v.hashes), func(i int) bool { return v.hashes[i] >= h })
	hi = lo + sort.Search(len(v.hashes)-lo, func(i int) bool { return v.hashes[lo+i] > h })
	return lo, hi
}

// scannable reports whether finding k by a scan of the file is allowed
// and cheap: a line's key at the rungs up to whitespace is the line
// with some white space cut, so only lines holding k can have it.
func (v *view) scannable(k string) bool {
	return v.hashes == nil && v.rung <= RungWhitespace && k != "" && v.scans < maxScans
}

// scan returns the lines of d whose key is k, in file order, reading
// every line.
func (v *view) scan(d *doc, k string) []int {
	v.scans++
	exact := v.rung == RungExact
	if exact {
		if out, ok := d.linesOf(k); ok {
			return out
		}
	}
	var out []int
	d.each(0, func(i int, l string) bool {
		c := trimEOL(l)
		if exact {
			if c == k {
				out = append(out, i)
			}
		} else if len(c) >= len(k) && strings.Contains(c, k) && v.key(c) == k {
			out = append(out, i)
		}
		return true
	})
	return out
}

// keyer returns the rung's key function for a text read line by line
// from its start.
func (v *view) keyer() normalizer {
	if v.key != nil {
		return v.key
	}
	return keyFunc(v.rung, v.lang)
}

// stale reports whether the view no longer describes d.
func (v *view) stale(d *doc) bool { return v.keys != nil && v.built != len(d.log) }

// note indexes the lines that log entry entry added.
func (v *view) note(entry int, lines []string) {
	if v.keys != nil || v.hashes == nil {
		return // rebuilt when next used, or indexed whole when built
	}
	key := v.keyer()
	for j, l := range lines {
		if k := key(trimEOL(l)); !v.skip || k != "" {
			v.added[k] = append(v.added[k], addedLine{entry, j})
		}
	}
}

// patternKeys returns the keys of the pattern lines the rung compares,
// and which lines they are.
func (v *view) patternKeys(pattern []string) (kept []int, keys []string) {
	return lineKeys(v.keyer(), v.skip, pattern)
}

// lineKeys keys lines read in order with key, leaving out the blank
// ones when skip is set.
func lineKeys(key normalizer, skip bool, lines []string) (kept []int, keys []string) {
	for i, l := range lines {
		k := key(l)
		if skip && k == "" {
			continue
		}
		kept = append(kept, i)
		keys = append(keys, k)
	}
	return kept, keys
}

// keys returns the keys of the lines the rung compares. It needs no
// view of the file, so asking builds none.
func (m *matcher) keys(lines []string, r Rung) []string {
	_, keys := lineKeys(keyFunc(r, m.lang), r.skipsBlank(), lines)
	return keys
}

// keyAt returns the key of doc line i.
func (v *view) keyAt(d *doc, i int) string {
	if v.keys != nil {
		return v.keys[i]
	}
	return v.key(d.content(i))
}

// count returns how many lines of d have key k.
func (v *view) count(d *doc, k string) int {
	v.covered(d, k)
	lo, hi := v.lookup(k)
	return hi - lo + len(v.added[k])
}

// where returns the lines of d whose key is k now, in file order.
func (v *view) where(d *doc, k string) []int {
	v.covered(d, k)
	var out []int
	lo, hi := v.lookup(k)
	for _, id := range v.ids[lo:hi] {
		if c, ok := d.where(id); ok {
			out = append(out, c)
		}
	}
	for _, a := range v.added[k] {
		if c, ok := d.forward(d.log[a.entry].at+a.off, a.entry+1); ok {
			out = append(out, c)
		}
	}
	if len(v.added[k]) > 0 {
		sort.Ints(out)
	}
	return out
}

// place is where a pattern stands in a file.
type place struct {
	rung  Rung
	lines []int // doc line of each pattern line; -1 for a blank pattern line a rung skips
	shift shift // indentation difference, file minus reply (indent rung and above)
	score float64
}

// first and last return the first and one-past-last doc line the
// place covers.
func (p place) first() int {
	for _, l := range p.lines {
		if l >= 0 {
			return l
		}
	}
	return -1
}

func (p place) end() int {
	for i := len(p.lines) - 1; i >= 0; i-- {
		if p.lines[i] >= 0 {
			return p.lines[i] + 1
		}
	}
	return -1
}

// matcher finds patterns in a file as the reply edits it, building
// each rung's view once.
type matcher struct {
	d    *doc
	lang string
	// indexAtOnce makes views build their index at their first find:
	// the reply has more edits for this file than a view would answer
	// by scanning it, so the scans would be paid on top of the index.
	indexAtOnce bool
	// want is the lines the reply looks for in the file, in groups (an
	// operation's old lines, its context, ...), nil when not known: the
	// views' indexes then hold only the lines of their keys.
	want [][]string
	// wantScopes is the scope lines of those operations, what the scope
	// index (scopeView) looks for; nil when want is.
	wantScopes [][]string
	views      map[Rung]*view
	scopes     *view       // the file's lines by scope key (see scopeView)
	near       *nearIndex  // built by the first search for a closest place
	opened     *constructs // what each line starts inside, for near matches
	work       nearWork
	cached     *searchCache
	cut        bool // the last closest-place search passed over common lines or words
}

func newMatcher(d *doc, lang string) *matcher {
	return &matcher{d: d, lang: lang, views: map[Rung]*view{}}
}

func (m *matcher) view(r Rung) *view {
	v, ok := m.views[r]
	if !ok || v.stale(m.d) {
		v = newView(m.d, r, m.lang)
		v.want = m.want
		if m.indexAtOnce {
			v.scans = maxScans
		}
		m.views[r] = v
	}
	return v
}

// splice edits the file and keeps the views up to date.
func (m *matcher) splice(from, to int, repl []string) {
	m.d.splice(from, to, repl)
	for _, v := range m.views {
		v.note(len(m.d.log)-1, repl)
	}
	if m.scopes != nil {
		m.scopes.note(len(m.d.log)-1, repl)
	}
	if m.near != nil {
		m.near.note(len(m.d.log)-1, repl)
		m.work.indexed += len(repl)
	}
}

// find returns every place where pattern stands at rung r, in file
// order. A pattern the rung cannot anchor (only blank lines on a rung
// that skips them) has no place.
func (m *matcher) find(pattern []string, r Rung) []place {
	v := m.view(r)
	kept, keys := v.patternKeys(pattern)
	if len(kept) == 0 {
		return nil
	}
	var lines []int
	pivot := 0
	for i, k := range keys {
		if len(k) > len(keys[pivot]) {
			pivot = i
		}
	}
	if v.scannable(keys[pivot]) {
		// The longest line is the likeliest to be rare; the places are
		// the same whichever line leads.
		lines = v.scan(m.d, keys[pivot])
	} else {
		pivot = -1
		fewest := 0
		for i, k := range keys {
			n := v.count(m.d, k)
			if n == 0 {
				return nil
			}
			if pivot < 0 || n < fewest {
				pivot, fewest = i, n
			}
			if n == 1 {
				// No line can lead with fewer places; a later line with
				// none fails the one place's verify instead, as this
				// loop would have. Counting every line of a hunk of
				// seven cost more than placing it.
				break
			}
		}
		lines = v.where(m.d, keys[pivot])
	}
	var out []place
	for _, c := range lines {
		p := place{rung: r, lines: make([]int, len(pattern))}
		if !m.verify(v, keys, kept, pivot, c, p.lines) {
			continue
		}
		if r >= RungIndent {
			sh, ok := m.shiftOf(p, pattern)
			if !ok && r == RungIndent {
				continue
			}
			p.shift = sh
		}
		out = append(out, p)
	}
	return out
}

// verify checks that the pattern's kept lines stand around line c,
// whose key is the pivot's, and records the line of each pattern line
// in lines (-1 for a skipped blank one). Rungs that skip blank lines
// step over the file's blank lines too.
func (m *matcher) verify(v *view, keys []string, kept []int, pivot, c int, lines []int) bool {
	for i := range lines {
		lines[i] = -1
	}
	n := m.d.len()
	keyAt := func(i int) string { return v.keyAt(m.d, i) }
	if !v.skip {
		s := c - pivot
		if s < 0 || s+len(keys) > n {
			return false
		}
		for i, k := range keys {
			if keyAt(s+i) != k {
				return false
			}
			lines[kept[i]] = s + i
		}
		return true
	}
	lines[kept[pivot]] = c
	pos := c
	for j := pivot - 1; j >= 0; j-- {
		if pos--; pos < 0 {
			return false
		}
		for keyAt(pos) == "" {
			if pos--; pos < 0 {
				return false
			}
		}
		if keyAt(pos) != keys[j] {
			return false
		}
		lines[kept[j]] = pos
	}
	pos = c
	for j := pivot + 1; j < len(keys); j++ {
		if pos++; pos >= n {
			return false
		}
		for keyAt(pos) == "" {
			if pos++; pos >= n {
				return false
			}
		}
		if keyAt(pos) != keys[j] {
			return false
		}
		lines[kept[j]] = pos
	}
	return true
}

// shiftOf measures the indentation difference between a place's file
// lines and the pattern: one constant for every non-blank line. Above
// the indent rung a place may have none; its new lines are then
// written as the reply has them.
func (m *matcher) shiftOf(p place, pattern []string) (shift, bool) {
	var file, pat []string
	for i, l := range p.lines {
		if l < 0 {
			continue
		}
		fc := m.d.content(l)
		if isBlank(fc) || isBlank(pattern[i]) {
			continue
		}
		file = append(file, fc)
		pat = append(pat, pattern[i])
	}
	return measureShift(file, pat, m.d.indentUnit() == "\t")
}
