package translate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseChunk checks that no reply makes the CHUNK reader panic,
// that every line it names lies within the reply, and that operations
// are well formed. The golden cases' replies are the seeds.
func FuzzParseChunk(f *testing.F) {
	replies, _ := filepath.Glob(filepath.Join("..", "testdata", "chunk", "*", "reply.md"))
	for _, file := range replies {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("operations:\n  - path: a\n    op: replace_text\n    marker: x\n    payload: y\n")
	f.Add("```yaml\noperations:\n- {path: a, op: delete_file}\n```\n")
	f.Add("operations:\n  - path: &a x\n    op: *a\n")
	f.Add("```\noperations: [\n")
	f.Fuzz(func(t *testing.T, reply string) {
		n := len(splitLines(reply))
		inReply := func(what string, line int) {
			if line < 1 || line > n {
				t.Fatalf("%s at line %d, outside the reply's %d lines", what, line, n)
			}
		}
		r, err := ParseChunk(reply)
		if r == nil {
			t.Fatal("nil Reply")
		}
		var pe *ParseError
		switch {
		case err == nil, errors.Is(err, ErrNoEdits):
		case errors.As(err, &pe):
			inReply("error", pe.Line)
			if pe.Format != FormatChunk {
				t.Fatalf("error format %q", pe.Format)
			}
		default:
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		if r.Format != FormatChunk {
			t.Fatalf("format %q", r.Format)
		}
		for _, op := range r.Ops {
			inReply("operation", op.Line)
			if op.Format != FormatChunk || op.Path == "" || strings.ContainsAny(op.Path, "\r\n") {
				t.Fatalf("operation %+v", op)
			}
			switch op.Kind {
			case Create:
				if !op.Overwrite {
					t.Fatalf("create without overwrite: %+v", op)
				}
			case Delete:
			case Edit:
				if op.Where == AtAnchor && blank(op.Old) && blank(op.Before) && blank(op.After) {
					t.Fatalf("edit with nothing to find: %+v", op)
				}
				if op.Where != AtAnchor && len(op.Before)+len(op.Old)+len(op.After) > 0 {
					t.Fatalf("edit at an edge with lines to find: %+v", op)
				}
			default:
				t.Fatalf("operation kind %v", op.Kind)
			}
			for _, lines := range [][]string{op.Before, op.Old, op.After, op.New} {
				for _, l := range lines {
					if strings.Contains(l, "\n") {
						t.Fatalf("line %q holds a line break", l)
					}
				}
			}
		}
		for _, s := range r.Shell {
			inReply("shell block", s.Line)
		}
		for _, w := range r.Warnings {
			inReply("warning", w.Line)
		}
	})
}
