package translate

import (
	"path/filepath"
	"strings"
	"testing"
)

// applyPatchContract is what readApplyPatch promises for any reply. A
// "\r" within a path stays: the engine refuses control characters in
// paths with a message naming the path.
var applyPatchContract = readerContract{
	parse:      readApplyPatch,
	formats:    []string{FormatApplyPatch},
	pathBreaks: "\n",
}

// FuzzParseApplyPatch checks that no reply makes the reader panic,
// that every line it names lies within the reply and holds what it
// should, that operations are well formed, and that the detector agrees
// with the reader. The golden cases' replies, the Codex conformance
// patches (when the suite is beside the project) and the prompt are the
// seeds.
func FuzzParseApplyPatch(f *testing.F) {
	addSeedFiles(f,
		goldenReplies(FormatApplyPatch),
		filepath.Join("..", "..", "..", "shared", "conformance", "codex-apply-patch", "*", "patch.txt"),
		promptPath(FormatApplyPatch))
	f.Add("*** Begin Patch\n*** Update File: a\n@@ x\n@@\n\n*** End of File\nb\n-c\n*** Move to: d\n*** Move to: e\n")
	f.Add("```bash\napply_patch <<'E'\n  *** Begin Patch\n  *** Add File: a\n  +x\n  y\n  +z\nE\n```\n*** Begin Patch\r\n*** X File:\r\n")
	f.Add("*** Begin PAtCh\n*** Add File:0\r0")
	f.Add(" *** Begin Patch\n*** Update File: a\n@@ -0,0 +1 @@\n+x\n@@ -3 +3 @@ f\n x\n*** Delete File: \n*** End Patch\nEOF")
	f.Fuzz(func(t *testing.T, reply string) {
		lines, r, _ := applyPatchContract.check(t, reply)
		at := applyPatchAt(reply)
		if at > 0 && reply[at-1] != '\n' || at < 0 && len(r.Ops)+len(r.Failed) > 0 {
			t.Fatalf("detector at %d, reader found %d operations and %d failures", at, len(r.Ops), len(r.Failed))
		}
		lastEdit := map[string]int{} // line of a path's last edit so far
		for _, op := range r.Ops {
			mark, _ := apMarker(strings.TrimSpace(lines[op.Line-1]))
			switch op.Kind {
			case Create:
				if !op.Overwrite || op.Group != 0 || mark != apMarkAdd {
					t.Fatalf("create at line %d %q: %+v", op.Line, lines[op.Line-1], op)
				}
			case Delete:
				if op.Recursive || mark != apMarkDelete {
					t.Fatalf("delete at line %d %q: %+v", op.Line, lines[op.Line-1], op)
				}
			case Rename:
				if !op.Overwrite || op.Group != 0 {
					t.Fatalf("rename %+v", op)
				}
				if op.Line < lastEdit[op.Path] {
					t.Fatalf("rename at line %d before the edit of %s at line %d", op.Line, op.Path, lastEdit[op.Path])
				}
			case Edit:
				if op.Group == 0 || !op.Ordered || len(op.New) == 0 && len(op.Old) == 0 {
					t.Fatalf("edit %+v", op)
				}
				lastEdit[op.Path] = op.Line
				if op.Where != AtAnchor && (len(op.Old) > 0 || len(op.Scope) > 0) {
					t.Fatalf("edit placed at an edge with lines to find: %+v", op)
				}
			default:
				t.Fatalf("operation kind %s", op.Kind)
			}
		}
	})
}
