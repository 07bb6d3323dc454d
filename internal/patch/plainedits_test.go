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

// TestPlainEditsAsTextdiff holds plainEdits to textdiff.Edits with the
// indent heuristic: on windows of lines drawn from a few, so that lines
// repeat, runs can slide and replacements share lines, every window it
// answers gets textdiff's edits exactly, and it answers the plain ones
// (a few distinct lines replaced).
func TestPlainEditsAsTextdiff(t *testing.T) {
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
		want := textdiff.Edits(xb, yb, textdiff.IndentHeuristic())
		got, ok := plainEdits(splitLines(xb), splitLines(yb))
		if !ok {
			continue
		}
		answered++
		if isPlain {
			plain++
		}
		if !reflect.DeepEqual(norm(got), norm(want)) {
			t.Fatalf("x %q y %q:\nplainEdits %v\ntextdiff   %v", x, y, got, want)
		}
	}
	if plain < 5000 || answered == plain {
		t.Fatalf("plainEdits answered %d windows, %d of them plain replacements: the test does not exercise it", answered, plain)
	}
}

// norm makes edits comparable: an empty list whether nil or not.
func norm(e []textdiff.Edit[[]byte]) []string {
	var out []string
	for _, x := range e {
		out = append(out, fmt.Sprintf("%v %d %d %q", x.Op, x.LineNoX, x.LineNoY, bytes.Clone(x.Line)))
	}
	return out
}
