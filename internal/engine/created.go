package engine

import (
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// createdDoc is the doc of the new file a Create writes: its lines,
// each ended by "\n" (a new file ends with a newline), kept whole (see
// newDocWhole). A body the reader kept whole (Operation.Content) is
// used as it is: no copy, no string per line.
func (r *resolver) createdDoc(op *translate.Operation) *doc {
	if strings.Contains(op.Content, translate.IndentUnit) {
		op.New, op.Content = op.NewLines(), "" // units are expanded line by line
	}
	expandUnits(op, "    ")
	var d *doc
	if op.Content != "" {
		d = newDocWhole(op.Content, strings.Count(op.Content, "\n"))
	} else {
		var b strings.Builder
		size := 0
		for _, l := range op.New {
			size += len(l) + 1
		}
		b.Grow(size)
		for _, l := range op.New {
			b.WriteString(l)
			b.WriteByte('\n')
		}
		d = newDocWhole(b.String(), len(op.New))
	}
	d.stop = r.ctx
	return d
}
