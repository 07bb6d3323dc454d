package engine

import (
	"hash/maphash"
	"math/rand/v2"
	"slices"
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
