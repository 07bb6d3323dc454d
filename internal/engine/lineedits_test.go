package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"znkr.io/diff"
)

// TestLineEditsAsDiff holds lineEdits to diff.Edits on scripts of lines
// drawn from a few (repeats, runs that could slide, shared lines) and
// on plain replacements, which it writes itself.
func TestLineEditsAsDiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	pool := []string{"a", "b", "", "}", "  x"}
	for round := range 20000 {
		var x []string
		for range rng.IntN(10) {
			x = append(x, pool[rng.IntN(len(pool))])
		}
		y := append([]string(nil), x...)
		at := rng.IntN(len(y) + 1)
		del := min(len(y)-at, rng.IntN(4))
		var ins []string
		for range rng.IntN(4) {
			if round%2 == 0 {
				ins = append(ins, fmt.Sprint("new ", rng.IntN(1000)))
			} else {
				ins = append(ins, pool[rng.IntN(len(pool))])
			}
		}
		y = append(y[:at:at], append(ins, y[at+del:]...)...)
		got, want := lineEdits(x, y), diff.Edits(x, y)
		if len(got) != 0 || len(want) != 0 {
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("x %q y %q:\nlineEdits %v\ndiff      %v", x, y, got, want)
			}
		}
	}
}
