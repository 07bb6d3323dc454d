package translate

import (
	"errors"
	"strings"
	"testing"
)

func TestParseApplyPatch(t *testing.T) {
	applyPatchContract.runDumpCases(t, apDump, apCases)
}

func TestApplyPatchAt(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int
	}{
		{"first line", "*** Begin Patch\n*** End Patch\n", 0},
		{"after prose, CRLF", "Hi.\r\n\r\n*** Begin Patch\r\n", 7},
		{"padded", "x\n  *** Begin Patch \t\n", 2},
		{"last line without newline", "x\n*** Begin Patch", 2},
		{"the first of two", "a\n*** begin patch\n*** Begin Patch\n", 2},
		{"named in prose", "Write *** Begin Patch first.\n", -1},
		{"quoted as code", "`*** Begin Patch`\n", -1},
		{"a near miss", "** Begin Patch\n*** Begin Patch ***\n", 15},
		{"Markdown bold is no near miss", "**Begin Patch**\n** Begin Patch\n", -1},
		{"empty", "", -1},
	} {
		if got := applyPatchAt(tc.text); got != tc.want {
			t.Errorf("%s: applyPatchAt = %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestApplyPatchThroughParse checks what Parse adds: detection among
// the other formats, and the order of operations by line, which must
// keep a move after the edits of its file.
func TestApplyPatchThroughParse(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-x\n+y\n*** End Patch\n"
	if got := Detect("Fix.\n\n" + patch); len(got) != 1 || got[0] != FormatApplyPatch {
		t.Errorf("Detect = %v", got)
	}
	if got := Detect(srSample + "\n" + patch); len(got) != 2 || got[0] != "diff" || got[1] != FormatApplyPatch {
		t.Errorf("Detect of a mixed reply = %v", got)
	}
	r, err := Parse("Fix.\n\n"+patch, ParseOptions{Format: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Ops) != 2 || r.Ops[0].Kind != Edit || r.Ops[1].Kind != Rename || r.Ops[0].Format != FormatApplyPatch {
		t.Fatalf("operations: %+v", r.Ops)
	}
	r, err = Parse("*** Begin Patch\n*** Frobnicate File: a\n*** End Patch\n", ParseOptions{Format: FormatApplyPatch})
	if err != nil || len(r.Ops) != 1 || r.Ops[0].Kind != Invalid || r.Ops[0].Line != 2 || !strings.Contains(r.Ops[0].Comment, "Frobnicate") {
		t.Fatalf("an unknown header: %v %+v", err, r.Ops)
	}
	if _, err := Parse("*** Begin Patch\n*** End Patch\n", ParseOptions{Format: FormatApplyPatch}); !errors.Is(err, ErrNoEdits) {
		t.Fatalf("an empty patch: %v", err)
	}
}

// TestApplyPatchPromptExample checks that the prompt's example reads
// without failures or warnings and uses every kind of section.
func TestApplyPatchPromptExample(t *testing.T) {
	r := applyPatchContract.readPromptExample(t)
	if len(r.Prose) == 0 {
		t.Errorf("the example should hold prose: %s", apDump(r, nil))
	}
	kinds := map[Kind]bool{}
	scoped, eof := false, false
	for _, op := range r.Ops {
		kinds[op.Kind] = true
		scoped = scoped || len(op.Scope) > 0
		eof = eof || op.AtEOF
	}
	if len(kinds) != 4 || !scoped || !eof {
		t.Errorf("the example should add, update (with a scope and an end of file), delete and move: %s", apDump(r, nil))
	}
}

// TestApplyPatchGoldenReplies reads every reply of testdata/apply-patch:
// each gives operations or failed sections, never an error.
func TestApplyPatchGoldenReplies(t *testing.T) {
	for _, file := range goldenReplyFiles(t, FormatApplyPatch) {
		if r, err := readApplyPatch(file.text); err != nil || len(r.Ops)+len(r.Failed) == 0 {
			t.Errorf("%s: %v", file.name, err)
		}
	}
}

// apDump writes what readApplyPatch returned, one item a line.
func apDump(r *Reply, err error) string {
	return dumpStyle{flags: func(op Operation) []dumpFlag {
		return []dumpFlag{{op.Where == AtStart, "at-start"}, {op.Where == AtEnd, "at-end"},
			{op.Overwrite, "overwrite"}, {op.Recursive, "recursive"}, {op.Ordered, "ordered"}, {op.AtEOF, "eof"}}
	}}.dump(r, err)
}

var apCases = []dumpCase{{
	name: "every section, prose around",
	reply: `Rework the package.

*** Begin Patch
*** Add File: pkg/new.go
+package pkg
+
+func New() {}
*** Delete File: pkg/old.go
*** Update File: pkg/a.go
*** Move to: pkg/b.go
@@ func A() {
-	return 1
+	return 2
 }
@@
 func C() {}
+func D() {}
*** End of File
*** End Patch

That is all.
`,
	want: `4 create pkg/new.go overwrite
  new|package pkg
  new|
  new|func New() {}
8 delete-file pkg/old.go
11 edit pkg/a.go group 1 ordered
  scope|func A() {
  old|	return 1
  old|}
  new|	return 2
  new|}
15 edit pkg/a.go group 1 ordered eof
  old|func C() {}
  new|func C() {}
  new|func D() {}
18 rename pkg/a.go -> pkg/b.go overwrite
prose|Rework the package.
prose|
prose|That is all.
`,
}, {
	name: "stacked scopes, numbers, closing @@ and a pure addition",
	reply: `*** Begin Patch
*** Update File: a.py
@@ class A:
@@     def f(self):
-        pass
+        return 1
@@ -10,2 +10,3 @@
 x = 1
+y = 2
@@ def g(): @@
+    """G."""
@@
+# end
@@ -0,0 +1 @@
+#!/usr/bin/env python3
*** End Patch
`,
	want: `3 edit a.py group 1 ordered
  scope|class A:
  scope|def f(self):
  old|        pass
  new|        return 1
7 edit a.py group 1 hint 10 ordered
  old|x = 1
  new|x = 1
  new|y = 2
10 edit a.py group 1 ordered
  scope|def g():
  new|    """G."""
12 edit a.py group 1 at-end ordered
  new|# end
14 edit a.py group 1 at-start ordered
  new|#!/usr/bin/env python3
`,
}, {
	name:  "heredoc in a shell fence with another command",
	reply: "Bump it.\n\n```bash\napply_patch <<'EOF'\n*** Begin Patch\n*** Update File: v.txt\n@@\n-1\n+2\n*** End Patch\nEOF\ngo test ./...\n```\n\n```sh\nmake\n```\n",
	want: `7 edit v.txt group 1 ordered
  old|1
  new|2
shell 3 bash: "go test ./...\n"
shell 15 sh: "make\n"
prose|Bump it.
`,
}, {
	name:  "heredoc alone in its fence, double quotes",
	reply: "```\napply_patch <<\"EOF\"\n*** Begin Patch\n*** Delete File: a\n*** End Patch\nEOF\n```\n",
	want: `4 delete-file a
`,
}, {
	name:  "cat heredoc, unfenced, CRLF",
	reply: "Go.\r\ncat <<'PATCH' | apply_patch\r\n*** Begin Patch\r\n*** Add File: a\r\n+x\r\n*** End Patch\r\nPATCH\r\nDone.\r\n",
	want: `4 create a overwrite
  new|x
prose|Go.
prose|Done.
`,
}, {
	name:  "heredoc without end marker",
	reply: "apply_patch <<EOF\n*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\nEOF\nAfter.\n",
	want: `4 edit a group 1 ordered
  old|x
  new|y
warning 2: the patch has no "*** End Patch" line; it is read up to line 7, where its heredoc ends
prose|After.
`,
}, {
	name:  "fence without end marker",
	reply: "```\n*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n```\nAfter.\n",
	want: `4 edit a group 1 ordered
  old|x
  new|y
warning 2: the patch has no "*** End Patch" line; it is read up to line 7, where its fence ends
prose|After.
`,
}, {
	name:  "no end marker, prose after",
	reply: "*** Begin Patch\n*** Add File: a\n+x\n\nThat adds a.\n",
	want: `2 create a overwrite
  new|x
warning 1: the patch has no "*** End Patch" line; it ends at line 3, the last line that can belong to it
prose|That adds a.
`,
}, {
	name:  "padded markers, keywords in any case",
	reply: " *** Begin Patch\n  *** update file: a\n@@\n-x\n+y\n\t*** END OF FILE\n*** add FILE:   b  \n+z\n*** End Patch   \n",
	want: `3 edit a group 1 ordered eof
  old|x
  new|y
7 create b overwrite
  new|z
warning 2: "*** update file: a" is read as the apply-patch marker "*** Update File:"; write it as the format spells it
warning 7: "*** add FILE:   b" is read as the apply-patch marker "*** Add File:"; write it as the format spells it
`,
}, {
	name:  "indented patch",
	reply: "1. Apply:\n\n    *** Begin Patch\n    *** Update File: a\n    @@\n    -x\n    +y\n    *** End Patch\n",
	want: `5 edit a group 1 ordered
  old|x
  new|y
prose|1. Apply:
`,
}, {
	name:  "quoted paths",
	reply: "*** Begin Patch\n*** Delete File: `a b.txt`\n*** Update File: \"c.txt\"\n*** Move to: 'd.txt'\n*** End Patch\n",
	want: `2 delete-file a b.txt
4 rename c.txt -> d.txt overwrite
`,
}, {
	name:  "empty lines: context, separation, added file",
	reply: "*** Begin Patch\n*** Update File: a\n@@\n x\n\n-y\n+z\n\n\n@@\n-w\n+v\n\n*** Add File: b\n+1\n\n+3\n\n*** End Patch\n",
	want: `3 edit a group 1 ordered
  old|x
  old|
  old|y
  new|x
  new|
  new|z
10 edit a group 1 ordered
  old|w
  new|v
14 create b overwrite
  new|1
  new|
  new|3
`,
}, {
	name:  "context lost its space; stray text after a chunk",
	reply: "*** Begin Patch\n*** Update File: a\n@@\nfunc f() {\n-\tx()\n+\ty()\n }\nNow b:\n*** Delete File: b\n*** End Patch\n",
	want: `3 edit a group 1 ordered
  old|func f() {
  old|	x()
  old|}
  new|func f() {
  new|	y()
  new|}
9 delete-file b
warning 4: a line of the chunk has no " ", "-" or "+" prefix; it is read as a context line that lost its leading space
warning 8: text outside any file section is ignored: "Now b:"
`,
}, {
	name: "failures: unknown header, no path, empty update, context only, bad added line, stray move",
	reply: `*** Begin Patch
*** Rename File: a
*** Move to: b
*** Add File:
+x
*** Update File: c
*** Update File: d
@@
 same
*** Add File: e
+one
two
+three
*** Update File: f
*** Move to: g
*** Move to: h
*** Delete File: i
*** End Patch
`,
	want: `16 rename f -> g overwrite
17 delete-file i
2 FAILED a: "*** Rename File: a" is not a header of the format: the file headers are "*** Add File: P", "*** Delete File: P" and "*** Update File: P"
4 FAILED : the header "*** Add File:" names no file
6 FAILED c: the section "*** Update File: c" has no chunk: write "@@" and the lines of the change (" " context, "-" removed, "+" added) under it
7 FAILED d: the section "*** Update File: d" changes nothing: its chunks have no "-" or "+" line
12 FAILED e: line 2 of the new file e does not start with "+": every line of an added file does ("+" alone for an empty line)
16 FAILED f: "*** Move to: h": the section moves f once, to g (line 15)
warning 8: the chunk changes no line (context only); ignored
`,
}, {
	name:  "two patches, text between sections",
	reply: "*** Begin Patch\nStart here.\n*** Delete File: a\n*** End Patch\nthen\n*** Begin Patch\n*** Delete File: b\n*** End Patch\n",
	want: `3 delete-file a
7 delete-file b
warning 2: text outside any file section is ignored: "Start here."
prose|then
`,
}, {
	name:  "a begin without end before the next begin",
	reply: "*** Begin Patch\n*** Delete File: a\n\n*** Begin Patch\n*** Delete File: b\n*** End Patch\n",
	want: `2 delete-file a
5 delete-file b
warning 1: the patch has no "*** End Patch" line; it ends at line 2, the last line that can belong to it
`,
}, {
	name:  "end of file outside a chunk, empty chunk",
	reply: "*** Begin Patch\n*** Update File: a\n*** End of File\n@@ def f():\n@@\n-x\n+y\n@@\n*** End Patch\n",
	want: `4 edit a group 1 ordered
  scope|def f():
  old|x
  new|y
warning 3: "*** End of File" stands outside a chunk; ignored
warning 8: the chunk has no line under its @@ line; ignored
`,
}, {
	name:  "empty patch",
	reply: "Nothing.\n\n*** Begin Patch\n*** End Patch\n",
	want: `prose|Nothing.
error: no edit found in the reply: the patch at line 3 holds no file section ("*** Add File: P", "*** Delete File: P", "*** Update File: P")
`,
}, {
	name:  "no begin marker",
	reply: "Here:\n*** Update File: a\n@@\n-x\n+y\n",
	want: `prose|Here:
prose|*** Update File: a
prose|@@
prose|-x
prose|+y
error: no edit found in the reply: the reply has no "*** Begin Patch" line (the header at line 2 stands outside any patch: put "*** Begin Patch" on the line before the first header)
`,
}, {
	name:  "no patch at all",
	reply: "Just prose.\n",
	want: `prose|Just prose.
error: no edit found in the reply: the reply has no "*** Begin Patch" line
`,
}}
