package main

import (
	"fmt"
	"strings"
	"time"
)

// lazyLines and lazySegments size issue 28's case: a lazy edit of 20
// segments to a 10,000-line file.
const lazyLines, lazySegments = 10000, 20

// caseLazy: a lazy edit (Cursor's edit_file, the fast-apply models'
// input) of 20 segments, each changing one line between two it shows,
// merged into a 10,000-line file and checked. The apply models that
// merge such edits for the IDE agents take seconds for a file of this
// size (Morph quotes thousands of tokens per second, and the file is
// about 100,000 tokens); the bound is issue 28's.
func (b *bench) caseLazy() {
	r := b.sourceRepo(lazyLines)
	var text strings.Builder
	text.WriteString("Rename twenty steps.\n\nsrc/big.go\n```go\n")
	step := (lazyLines - 4) / lazySegments
	for k := 0; k < lazySegments; k++ {
		i := 1 + k*step
		text.WriteString("// ... existing code ...\n")
		for j := i; j < i+3; j++ {
			l := fmt.Sprintf("\tv%06d := compute(%d) // step %d", j, j*7%1000, j)
			if j == i+1 {
				l = strings.Replace(l, "step", "stage", 1)
			}
			text.WriteString(l + "\n")
		}
	}
	text.WriteString("// ... existing code ...\n```\n")
	reply := b.writeReply("lazy-20.md", text.String())
	// Merged, and merged right: one line changed per segment.
	patch := output(b.env, r.dir, b.bin, "translate", "--format", "lazy", reply)
	added, removed := 0, 0
	for _, l := range strings.Split(patch, "\n") {
		switch {
		case strings.HasPrefix(l, "+\t") && strings.Contains(l, "// stage "):
			added++
		case strings.HasPrefix(l, "-\t") && strings.Contains(l, "// step "):
			removed++
		case strings.HasPrefix(l, "+") && !strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---"):
			fail("the lazy edit changes a line it should not: %q", l)
		}
	}
	if added != lazySegments || removed != lazySegments {
		fail("the lazy edit changes %d lines for %d, want %d", added, removed, lazySegments)
	}
	d := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", "--format", "lazy", reply) })
	// The same check of one SEARCH/REPLACE edit to the same file: the
	// process, reading the file and checking the result, without the
	// merge. On a loaded machine both move together.
	i := lazyLines / 2
	old := fmt.Sprintf("\tv%06d := compute(%d) // step %d", i, i*7%1000, i)
	one := b.writeReply("lazy-one-edit.md", "Rename one step.\n\n"+searchReplace("src/big.go", []string{old}, []string{strings.Replace(old, "step", "stage", 1)}))
	base := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", one) })
	b.rows = append(b.rows, row{name: fmt.Sprintf("17. lazy edit, %d segments, %d-line file: merge and check", lazySegments, lazyLines),
		ours: d, bound: "< 20 ms (apply models: seconds)", ok: d < 20*time.Millisecond,
		note: fmt.Sprintf("%s (one SEARCH/REPLACE edit to the same file: %s)", ms(d), ms(base))})
}
