package translate

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// FuzzParseSearchReplace checks that no reply makes the reader panic,
// that every line it names lies within the reply, and that operations
// are well formed. The golden cases' replies are the seeds.
func FuzzParseSearchReplace(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(searchReplaceCases, "*.txtar"))
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if reply, ok := goldenReply(a); ok {
			f.Add(reply)
		}
	}
	f.Add("a.py\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE")
	f.Add("<<<<<<< SEARCH\n")
	f.Add("```bash\n")
	f.Fuzz(func(t *testing.T, reply string) {
		n := len(splitLines(reply))
		inReply := func(what string, line int) {
			if line < 1 || line > n {
				t.Fatalf("%s at line %d, outside the reply's %d lines", what, line, n)
			}
		}
		r, err := ParseSearchReplace(reply)
		if r == nil {
			t.Fatal("nil Reply")
		}
		var pe *ParseError
		switch {
		case err == nil, errors.Is(err, ErrNoEdits):
		case errors.As(err, &pe):
			inReply("error", pe.Line)
		default:
			t.Fatalf("unexpected error type %T: %v", err, err)
		}
		if r.Format != FormatDiff && r.Format != FormatDiffFenced {
			t.Fatalf("format %q", r.Format)
		}
		for _, op := range r.Ops {
			inReply("operation", op.Line)
			if op.Path == "" || strings.ContainsAny(op.Path, "\r\n") {
				t.Fatalf("operation with path %q", op.Path)
			}
			if op.Kind != Edit && op.Kind != Create || (op.Kind == Create) != op.Append {
				t.Fatalf("operation %+v", op)
			}
			if op.Kind == Edit && blank(op.Old) {
				t.Fatalf("edit without SEARCH lines: %+v", op)
			}
			for _, l := range append(append([]string{}, op.Old...), op.New...) {
				if strings.Contains(l, "\n") {
					t.Fatalf("line %q holds a line break", l)
				}
			}
		}
		for _, s := range r.Shell {
			inReply("shell block", s.Line)
		}
		for _, w := range r.Warnings {
			inReply("warning", w.Line)
		}
		sp, _ := splitSearchReplace(reply)
		for _, b := range sp.Blocks {
			inReply("block", b.Line)
			inReply("block end", b.End)
			if b.NameLine != 0 {
				inReply("file name", b.NameLine)
			}
		}
		if err != nil && pe != nil {
			inReply("stop", sp.Stop)
		}
	})
}
