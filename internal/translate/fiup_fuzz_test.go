package translate

import (
	"strings"
	"testing"
)

// fiupContract is what readFIUP promises for any reply.
var fiupContract = readerContract{
	parse:       readFIUP,
	formats:     []string{fiupFormat},
	pathBreaks:  "\r\n",
	parseErrors: true,
}

// FuzzParseFIUP checks that no reply makes the reader panic, that every
// line it names lies within the reply, and that operations are well
// formed. The golden cases' replies and the prompt's example are the
// seeds.
func FuzzParseFIUP(f *testing.F) {
	addSeedFiles(f, goldenReplies(fiupFormat), promptPath(fiupFormat))
	f.Add("<<<FIUP>>>\n[FILE]: a.py\n[OP]: REPLACE\n[ANCHOR]\n→x\n[CONTENT]\n\\→y\n<<<END>>>\n")
	f.Add("```fiup\n<<<FIUP>>>\n[FILE]: a\n[OP]: CREATE\n[CONTENT]\n<<<END>>>\n<<<FIUP>>>\n")
	f.Add("```python\n<<<FIUP>>>\n[OP]: delete\n[FILE]:\n[ANCHOR]\n\n<<<END>>>\n```\n<<<END>>>")
	f.Add("<<<FIUP>>>\r\n[FILE]: `a`\r\n[OP]: INSERT_BEFORE\r\n[ANCHOR]\r\n→\r\n[CONTENT]\r\n")
	f.Fuzz(func(t *testing.T, reply string) {
		lines, r, _ := fiupContract.check(t, reply)
		for _, op := range r.Ops {
			if op.FirstMatch || op.Append || op.Overwrite {
				t.Fatalf("operation %+v", op)
			}
			if t0 := strings.TrimSpace(lines[op.Line-1]); markerAt(t0).kind != mkFiupStart {
				t.Fatalf("operation line %d is %q, not %s", op.Line, t0, fiupStart)
			}
			switch op.Kind {
			case Create:
				if len(op.Old)+len(op.Before)+len(op.After) > 0 {
					t.Fatalf("create with anchor lines: %+v", op)
				}
			case Edit:
				if n := len(op.Old) + len(op.Before) + len(op.After); n == 0 || n != len(op.Old) && n != len(op.Before) && n != len(op.After) {
					t.Fatalf("edit without exactly one anchor: %+v", op)
				}
			default:
				t.Fatalf("operation kind %s", op.Kind)
			}
		}
	})
}
