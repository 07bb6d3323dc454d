package translate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseFIUP checks that no reply makes the reader panic, that every
// line it names lies within the reply, and that operations are well
// formed. The golden cases' replies and the prompt's example are the
// seeds.
func FuzzParseFIUP(f *testing.F) {
	replies, _ := filepath.Glob(filepath.Join("..", "testdata", "fiup", "*", "reply.md"))
	for _, file := range replies {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	if data, err := os.ReadFile(filepath.Join("prompts", "fiup.md")); err == nil {
		f.Add(string(data))
	}
	f.Add("<<<FIUP>>>\n[FILE]: a.py\n[OP]: REPLACE\n[ANCHOR]\n→x\n[CONTENT]\n\\→y\n<<<END>>>\n")
	f.Add("```fiup\n<<<FIUP>>>\n[FILE]: a\n[OP]: CREATE\n[CONTENT]\n<<<END>>>\n<<<FIUP>>>\n")
	f.Add("```python\n<<<FIUP>>>\n[OP]: delete\n[FILE]:\n[ANCHOR]\n\n<<<END>>>\n```\n<<<END>>>")
	f.Add("<<<FIUP>>>\r\n[FILE]: `a`\r\n[OP]: INSERT_BEFORE\r\n[ANCHOR]\r\n→\r\n[CONTENT]\r\n")
	f.Fuzz(func(t *testing.T, reply string) {
		n := len(splitLines(reply))
		inReply := func(what string, line int) {
			if line < 1 || line > n {
				t.Fatalf("%s at line %d, outside the reply's %d lines", what, line, n)
			}
		}
		r, err := ParseFIUP(reply)
		if r == nil {
			t.Fatal("nil Reply")
		}
		var pe *ParseError
		switch {
		case err == nil:
			if len(r.Ops) == 0 {
				t.Fatal("no error and no operation")
			}
		case errors.Is(err, ErrNoEdits):
		case errors.As(err, &pe):
			inReply("error", pe.Line)
			if pe.Format != "fiup" {
				t.Fatalf("error format %q", pe.Format)
			}
		default:
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		if r.Format != "fiup" {
			t.Fatalf("format %q", r.Format)
		}
		if len(r.Prose) > n {
			t.Fatalf("%d prose lines from a reply of %d", len(r.Prose), n)
		}
		for _, op := range r.Ops {
			inReply("operation", op.Line)
			if op.Format != "fiup" || op.FirstMatch || op.Append || op.Overwrite {
				t.Fatalf("operation %+v", op)
			}
			if op.Path == "" || strings.ContainsAny(op.Path, "\r\n") {
				t.Fatalf("operation with path %q", op.Path)
			}
			if t0 := strings.TrimSpace(splitLines(reply)[op.Line-1]); !strings.EqualFold(t0, fiupStart) {
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
			for _, ls := range [][]string{op.Old, op.Before, op.After, op.New} {
				for _, l := range ls {
					if strings.ContainsAny(l, "\n") {
						t.Fatalf("line %q holds a line break", l)
					}
				}
			}
		}
		for _, w := range r.Warnings {
			inReply("warning", w.Line)
		}
	})
}
