package translate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseUdiff checks that no reply makes the reader panic, that
// every line it names lies within the reply and holds what it should
// (paths may hold any character but a line break: refusing control
// characters is the engine's job),
// that operations are well formed, and that the detector fires exactly
// when the reader finds a diff. The golden cases' replies and the
// prompt are the seeds.
func FuzzParseUdiff(f *testing.F) {
	replies, _ := filepath.Glob(filepath.Join("..", "testdata", "udiff", "*", "reply.md"))
	for _, file := range replies {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	if data, err := os.ReadFile(filepath.Join("prompts", "udiff.md")); err == nil {
		f.Add(string(data))
	}
	f.Add("```diff\n@@ @@\n-a\n+b\n```\n")
	f.Add("diff --git \"a/x\\ty\" b/z\nrename from \"x\\ty\"\nrename to z\nold mode 120000\nnew mode 100755\n")
	f.Add("diff --git a/x b/x\nGIT binary patch\nliteral 0\n\n@@ -1,99999999999 +1 @@\n-\n")
	f.Add("   ```\n   --- /dev/null\n   +++ /dev/null\n   @@\n   -x\n    ```\n```")
	f.Add("x\n```diff y\n--- a\n+++ b\n-c\n```\n<FILE_CHANGES>\ndiff --git a/q b/q\n*** Begin Patch\n")
	f.Add("diff --git \nrename to 00")
	f.Add("diff --git \n--- /dev/null\n+++ 0")
	f.Add("diff --git \"\"0\nrename from 0\r0")
	f.Fuzz(func(t *testing.T, reply string) {
		lines := splitLines(reply)
		n := len(lines)
		inReply := func(what string, line int) {
			if line < 1 || line > n {
				t.Fatalf("%s at line %d, outside the reply's %d lines", what, line, n)
			}
		}
		r, err := ParseUdiff(reply)
		if r == nil {
			t.Fatal("nil Reply")
		}
		switch {
		case err == nil:
			if len(r.Ops)+len(r.Failed) == 0 {
				t.Fatal("no error and no operation")
			}
		case errors.Is(err, ErrNoEdits):
			if len(r.Ops)+len(r.Failed) != 0 {
				t.Fatalf("ErrNoEdits with operations: %v", err)
			}
		default:
			t.Fatalf("unexpected error %T: %v", err, err)
		}
		if at := udiffAt(reply); (at >= 0) != (err == nil) || at > len(reply) {
			t.Fatalf("udiffAt = %d, but ParseUdiff returned %v", at, err)
		}
		if r.Format != FormatUdiff || len(r.Prose) > n {
			t.Fatalf("format %q, %d prose lines of %d", r.Format, len(r.Prose), n)
		}
		groups := map[int]string{}
		for _, op := range r.Ops {
			inReply("operation", op.Line)
			if op.Format != FormatUdiff || op.Path == "" || strings.Contains(op.Path, "\n") || op.Overwrite || op.Recursive {
				t.Fatalf("operation %+v", op)
			}
			text := strings.TrimLeft(lines[op.Line-1], " ")
			switch op.Kind {
			case Edit:
				if op.Group == 0 || !op.Ordered || len(op.Old)+len(op.New) == 0 || op.LineHint < 0 {
					t.Fatalf("edit %+v", op)
				}
				if p, ok := groups[op.Group]; ok && p != op.Path {
					t.Fatalf("group %d spans %s and %s", op.Group, p, op.Path)
				}
				groups[op.Group] = op.Path
				if !strings.HasPrefix(text, "@@") && !warned(r, op.Line, "no @@ line") {
					t.Fatalf("edit at line %d %q: no @@ line and no warning", op.Line, text)
				}
			case Create, Delete, Rename:
				if !strings.HasPrefix(text, "diff --git ") && !strings.HasPrefix(text, "--- ") && !strings.HasPrefix(text, "+++ ") {
					t.Fatalf("%s at line %d %q: no file header there", op.Kind, op.Line, text)
				}
				if op.Kind == Rename && (op.NewPath == "" || op.NewPath == op.Path || strings.Contains(op.NewPath, "\n")) {
					t.Fatalf("rename %+v", op)
				}
			case Chmod:
				if !strings.Contains(text, "mode 1007") && !strings.Contains(text, "mode 1006") {
					t.Fatalf("chmod at line %d %q: no mode line there", op.Line, text)
				}
			default:
				t.Fatalf("operation kind %s", op.Kind)
			}
			for _, ls := range [][]string{op.Old, op.New} {
				for _, l := range ls {
					if strings.ContainsAny(l, "\n") {
						t.Fatalf("line %q holds a line break", l)
					}
				}
			}
		}
		for _, f := range r.Failed {
			inReply("failure", f.Line)
			if f.Msg == "" {
				t.Fatal("failure without a message")
			}
		}
		for _, w := range r.Warnings {
			inReply("warning", w.Line)
		}
		for _, s := range r.Shell {
			inReply("shell block", s.Line)
		}
	})
}
