package translate

import (
	"errors"
	"strings"
	"testing"
)

// udiffxContract is what readUdiffx promises for any reply.
var udiffxContract = readerContract{
	parse:      readUdiffx,
	formats:    []string{FormatUdiffx},
	pathBreaks: "\r\n",
}

// FuzzParseUdiffx checks that no reply makes the reader panic, that
// every line it names lies within the reply and holds what it should,
// and that operations are well formed. The golden cases' replies and
// the prompt are the seeds.
func FuzzParseUdiffx(f *testing.F) {
	addSeedFiles(f, goldenReplies(FormatUdiffx), promptPath(FormatUdiffx))
	f.Add("<FILE_CHANGES><FILE_DELETE file_path='a'/><FILE_RENAME from_path=a to_path=b></FILE_CHANGES>")
	f.Add("```\n<FILE_CHANGES>\n<FILE_NEW file_path=\"a\">\n```x\n1\n```\n</FILE_NEW>\n<FILE_PATCH file_path=\"b\">\n@@ @@\n-a\n+b\n```\n")
	f.Add("x <FILE_CHANGES>\r\n<FILE_PATCH file_path=\"b\"\r\n<FILE_X>\r\n</FILE_X></file_changes>\r\n<FILE_CHANGES>")
	f.Add("<FILE_CHANGES>\n<FILE_NEW file_path=“a”>\n</FILE_NEW\n<FILE_DELETE file_path=\"b\n")
	f.Add("<FILE_CHANGES\n<FILE_PATCH file_pAth=0>+</FILE_PATCH")
	f.Add("<FILe_CHANGES><FILE_DELETE file_pAth=0\r0>")
	f.Add("<FILE_CHANGES><FILE_APPEND file_path=a>x</FILE_APPEND><FILE_APPEND file_path=b/>\n<file_append file_path=c>\r\n```\r\ny\r\n```\r\n</FILE_APPEND>")
	f.Fuzz(func(t *testing.T, reply string) {
		lines, r, _ := udiffxContract.check(t, reply)
		for _, op := range r.Ops {
			text := lines[op.Line-1]
			switch op.Kind {
			case Create:
				if !op.Overwrite || op.Group != 0 {
					t.Fatalf("create %+v", op)
				}
			case Delete:
				if !op.Recursive {
					t.Fatalf("delete %+v", op)
				}
			case Rename:
			case Edit:
				if op.Where == AtEnd && op.Group == 0 {
					// FILE_APPEND: lines at the end, its tag's line.
					if len(op.Old) > 0 || len(op.New) == 0 || op.Ordered || !strings.Contains(strings.ToUpper(text), "<"+udxAppend) {
						t.Fatalf("append %+v at line %d %q", op, op.Line, text)
					}
					continue
				}
				if op.Group == 0 || !op.Ordered || len(op.Old)+len(op.New) == 0 {
					t.Fatalf("edit %+v", op)
				}
				if !strings.Contains(text, "@@") && !warned(r, op.Line, "no @@ line") {
					t.Fatalf("edit at line %d %q: no @@ line and no warning", op.Line, text)
				}
			default:
				t.Fatalf("operation kind %s", op.Kind)
			}
			if op.Kind != Edit && !strings.Contains(strings.ToUpper(text), "<FILE_") {
				t.Fatalf("%s at line %d %q: no tag there", op.Kind, op.Line, text)
			}
		}
	})
}

// FuzzHunks checks that no patch makes the hunk reader panic, that it
// names only lines of the patch, and that what it returns is well
// formed: a *ParseError of the patch's first line, or edits each from
// an "@@" line (or the one hunk of a patch without any).
func FuzzHunks(f *testing.F) {
	f.Add("@@ -1,2 +1,2 @@\n a\n-b\n+c\n")
	f.Add("diff --git a/x b/x\nindex 1..2\n--- a/x\n+++ b/x\n@@ @@\nctx\n-x\n\\ No newline at end of file\n+y\n\n")
	f.Add("--- a\n+++ b\n-x\n+y\n--- c\n+++ d\n@@ -0,0 +1 @@\n+z")
	f.Add("@@ -3 +3 @@\n\n\n@@\n")
	f.Fuzz(func(t *testing.T, patch string) {
		const first = 5
		lines := splitLines(patch)
		ops, warns, err := readHunks("udiff", "p", 3, lines, first)
		var pe *ParseError
		if err != nil {
			if !errors.As(err, &pe) || pe.Format != "udiff" || pe.Line != first || len(ops) != 0 {
				t.Fatalf("error %v with %d operations", err, len(ops))
			}
		} else if len(ops) == 0 {
			t.Fatal("no error and no operation")
		}
		inPatch := func(what string, line int) {
			if line < first || line >= first+len(lines) {
				t.Fatalf("%s at line %d, outside the patch's lines %d-%d", what, line, first, first+len(lines)-1)
			}
		}
		hasAt := false
		for _, l := range lines {
			hasAt = hasAt || strings.HasPrefix(l, "@@")
		}
		prev := 0
		for _, op := range ops {
			inPatch("operation", op.Line)
			if op.Kind != Edit || op.Path != "p" || op.Format != "udiff" || op.Group != 3 || !op.Ordered || op.LineHint < 0 {
				t.Fatalf("operation %+v", op)
			}
			if op.Line <= prev {
				t.Fatalf("operations out of order: line %d after %d", op.Line, prev)
			}
			prev = op.Line
			if hasAt && !strings.HasPrefix(lines[op.Line-first], "@@") {
				t.Fatalf("operation at line %d %q, not an @@ line", op.Line, lines[op.Line-first])
			}
			if len(op.Old)+len(op.New) == 0 || len(op.Old) > len(lines) || len(op.New) > len(lines) {
				t.Fatalf("operation %+v from %d lines", op, len(lines))
			}
		}
		for _, w := range warns {
			inPatch("warning", w.Line)
		}
	})
}
