package engine

// view is a file's lines as one rung compares them, indexed by key so
// that finding a pattern costs the occurrences of its rarest line, not
// a scan of the file per edit.
type view struct {
	keys []string         // comparison key of each line the rung looks at
	orig []int            // doc line of each key (blank lines dropped on rungs that skip them)
	at   map[string][]int // key -> positions in keys
}

func buildView(d *doc, r Rung, lang string) *view {
	key := keyFunc(r, lang)
	v := &view{
		keys: make([]string, 0, len(d.lines)),
		orig: make([]int, 0, len(d.lines)),
		at:   make(map[string][]int, len(d.lines)),
	}
	for i := range d.lines {
		k := key(d.content(i))
		if r.skipsBlank() && k == "" {
			continue
		}
		v.at[k] = append(v.at[k], len(v.keys))
		v.keys = append(v.keys, k)
		v.orig = append(v.orig, i)
	}
	return v
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

// matcher finds patterns in one version of a file, building each
// rung's view once.
type matcher struct {
	d     *doc
	lang  string
	views map[Rung]*view
}

func newMatcher(d *doc, lang string) *matcher {
	return &matcher{d: d, lang: lang, views: map[Rung]*view{}}
}

func (m *matcher) view(r Rung) *view {
	v, ok := m.views[r]
	if !ok {
		v = buildView(m.d, r, m.lang)
		m.views[r] = v
	}
	return v
}

// find returns every place where pattern stands at rung r, in file
// order. A pattern the rung cannot anchor (only blank lines on a rung
// that skips them) has no place.
func (m *matcher) find(pattern []string, r Rung) []place {
	key := keyFunc(r, m.lang)
	var kept []int // pattern lines the rung compares
	var keys []string
	for i, l := range pattern {
		k := key(l)
		if r.skipsBlank() && k == "" {
			continue
		}
		kept = append(kept, i)
		keys = append(keys, k)
	}
	if len(kept) == 0 {
		return nil
	}
	v := m.view(r)
	pivot, fewest := -1, 0
	for i, k := range keys {
		n := len(v.at[k])
		if n == 0 {
			return nil
		}
		if pivot < 0 || n < fewest {
			pivot, fewest = i, n
		}
	}
	var out []place
	for _, pos := range v.at[keys[pivot]] {
		s := pos - pivot
		if s < 0 || s+len(keys) > len(v.keys) || !equalAt(v.keys[s:s+len(keys)], keys) {
			continue
		}
		p := place{rung: r, lines: make([]int, len(pattern))}
		for i := range p.lines {
			p.lines[i] = -1
		}
		for i, pi := range kept {
			p.lines[pi] = v.orig[s+i]
		}
		if !r.skipsBlank() && !contiguous(p.lines) {
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

func equalAt(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func contiguous(lines []int) bool {
	for i := 1; i < len(lines); i++ {
		if lines[i] != lines[i-1]+1 {
			return false
		}
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
