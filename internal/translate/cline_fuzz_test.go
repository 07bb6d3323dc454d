package translate

import (
	"strings"
	"testing"
)

// FuzzCline checks that no reply makes the Cline reader panic, that it
// keeps the reader contract, that every operation stands on the line of
// a SEARCH marker or a call's opening tag, and that no marker of a
// block ends up among an edit's lines. The golden replies and the
// prompt are the seeds.
func FuzzCline(f *testing.F) {
	addSeedFiles(f, goldenReplies(FormatCline), promptPath(FormatCline))
	f.Add("<replace_in_file>\n<path>a.py</path>\n<diff>\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n")
	f.Add("<write_to_file><path>a</path><content>x</content></write_to_file>\n<replace_in_file>\n<path>a</path>\n<diff>\n")
	f.Add("<replace_in_file>\n<diff>\n<<< SEARCH\n=======\n</diff>\n")
	f.Fuzz(func(t *testing.T, reply string) {
		lines, r, _ := clineContract.check(t, reply)
		for _, op := range r.Ops {
			// A marker may share its line with the <diff> tag.
			t0 := strings.TrimSpace(lines[op.Line-1])
			if !strings.Contains(strings.ToUpper(t0), "SEARCH") {
				if tool, closing, _, _ := agentTagAt(t0); tool == "" || closing {
					t.Fatalf("operation at line %d: %q", op.Line, lines[op.Line-1])
				}
			}
			if op.Kind == Edit {
				if blank(op.Old) || !op.FirstMatch || op.Group == 0 {
					t.Fatalf("edit %+v", op)
				}
				for _, part := range [][]string{op.Old, op.New} {
					for _, l := range part {
						if m := clineMarker(strings.TrimSpace(l)); m.kind != noMarker || clineDivider(strings.TrimSpace(l)) {
							t.Fatalf("marker %q among the lines of %+v", l, op)
						}
					}
				}
			}
		}
	})
}
