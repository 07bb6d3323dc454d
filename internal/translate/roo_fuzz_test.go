package translate

import (
	"strings"
	"testing"
)

// FuzzRoo checks that no reply makes the Roo Code reader panic, that
// it keeps the reader contract, that every edit stands on the line of
// a SEARCH marker and has lines to find, and that no unescaped marker
// ends up among an edit's lines. The golden replies and the prompt are
// the seeds.
func FuzzRoo(f *testing.F) {
	addSeedFiles(f, goldenReplies(FormatRoo), promptPath(FormatRoo))
	f.Add("<apply_diff>\n<path>a.py</path>\n<diff>\n<<<<<<< SEARCH\n:start_line:1\n-------\nx\n=======\ny\n>>>>>>> REPLACE\n</diff>\n</apply_diff>\n")
	f.Add("<apply_diff>\n<args>\n<file>\n<path>a</path>\n<diff>\n<content><![CDATA[\n<<<<<<< SEARCH\n1 | x\n=======\n]]></content>\n<start_line>0</start_line>\n</diff>\n</file>\n</args>\n</apply_diff>\n")
	f.Add("<write_to_file>\n<path>a</path>\n<content>\nx\n</content>\n<line_count>x</line_count>\n</write_to_file>\n")
	f.Fuzz(func(t *testing.T, reply string) {
		lines, r, _ := rooContract.check(t, reply)
		for _, op := range r.Ops {
			t0 := strings.TrimSpace(lines[op.Line-1])
			switch op.Kind {
			case Edit:
				if !strings.Contains(strings.ToUpper(t0), "SEARCH") || blank(op.Old) || op.Group == 0 || op.LineHint < 0 {
					t.Fatalf("edit %+v at %q", op, t0)
				}
				for _, part := range [][]string{op.Old, op.New} {
					for _, l := range part {
						if m := markerAt(strings.TrimSpace(l)); m.kind == mkSearch && m.fit != fitFar {
							t.Fatalf("marker %q among the lines of %+v", l, op)
						}
					}
				}
			case Create:
				if !strings.Contains(strings.ToLower(t0), "write") || !op.Overwrite {
					t.Fatalf("create %+v at %q", op, t0)
				}
			default:
				t.Fatalf("operation %+v", op)
			}
		}
	})
}
