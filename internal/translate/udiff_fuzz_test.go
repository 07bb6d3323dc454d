package translate

import (
	"strings"
	"testing"
)

// udiffContract is what readUdiff promises for any reply. Paths may hold
// any character but a line break: refusing control characters is the
// engine's job.
var udiffContract = readerContract{
	parse:      readUdiff,
	formats:    []string{FormatUdiff},
	pathBreaks: "\n",
}

// FuzzParseUdiff checks that no reply makes the reader panic, that
// every line it names lies within the reply and holds what it should,
// that operations are well formed, and that the detector fires exactly
// when the reader finds a diff. The golden cases' replies and the
// prompt are the seeds.
func FuzzParseUdiff(f *testing.F) {
	addSeedFiles(f, goldenReplies(FormatUdiff), promptPath(FormatUdiff))
	f.Add("```diff\n@@ @@\n-a\n+b\n```\n")
	f.Add("diff --git \"a/x\\ty\" b/z\nrename from \"x\\ty\"\nrename to z\nold mode 120000\nnew mode 100755\n")
	f.Add("diff --git a/x b/x\nGIT binary patch\nliteral 0\n\n@@ -1,99999999999 +1 @@\n-\n")
	f.Add("   ```\n   --- /dev/null\n   +++ /dev/null\n   @@\n   -x\n    ```\n```")
	f.Add("x\n```diff y\n--- a\n+++ b\n-c\n```\n<FILE_CHANGES>\ndiff --git a/q b/q\n*** Begin Patch\n")
	f.Add("diff --git \nrename to 00")
	f.Add("diff --git \n--- /dev/null\n+++ 0")
	f.Add("diff --git \"\"0\nrename from 0\r0")
	f.Add("diff --git a/ b/0\nnew mode  100644")                      // a mode line with two spaces is still one
	f.Add("diff --git \"\\n\" 0\nrename from \"\\n\"\nrename to 0\n") // a quoted name holding a line break
	f.Fuzz(func(t *testing.T, reply string) {
		lines, r, err := udiffContract.check(t, reply)
		if at := udiffAt(reply); (at >= 0) != (err == nil) || at > len(reply) {
			t.Fatalf("udiffAt = %d, but readUdiff returned %v", at, err)
		}
		for _, op := range r.Ops {
			if op.Overwrite || op.Recursive {
				t.Fatalf("operation %+v", op)
			}
			text := strings.TrimLeft(lines[op.Line-1], " ")
			switch op.Kind {
			case Edit:
				if op.Group == 0 || !op.Ordered || len(op.Old)+len(op.New) == 0 || op.LineHint < 0 {
					t.Fatalf("edit %+v", op)
				}
				if !strings.HasPrefix(text, "@@") && !warned(r, op.Line, "no @@ line") {
					t.Fatalf("edit at line %d %q: no @@ line and no warning", op.Line, text)
				}
			case Create, Delete, Rename:
				if !strings.HasPrefix(text, "diff --git ") && !strings.HasPrefix(text, "--- ") && !strings.HasPrefix(text, "+++ ") {
					t.Fatalf("%s at line %d %q: no file header there", op.Kind, op.Line, text)
				}
				if op.Kind == Rename && op.NewPath == op.Path {
					t.Fatalf("rename %+v", op)
				}
			case Chmod:
				if !strings.Contains(text, "mode ") || !strings.Contains(text, "10075") && !strings.Contains(text, "10064") {
					t.Fatalf("chmod at line %d %q: no mode line there", op.Line, text)
				}
			default:
				t.Fatalf("operation kind %s", op.Kind)
			}
		}
	})
}
