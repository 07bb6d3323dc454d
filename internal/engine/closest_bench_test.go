package engine

import (
	"strings"
	"testing"
)

// misremembered returns the k lines of lines from start with line j
// rewritten as a model misremembers it: one character added.
func misremembered(lines []string, start, k, j int) []string {
	p := append([]string(nil), lines[start:start+k]...)
	p[j] += "0"
	return p
}

// BenchmarkClosest: the closest-place search of one failing edit in a
// 100,000-line file of near-identical classes, the file's indexes
// already built (each: the cost each failing edit adds) or not (first).
func BenchmarkClosest(b *testing.B) {
	lines := serviceFile(100000, 50000)
	d := newDoc([]byte(strings.Join(lines, "\n") + "\n"))
	var patterns [][]string
	for s := 5; s+8 < len(lines); s += len(lines) / 64 {
		patterns = append(patterns, misremembered(lines, s-s%8+5, 4, 1))
	}
	b.Run("each", func(b *testing.B) {
		m := newMatcher(d, "python")
		m.closest(patterns[0], RungIndent)
		i := 0
		for b.Loop() {
			m.work = nearWork{} // the budget is per file; measure the search, not its exhaustion
			m.closest(patterns[i%len(patterns)], RungIndent)
			i++
		}
	})
	// The first failing edit of a file builds its indexes too.
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			newMatcher(d, "python").closest(patterns[0], RungIndent)
		}
	})
}
