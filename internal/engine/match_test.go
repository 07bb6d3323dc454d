package engine

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestViewFollowsEdits checks the incremental index against one built
// afresh, and the piece list against a plain slice, after every one of
// many random splices.
func TestViewFollowsEdits(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	word := func() string { return fmt.Sprintf("w%d\n", rng.Intn(6)) }
	var plain []string
	for range 50 {
		plain = append(plain, word())
	}
	d := newDocLines(slices.Clone(plain), "\n", true)
	m := newMatcher(d, "")
	for _, r := range []Rung{RungExact, RungWhitespace} {
		m.view(r).index(d)
	}
	for step := range 400 {
		from := rng.Intn(len(plain) + 1)
		to := min(len(plain), from+rng.Intn(4))
		repl := make([]string, rng.Intn(4))
		for i := range repl {
			repl[i] = word()
			if rng.Intn(5) == 0 {
				repl[i] = "\n"
			}
		}
		m.splice(from, to, repl)
		plain = slices.Concat(plain[:from], repl, plain[to:])
		if got := d.slice(0, d.len()); !slices.Equal(got, plain) {
			t.Fatalf("step %d: lines %q, want %q", step, got, plain)
		}
		for r, v := range m.views {
			fresh := newView(d, r, "")
			for k := range 6 {
				key := fmt.Sprintf("w%d", k)
				if got, want := v.where(d, key), fresh.where(d, key); !slices.Equal(got, want) {
					t.Fatalf("step %d rung %s key %s: where %v, want %v", step, r, key, got, want)
				}
			}
		}
	}
}
