package translate

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// hunkDump writes the operations and warnings readHunks returned, one
// line each, edit lines marked " " (in old and new), "-" (old only)
// and "+" (new only) when old and new share a prefix and a suffix.
func hunkDump(ops []Operation, warns []Warning, err error) string {
	var b strings.Builder
	for _, op := range ops {
		fmt.Fprintf(&b, "edit line %d group %d", op.Line, op.Group)
		if op.LineHint != 0 {
			fmt.Fprintf(&b, " hint %d", op.LineHint)
		}
		if op.Where == AtStart {
			b.WriteString(" at-start")
		}
		if op.Where == AtEnd {
			b.WriteString(" at-end")
		}
		if !op.Ordered {
			b.WriteString(" unordered")
		}
		b.WriteString("\n")
		for _, l := range op.Old {
			fmt.Fprintf(&b, "  old|%s\n", l)
		}
		for _, l := range op.New {
			fmt.Fprintf(&b, "  new|%s\n", l)
		}
	}
	for _, w := range warns {
		fmt.Fprintf(&b, "warning %d: %s\n", w.Line, w.Msg)
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

func TestReadHunks(t *testing.T) {
	for _, tc := range []struct {
		name  string
		patch string // lines; the first is reply line 10
		want  string
	}{{
		name: "one hunk with numbers",
		patch: `@@ -3,4 +3,4 @@
 a
-b
+B
 c`,
		want: `edit line 10 group 7 hint 3
  old|a
  old|b
  old|c
  new|a
  new|B
  new|c
`,
	}, {
		name: "headers, wrong counts, several hunks in order",
		patch: `diff --git a/x.py b/x.py
index 0123456..789abcd 100644
--- a/x.py
+++ b/x.py
@@ -1,9 +1,1 @@
 x = 1
-y = 2
@@ -20,1 +20,7 @@ def f():
     return 1
+    # done`,
		want: `edit line 14 group 7 hint 1
  old|x = 1
  old|y = 2
  new|x = 1
edit line 17 group 7 hint 20
  old|    return 1
  new|    return 1
  new|    # done
`,
	}, {
		name: "no numbers, numbers without counts",
		patch: `@@ @@
-a
+b
@@ -7 +7 @@
-c
+d`,
		want: `edit line 10 group 7
  old|a
  new|b
edit line 13 group 7 hint 7
  old|c
  new|d
`,
	}, {
		name: "a context line that lost its space, and an empty one",
		patch: `@@ -1,5 +1,5 @@
def f():

-    return 1
+    return 2
 end`,
		want: `edit line 10 group 7 hint 1
  old|def f():
  old|
  old|    return 1
  old|end
  new|def f():
  new|
  new|    return 2
  new|end
`,
	}, {
		name: "empty lines ending a hunk are separation",
		patch: `@@ -1 +1 @@
-a
+b


@@ -9 +9 @@
 x

-y

`,
		want: `edit line 10 group 7 hint 1
  old|a
  new|b
edit line 15 group 7 hint 9
  old|x
  old|
  old|y
  new|x
  new|
`,
	}, {
		name: "no newline markers are not content",
		patch: `@@ -1,2 +1,2 @@
 a
-b
\ No newline at end of file
+c
\ No newline at end of file`,
		want: `edit line 10 group 7 hint 1
  old|a
  old|b
  new|a
  new|c
`,
	}, {
		name: "a line starting with a backslash but no space is context",
		patch: `@@ @@
\begin{document}
-old
+new`,
		want: `edit line 10 group 7
  old|\begin{document}
  old|old
  new|\begin{document}
  new|new
`,
	}, {
		name: "context-only hunks are ignored",
		patch: `@@ -1,2 +1,2 @@
 a
 b
@@ -5,2 +5,2 @@
 e
-f`,
		want: `edit line 13 group 7 hint 5
  old|e
  old|f
  new|e
warning 10: the hunk changes no line (context only); ignored
`,
	}, {
		name: "pure addition at the start of a file",
		patch: `--- /dev/null
+++ b/new.txt
@@ -0,0 +1,2 @@
+one
+two`,
		want: `edit line 12 group 7 at-start
  new|one
  new|two
`,
	}, {
		name: "pure addition without numbers goes at the end",
		patch: `@@
+c
+d`,
		want: `edit line 10 group 7 at-end
  new|c
  new|d
`,
	}, {
		name:  "pure addition without a header goes at the end",
		patch: `+c`,
		want: `edit line 10 group 7 at-end
  new|c
warning 10: the patch has no @@ line; its lines are read as one hunk
`,
	}, {
		name: "pure addition with numbers keeps its line as a hint",
		patch: `@@ -2,0 +3 @@
+c`,
		want: `edit line 10 group 7 hint 2 at-end
  new|c
`,
	}, {
		name: "pure addition among hunks with context",
		patch: `@@ -1,2 +1,2 @@
 a
-b
+B
@@
+z`,
		want: `edit line 10 group 7 hint 1
  old|a
  old|b
  new|a
  new|B
edit line 14 group 7 at-end
  new|z
`,
	}, {
		name: "pure additions going at the end are one edit",
		patch: `@@
+x
@@ -1,2 +1,2 @@
 a
-b
+B
@@
+y`,
		want: `edit line 10 group 7 at-end
  new|x
  new|y
edit line 12 group 7 hint 1
  old|a
  old|b
  new|a
  new|B
`,
	}, {
		name: "added lines with a context line stay placed by it",
		patch: `@@
 a
+b`,
		want: `edit line 10 group 7
  old|a
  new|a
  new|b
`,
	}, {
		name: "a removed line like a header stays a removed line",
		patch: `@@ -1,3 +1,3 @@
 select 1;
--- old comment
+++ new comment
 select 2;`,
		want: `edit line 10 group 7 hint 1
  old|select 1;
  old|-- old comment
  old|select 2;
  new|select 1;
  new|++ new comment
  new|select 2;
`,
	}, {
		name: "a second file header ends a hunk",
		patch: `@@ -1 +1 @@
-a
+b
--- a/other
+++ b/other
@@ -4 +4 @@
-c
+d`,
		want: `edit line 10 group 7 hint 1
  old|a
  new|b
edit line 15 group 7 hint 4
  old|c
  new|d
`,
	}, {
		name: "text before the first @@ is ignored",
		patch: `Here is the patch:
more words
@@ -2 +2 @@
-a
+b`,
		want: `edit line 12 group 7 hint 2
  old|a
  new|b
warning 10: "Here is the patch:" stands before the first @@ line and is ignored
`,
	}, {
		name: "no @@ line at all: one hunk",
		patch: `--- a/x
+++ b/x
 keep
-old
+new`,
		want: `edit line 12 group 7
  old|keep
  old|old
  new|keep
  new|new
warning 12: the patch has no @@ line; its lines are read as one hunk
`,
	}, {
		name:  "empty patch",
		patch: "\n  \n",
		want:  "error: udiffx: reply line 10: the patch is empty\n",
	}, {
		name:  "headers only",
		patch: "--- a/x\n+++ b/x\n",
		want:  "error: udiffx: reply line 10: the patch holds no hunk: write each change as an @@ line followed by context (\" \"), removed (\"-\") and added (\"+\") lines\n",
	}, {
		name:  "context only",
		patch: "@@ -1 +1 @@\n a\n",
		want:  "warning 10: the hunk changes no line (context only); ignored\nerror: udiffx: reply line 10: the patch changes nothing: its hunks hold context lines only, no \"-\" or \"+\" line\n",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			ops, warns, err := readHunks("udiffx", "x.py", 7, strings.Split(tc.patch, "\n"), 10)
			var pe *ParseError
			if err != nil && !errors.As(err, &pe) {
				t.Fatalf("error %T: %v", err, err)
			}
			for _, op := range ops {
				if op.Kind != Edit || op.Path != "x.py" || op.Format != "udiffx" {
					t.Errorf("operation %+v", op)
				}
			}
			if diff := cmp.Diff(tc.want, hunkDump(ops, warns, err)); diff != "" {
				t.Errorf("readHunks (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHunkOldStart(t *testing.T) {
	for _, tc := range []struct {
		line string
		n    int
		ok   bool
	}{
		{"@@ -12,5 +12,6 @@", 12, true},
		{"@@ -12 +12 @@ func f() {", 12, true},
		{"@@ -0,0 +1 @@", 0, true},
		{"@@@ -3,2 -3,2 +3,3 @@@", 3, true},
		{"@@-4,1+4,1@@", 4, true},
		{"@@ @@", 0, false},
		{"@@", 0, false},
		{"@@ +3 @@", 0, false},
		{"@@ -x @@", 0, false},
		{"@@ -99999999999 @@", 0, false},
	} {
		n, ok := hunkOldStart(tc.line)
		if n != tc.n || ok != tc.ok {
			t.Errorf("hunkOldStart(%q) = %d, %v; want %d, %v", tc.line, n, ok, tc.n, tc.ok)
		}
	}
}

func TestParseHunksHeaders(t *testing.T) {
	p, err := parseHunks(strings.Split(`diff --git a/old.go b/new.go
similarity index 90%
rename from old.go
rename to new.go
--- a/old.go	2024-01-01 00:00:00
+++ b/new.go
@@ -1 +1 @@
-a
\ No newline at end of file
+b`, "\n"), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := []hunkFileHeader{{Line: 1, Git: "a/old.go b/new.go", Old: "a/old.go\t2024-01-01 00:00:00", New: "b/new.go",
		Ext: []hunkExt{{2, "similarity index 90%"}, {3, "rename from old.go"}, {4, "rename to new.go"}}}}
	if diff := cmp.Diff(want, p.Headers); diff != "" {
		t.Errorf("headers (-want +got):\n%s", diff)
	}
	if len(p.Hunks) != 1 || !p.Hunks[0].NoEOLOld || p.Hunks[0].NoEOLNew || p.Hunks[0].File != 0 {
		t.Errorf("hunks %+v", p.Hunks)
	}
}

// TestParseHunksFiles checks that every hunk knows the file header it
// follows, that binary data is skipped, and that a git-style header
// pair starts a file even in a patch without "@@" lines.
func TestParseHunksFiles(t *testing.T) {
	for _, tc := range []struct {
		name, patch string
		want        []int // File of each hunk
		headers     int
	}{{
		name:    "hunk before any header",
		patch:   "@@ @@\n-a\n+b\n--- a/x\n+++ b/x\n@@ @@\n-c\n+d",
		want:    []int{-1, 0},
		headers: 1,
	}, {
		name: "binary data between two files",
		patch: "diff --git a/i.png b/i.png\nindex 1..2 100644\nGIT binary patch\nliteral 13\nUcmYdHVn|M9WMXDvWn<?601<ToumAu6\n\nliteral 5\nMcmYdHVn|K_00f)?ivR!s\n\n" +
			"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b",
		want:    []int{1},
		headers: 2,
	}, {
		name:    "no @@ lines, two files",
		patch:   "--- a/x\n+++ b/x\n-a\n+b\n--- a/y\n+++ b/y\n-c\n+d",
		want:    []int{0, 1},
		headers: 2,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parseHunks(strings.Split(tc.patch, "\n"), 1)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, h := range p.Hunks {
				got = append(got, h.File)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" || len(p.Headers) != tc.headers {
				t.Errorf("files of the hunks (-want +got):\n%s\nheaders %+v", diff, p.Headers)
			}
		})
	}
}

func TestHunkBinaryData(t *testing.T) {
	for _, tc := range []struct {
		line string
		want bool
	}{
		{"literal 5", true},
		{"delta 12", true},
		{"", true},
		{"McmYdHVn|K_00f)?ivR!s", true},
		{"UcmYdHVn|M9WMXDvWn<?601<ToumAu6", true},
		{"Fix", false},
		{"diff --git a/x b/x", false},
		{"@@ -1 +1 @@", false},
	} {
		if got := hunkBinaryData(tc.line); got != tc.want {
			t.Errorf("hunkBinaryData(%q) = %v", tc.line, got)
		}
	}
}

// readHunks reads the unified diff of one file, lines whose first
// stands at reply line first, as the udiff and udiffx readers do
// (parseHunks, then hunkOps), with parseHunks' warnings; its error is
// a *ParseError of format.
func readHunks(format, path string, group int, lines []string, first int) ([]Operation, []Warning, error) {
	p, err := parseHunks(lines, first)
	if err != nil {
		err.Format = format
		return nil, p.Warnings, err
	}
	return hunkOps(p, format, path, group), p.Warnings, nil
}
