package engine

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortByHash holds the radix sort to a stable sort.
func TestSortByHash(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 7, 300, 5000, 100000} {
		for _, spread := range []uint64{1, 3, 1 << 20, 0} {
			hashes, ids := make([]uint64, n), make([]int, n)
			for i := range hashes {
				h := r.Uint64()
				if spread != 0 {
					h = r.Uint64N(spread) << (8 * r.UintN(8))
				}
				hashes[i], ids[i] = h, i
			}
			type pair struct {
				h  uint64
				id int
			}
			want := make([]pair, n)
			for i := range want {
				want[i] = pair{hashes[i], ids[i]}
			}
			slices.SortStableFunc(want, func(a, b pair) int {
				switch {
				case a.h < b.h:
					return -1
				case a.h > b.h:
					return 1
				}
				return 0
			})
			sortByHash(hashes, ids)
			for i := range want {
				if hashes[i] != want[i].h || ids[i] != want[i].id {
					t.Fatalf("n %d spread %d: entry %d is %x/%d, want %x/%d", n, spread, i, hashes[i], ids[i], want[i].h, want[i].id)
				}
			}
		}
	}
}

// TestViewHashCollision: keys that share a hash make the view hash
// its keys again with another seed, and finds stay exact.
func TestViewHashCollision(t *testing.T) {
	defer func(h func(maphash.Seed, string) uint64) { hashKey = h }(hashKey)
	// Each view's first seed makes "ab" and "cd" collide.
	seeds := map[maphash.Seed]int{}
	hashKey = func(seed maphash.Seed, k string) uint64 {
		if _, ok := seeds[seed]; !ok {
			seeds[seed] = len(seeds)
		}
		if seeds[seed]%2 == 0 {
			return uint64(len(k))
		}
		return maphash.String(seed, k)
	}
	d := newDoc([]byte("ab\ncd\nab\n  cd\nx\n"))
	m := newMatcher(d, "")
	for _, r := range []Rung{RungExact, RungIndent} {
		v := m.view(r)
		v.index(d)
		if seeds[v.seed]%2 == 0 {
			t.Fatalf("%v: the view kept a seed whose keys collide", r)
		}
	}
	if len(seeds) != 4 {
		t.Fatalf("%d seeds tried, want 4", len(seeds))
	}
	for _, tc := range []struct {
		r    Rung
		key  string
		want []int
	}{
		{RungExact, "ab", []int{0, 2}},
		{RungExact, "cd", []int{1}},
		{RungIndent, "cd", []int{1, 3}},
		{RungIndent, "x", []int{4}},
	} {
		v := m.view(tc.r)
		if got := v.where(d, tc.key); !slices.Equal(got, tc.want) || v.count(d, tc.key) != len(tc.want) {
			t.Errorf("%v %q: at %v (count %d), want %v", tc.r, tc.key, got, v.count(d, tc.key), tc.want)
		}
	}
}

// TestPartialIndexAnswersAsWhole: a view that knows the lines the reply
// looks for indexes only theirs, and answers every key, looked for or
// not, before and after edits, as a view indexing every line does. (A
// count, a cost, may count lines edits removed since the index was
// built, but never fewer than there are.)
func TestPartialIndexAnswersAsWhole(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	line := func() string {
		k := r.IntN(40)
		switch r.IntN(6) {
		case 0:
			return fmt.Sprintf("  w%d  ", k) // keys differ by rung
		case 1:
			return ""
		}
		return fmt.Sprintf("w%d", k)
	}
	for round := range 40 {
		var text strings.Builder
		for range 200 + r.IntN(200) {
			text.WriteString(line() + "\n")
		}
		var want [][]string
		for range r.IntN(6) {
			var g []string
			for range 1 + r.IntN(5) {
				g = append(g, line())
			}
			want = append(want, g)
		}
		d := newDoc([]byte(text.String()))
		m := newMatcher(d, "python")
		m.want = want
		for step := range 30 {
			for _, rung := range []Rung{RungExact, RungTrailing, RungWhitespace, RungIndent} {
				v := m.view(rung)
				whole := newView(d, rung, "python")
				k := v.keyer()(line())
				got, exp := v.where(d, k), whole.where(d, k)
				if !slices.Equal(got, exp) {
					t.Fatalf("round %d step %d %v: where(%q) %v, want %v", round, step, rung, k, got, exp)
				}
				if n := v.count(d, k); n < len(exp) || step == 0 && n != len(exp) {
					t.Fatalf("round %d step %d %v: count(%q) %d, where %d lines", round, step, rung, k, n, len(exp))
				}
			}
			from := r.IntN(d.len() + 1)
			m.splice(from, min(d.len(), from+r.IntN(3)), []string{line() + "\n"})
		}
	}
}

// TestPartialIndexIsPartial: the index of a view that knows the lines
// looked for holds only theirs until another key is asked for.
func TestPartialIndexIsPartial(t *testing.T) {
	var text strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&text, "line %d\n", i%500)
	}
	d := newDoc([]byte(text.String()))
	m := newMatcher(d, "")
	m.want = [][]string{{"line 7", "line 8"}, {"line 9 "}}
	v := m.view(RungTrailing)
	if n := v.count(d, "line 9"); n != 2 {
		t.Fatalf("count(line 9) = %d, want 2", n)
	}
	if len(v.ids) != 6 || v.wanted == nil {
		t.Fatalf("the index holds %d lines (partial: %v), want the 6 of the keys looked for", len(v.ids), v.wanted != nil)
	}
	if got := v.where(d, "line 400"); !slices.Equal(got, []int{400, 900}) {
		t.Fatalf("where(line 400) = %v, want [400 900]", got)
	}
	if len(v.ids) != 1000 || v.wanted != nil {
		t.Fatalf("after a key not looked for, the index holds %d lines (partial: %v), want all 1000", len(v.ids), v.wanted != nil)
	}
}

// TestKeyFilterPassesFew: the filter of the keys looked for lets few
// other keys through to have their hashes looked up, whether the lines
// of the file differ at their ends, their starts or their middles (the
// fingerprint reads eight bytes of each; lines that differ only
// between them all pass, and are hashed as without a filter).
func TestKeyFilterPassesFew(t *testing.T) {
	shapes := map[string]func(i int) string{
		"ends":    func(i int) string { return fmt.Sprintf("    total += weight(%d) * %d  # row %d", i, i%97, i) },
		"starts":  func(i int) string { return fmt.Sprintf("%d = compute(x) // the same comment on every line", i) },
		"middles": func(i int) string { return fmt.Sprintf("\tresult = append(r, item%06d) // the same comment", i) },
		"short":   func(i int) string { return fmt.Sprint(i) },
	}
	for name, line := range shapes {
		f := newKeyFilter(1000)
		for i := 0; i < 1000; i++ {
			f.add(line(i), uint64(i))
		}
		for i := 0; i < 1000; i++ {
			if !f.mayHave(line(i)) {
				t.Fatalf("%s: key %q, added, fails the filter", name, line(i))
			}
		}
		pass := 0
		for i := 1000; i < 21000; i++ {
			if f.mayHave(line(i)) {
				pass++
			}
		}
		if pass > 20000/10 {
			t.Errorf("%s: %d of 20000 other keys pass the filter of 1000, want at most a tenth", name, pass)
		}
	}
}

// TestKeyFilterHashes: the filter's set of hashes holds exactly those
// added, 0 and colliding slots included, each counted once.
func TestKeyFilterHashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, keys := range []int{0, 1, 4, 5, 100, 5000} {
		f := newKeyFilter(keys)
		in := map[uint64]bool{}
		for i := range keys {
			h := rng.Uint64()
			switch i % 4 {
			case 1:
				h = 0
			case 2:
				h = uint64(i) << 40 // the same low bits: one slot, probed on
			case 3:
				for k := range in {
					h = k // added again
					break
				}
			}
			f.add(fmt.Sprint(i), h)
			in[h] = true
		}
		if f.len() != len(in) {
			t.Errorf("%d keys: len %d, want %d", keys, f.len(), len(in))
		}
		for h := range in {
			if !f.hasHash(h) {
				t.Fatalf("%d keys: hash %x added, not found", keys, h)
			}
		}
		for range 10000 {
			if h := rng.Uint64(); !in[h] && f.hasHash(h) {
				t.Fatalf("%d keys: hash %x found, never added", keys, h)
			}
		}
		if !in[0] && f.hasHash(0) || !in[1<<40] && f.hasHash(1<<40) {
			t.Fatalf("%d keys: a hash found that was never added", keys)
		}
	}
}
