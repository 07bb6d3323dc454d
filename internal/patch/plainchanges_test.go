package patch

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"znkr.io/diff/textdiff"
)

// TestPlainChangesAsTextdiff holds plainChanges to the changes of
// textdiff.Edits with the indent heuristic: on windows of lines drawn
// from a few, so that lines repeat, runs can slide and replacements
// share lines, every window it answers gets textdiff's changes exactly,
// edits and all, and it answers the plain ones (a few distinct lines
// replaced).
func TestPlainChangesAsTextdiff(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	pool := []string{"a\n", "b\n", "\n", "  x\n", "}\n", "\tif y {\n", "c"}
	answered, plain := 0, 0
	for round := range 20000 {
		var x []string
		for range rng.IntN(12) {
			x = append(x, pool[rng.IntN(len(pool)-1)])
		}
		y := append([]string(nil), x...)
		at := rng.IntN(len(y) + 1)
		del := min(len(y)-at, rng.IntN(4))
		var ins []string
		isPlain := round%2 == 0
		for range rng.IntN(4) {
			if isPlain {
				ins = append(ins, fmt.Sprintf("new %d\n", rng.IntN(1000)))
			} else {
				ins = append(ins, pool[rng.IntN(len(pool))])
			}
		}
		y = append(y[:at:at], append(ins, y[at+del:]...)...)
		if rng.IntN(5) == 0 && len(x) > 0 {
			x[len(x)-1] = strings.TrimSuffix(x[len(x)-1], "\n") // a last line without its "\\n"
		}
		xb, yb := []byte(strings.Join(x, "")), []byte(strings.Join(y, ""))
		want := windowChanges(textdiff.Edits(xb, yb, textdiff.IndentHeuristic()))
		got, ok := plainChanges(splitLines(xb), splitLines(yb))
		if !ok {
			continue
		}
		answered++
		if isPlain {
			plain++
		}
		if !reflect.DeepEqual(norm(got), norm(want)) {
			t.Fatalf("x %q y %q:\nplainChanges %v\ntextdiff     %v", x, y, norm(got), norm(want))
		}
	}
	if plain < 5000 || answered == plain {
		t.Fatalf("plainChanges answered %d windows, %d of them plain replacements: the test does not exercise it", answered, plain)
	}
}

// norm makes changes comparable: an empty list whether nil or not.
func norm(cs []lineChange) []string {
	var out []string
	for _, c := range cs {
		out = append(out, fmt.Sprintf("[%d,%d) -> [%d,%d)", c.s0, c.s1, c.t0, c.t1))
		for _, x := range c.edits {
			out = append(out, fmt.Sprintf("  %v %d %d %q", x.Op, x.LineNoX, x.LineNoY, bytes.Clone(x.Line)))
		}
	}
	return out
}
