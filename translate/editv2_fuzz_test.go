package translate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParseEditV2 checks that no reply makes the reader panic, that
// every line it names lies within the reply (an operation's on its
// "<<<<<<< EDIT" line), that operations are well formed, and that the
// operations written back as blocks read the same. The golden cases'
// replies and the prompt's example are the seeds.
func FuzzParseEditV2(f *testing.F) {
	replies, _ := filepath.Glob(filepath.Join("..", "testdata", FormatEditV2, "*", "reply.md"))
	for _, file := range replies {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	if example, err := PromptExample(FormatEditV2); err == nil {
		f.Add(example)
	}
	f.Add("a.py\n<<<<<<< EDIT\nx\n-------\ny\n=======\nz\n-------\nw\n>>>>>>>\n")
	f.Add("```\na.py\n<<<<<<< EDIT\n-------\n=======\nnew\n-------\n>>>>>>>\n```\n")
	f.Add("a.py\n```bash\n<<<<<<< EDIT\n-------\n")
	f.Add("<<<<<<< EDIT\n")
	f.Fuzz(func(t *testing.T, reply string) {
		lines := splitLines(reply)
		inReply := func(what string, line int) {
			if line < 1 || line > len(lines) {
				t.Fatalf("%s at line %d, outside the reply's %d lines", what, line, len(lines))
			}
		}
		r, err := ParseEditV2(reply)
		if r == nil {
			t.Fatal("nil Reply")
		}
		var pe *ParseError
		switch {
		case err == nil:
			if len(r.Ops) == 0 {
				t.Fatal("no operations and no error")
			}
		case errors.Is(err, ErrNoEdits):
			if len(r.Ops) != 0 {
				t.Fatalf("ErrNoEdits with %d operations", len(r.Ops))
			}
		case errors.As(err, &pe):
			inReply("error", pe.Line)
			if pe.Format != FormatEditV2 || !ev2Is(lines[pe.Line-1], ev2Start) {
				t.Fatalf("error %+v not on a block start", pe)
			}
		default:
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		if r.Format != FormatEditV2 {
			t.Fatalf("format %q", r.Format)
		}
		prev := 0
		for _, op := range r.Ops {
			inReply("operation", op.Line)
			if !ev2Is(lines[op.Line-1], ev2Start) || op.Line <= prev {
				t.Fatalf("operation at line %d: %q (previous at %d)", op.Line, lines[op.Line-1], prev)
			}
			prev = op.Line
			if op.Format != FormatEditV2 || op.Path == "" || strings.ContainsAny(op.Path, "\r\n") {
				t.Fatalf("operation %+v", op)
			}
			switch op.Kind {
			case Edit:
				if len(op.Before)+len(op.Old)+len(op.After) == 0 {
					t.Fatalf("edit with nothing to find: %+v", op)
				}
			case Create:
				if len(op.Before)+len(op.Old)+len(op.After) != 0 || len(op.New) == 0 || op.Append || op.Overwrite {
					t.Fatalf("create %+v", op)
				}
			default:
				t.Fatalf("operation kind %v", op.Kind)
			}
			for _, part := range [][]string{op.Before, op.Old, op.New, op.After} {
				for _, l := range part {
					if strings.Contains(l, "\n") || ev2Is(l, ev2Sep) || ev2Is(l, ev2Mid) || ev2Is(l, ev2End) || ev2Is(l, ev2Start) {
						t.Fatalf("section line %q", l)
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

		// Written back as blocks, the operations read the same (paths
		// that cleaning would change, and lines ending in "\r", aside).
		var b strings.Builder
		for _, op := range r.Ops {
			if n, ok := cleanFileName(op.Path); !ok || n != op.Path {
				return
			}
			b.WriteString(op.Path + "\n" + ev2Start + "\n")
			for i, part := range [][]string{op.Before, op.Old, op.New, op.After} {
				for _, l := range part {
					if strings.HasSuffix(l, "\r") {
						return // a "\r" before the line end would be read as CRLF
					}
					b.WriteString(l + "\n")
				}
				b.WriteString([...]string{ev2Sep, ev2Mid, ev2Sep, ev2End}[i] + "\n")
			}
		}
		if len(r.Ops) == 0 {
			return
		}
		again, err := ParseEditV2(b.String())
		if err != nil {
			t.Fatalf("written back: %v\n%s", err, b.String())
		}
		norm := func(ops []Operation) []Operation {
			out := make([]Operation, len(ops))
			for i, op := range ops {
				op.Line = 0
				out[i] = op
			}
			return out
		}
		if diff := cmp.Diff(norm(r.Ops), norm(again.Ops)); diff != "" {
			t.Fatalf("written back (-first +again):\n%s", diff)
		}
	})
}
