package translate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseApplyPatch checks that no reply makes the reader panic,
// that every line it names lies within the reply and holds what it
// should, that operations are well formed, and that the detector agrees
// with the reader. The golden cases' replies, the Codex conformance
// patches (when the suite is beside the project) and the prompt are the
// seeds.
func FuzzParseApplyPatch(f *testing.F) {
	var seeds []string
	for _, pattern := range []string{
		filepath.Join("..", "testdata", FormatApplyPatch, "*", "reply.md"),
		filepath.Join("..", "..", "shared", "conformance", "codex-apply-patch", "*", "patch.txt"),
		filepath.Join("prompts", FormatApplyPatch+".md"),
	} {
		files, _ := filepath.Glob(pattern)
		seeds = append(seeds, files...)
	}
	for _, file := range seeds {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("*** Begin Patch\n*** Update File: a\n@@ x\n@@\n\n*** End of File\nb\n-c\n*** Move to: d\n*** Move to: e\n")
	f.Add("```bash\napply_patch <<'E'\n  *** Begin Patch\n  *** Add File: a\n  +x\n  y\n  +z\nE\n```\n*** Begin Patch\r\n*** X File:\r\n")
	f.Add("*** Begin PAtCh\n*** Add File:0\r0")
	f.Add(" *** Begin Patch\n*** Update File: a\n@@ -0,0 +1 @@\n+x\n@@ -3 +3 @@ f\n x\n*** Delete File: \n*** End Patch\nEOF")
	f.Fuzz(func(t *testing.T, reply string) {
		lines := splitLines(reply)
		n := len(lines)
		inReply := func(what string, line int) {
			if line < 1 || line > n {
				t.Fatalf("%s at line %d, outside the reply's %d lines", what, line, n)
			}
		}
		r, err := ParseApplyPatch(reply)
		if r == nil {
			t.Fatal("nil Reply")
		}
		switch {
		case err == nil:
			if len(r.Ops)+len(r.Failed) == 0 {
				t.Fatal("no error and no section")
			}
		case errors.Is(err, ErrNoEdits):
			if len(r.Ops)+len(r.Failed) != 0 {
				t.Fatalf("ErrNoEdits with sections: %v", err)
			}
		default:
			t.Fatalf("unexpected error %T: %v", err, err)
		}
		at := applyPatchAt(reply)
		if at > 0 && reply[at-1] != '\n' || at < 0 && len(r.Ops)+len(r.Failed) > 0 {
			t.Fatalf("detector at %d, reader found %d operations and %d failures", at, len(r.Ops), len(r.Failed))
		}
		if r.Format != FormatApplyPatch || len(r.Prose) > n {
			t.Fatalf("format %q, %d prose lines from a reply of %d", r.Format, len(r.Prose), n)
		}
		groups := map[int]string{}
		lastEdit := map[string]int{} // line of a path's last edit so far
		for _, op := range r.Ops {
			inReply("operation", op.Line)
			// A "\r" within a line stays: the engine refuses control
			// characters in paths with a message naming the path.
			if op.Format != FormatApplyPatch || op.Path == "" || strings.Contains(op.Path, "\n") {
				t.Fatalf("operation %+v", op)
			}
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
				if op.NewPath == "" || strings.Contains(op.NewPath, "\n") || !op.Overwrite || op.Group != 0 {
					t.Fatalf("rename %+v", op)
				}
				if op.Line < lastEdit[op.Path] {
					t.Fatalf("rename at line %d before the edit of %s at line %d", op.Line, op.Path, lastEdit[op.Path])
				}
			case Edit:
				if op.Group == 0 || !op.Ordered || len(op.New) == 0 && len(op.Old) == 0 {
					t.Fatalf("edit %+v", op)
				}
				if p, ok := groups[op.Group]; ok && p != op.Path {
					t.Fatalf("group %d spans %s and %s", op.Group, p, op.Path)
				}
				groups[op.Group] = op.Path
				lastEdit[op.Path] = op.Line
				if op.Where != AtAnchor && (len(op.Old) > 0 || len(op.Scope) > 0) {
					t.Fatalf("edit placed at an edge with lines to find: %+v", op)
				}
				for _, ls := range [][]string{op.Scope, op.Old, op.New} {
					for _, l := range ls {
						if strings.ContainsAny(l, "\n") {
							t.Fatalf("line %q holds a line break", l)
						}
					}
				}
			default:
				t.Fatalf("operation kind %s", op.Kind)
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
