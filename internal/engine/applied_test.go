package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// pyFuncs is a Python module of functions f<from> to f<to>, five lines
// each, every one adding its own number; f<k>'s return line is line
// 5*(k-from)+3.
func pyFuncs(from, to int, edit func(k int) string) string {
	var b strings.Builder
	for k := from; k <= to; k++ {
		ret := fmt.Sprintf("    return y + %d", k)
		if edit != nil && edit(k) != "" {
			ret = edit(k)
		}
		fmt.Fprintf(&b, "def f%d(x):\n    y = x\n%s\n\n\n", k, ret)
	}
	return b.String()
}

// hunk is an edit as the hunk readers make them: ordered, in a group.
func hunk(format string, old, new string, hint int) translate.Operation {
	return translate.Operation{Kind: translate.Edit, Format: format, Path: "m.py", LineEdit: translate.LineEdit{Old: lines(old), New: lines(new)},
		Placement: translate.Placement{Group: 1, Ordered: true, LineHint: hint}, Line: 1}
}

func TestAlreadyAppliedOnlyWhereMeant(t *testing.T) {
	funcs := pyFuncs(80, 99, nil)
	ret := func(k int) int { return 5*(k-80) + 3 } // f<k>'s return line
	withSR := func(op translate.Operation) translate.Operation { op.Format = "diff"; return op }
	rows := ""
	for i := 1; i <= 30; i++ {
		if i == 11 {
			rows += "row eleven\n"
		} else {
			rows += fmt.Sprintf("row %d\n", i)
		}
	}
	tests := []struct {
		name    string
		file    string
		op      translate.Operation
		status  Status
		line    int    // already applied: its first line; failed: the closest place's (0: none checked)
		because string // failed: part of the reason
	}{
		// The result stands in another function than the one the old
		// lines name: never done.
		{name: "search/replace, the result in the next function", file: funcs,
			op:     withSR(sr("m.py", "    return y - 89\n", "    return y + 90\n")),
			status: Failed, line: ret(89), because: fmt.Sprintf("its new lines stand at line %d, but the lines most like the ones it replaces are at line %d", ret(90), ret(89))},
		{name: "udiff hunk without context, the result elsewhere", file: funcs,
			op:     hunk("udiff", "    return y - 89\n", "    return y + 90\n", 0),
			status: Failed, line: ret(89), because: "not taken as already applied"},
		{name: "apply-patch chunk with a context line, the result elsewhere", file: funcs,
			op:     hunk("apply-patch", "    y = x\n    return y - 89\n", "    y = x\n    return y + 90\n", 0),
			status: Failed, line: ret(89) - 1, because: "not taken as already applied"},
		{name: "the line number points at the result, the old lines elsewhere", file: funcs,
			op:     hunk("udiff", "    return y - 89\n", "    return y + 90\n", ret(90)),
			status: Failed, because: "not taken as already applied"},
		{name: "old lines like nothing in a small file", file: funcs,
			op:     withSR(sr("m.py", "completely_unrelated()\n", "    return y + 90\n")),
			status: Failed, because: "not taken as already applied"},
		{name: "old lines like nothing in a large file", file: pyFuncs(80, 2000, nil),
			op:     withSR(sr("m.py", "completely_unrelated()\n", "    return y + 90\n")),
			status: Failed, because: "not taken as already applied"},
		{name: "a result standing too often proves nothing", file: strings.Repeat("pass\n", maxDonePlaces+1),
			op:     withSR(sr("m.py", "x = 1\n", "pass\n")),
			status: Failed, because: "too many to tell"},

		// The result stands where the old lines were: done (running a
		// reply again).
		{name: "search/replace that extends its line, siblings alike", file: pyFuncs(80, 99, func(k int) string {
			if k == 89 {
				return "    return y + 89 + 1"
			}
			return ""
		}),
			op:     withSR(sr("m.py", "    return y + 89\n", "    return y + 89 + 1\n")),
			status: AlreadyApplied, line: ret(89)},
		{name: "hunk with context in a file of look-alike lines", file: rows,
			op:     hunk("udiff", "row 10\nrow 11\nrow 12\n", "row 10\nrow eleven\nrow 12\n", 0),
			status: AlreadyApplied, line: 10},
		{name: "insertion between anchors", file: "a\nnew\nb\nc\n",
			op:     translate.Operation{Kind: translate.Edit, Format: "edit-v2", Path: "m.py", LineEdit: translate.LineEdit{Before: []string{"a"}, After: []string{"b"}, New: []string{"new"}}},
			status: AlreadyApplied, line: 1},
		{name: "insertion between anchors, a near copy of them elsewhere", file: "a\nb!\n\na\nnew\nb\n",
			op:     translate.Operation{Kind: translate.Edit, Format: "edit-v2", Path: "m.py", LineEdit: translate.LineEdit{Before: []string{"a"}, After: []string{"b"}, New: []string{"new"}}},
			status: AlreadyApplied, line: 4},
		{name: "deleting lines: nothing to recognise", file: "a\nc\n",
			op:     withSR(sr("m.py", "b\n", "")),
			status: Failed},

		// Several places equally like the old lines.
		{name: "equally close places, a hunk: ambiguous", file: "x = 2\nz = 0\nx = 3\n",
			op:     hunk("udiff", "x = 1\n", "x = 2\n", 0),
			status: Failed, because: "stand in several places (lines 1, 3)"},
		{name: "equally close places, search/replace: the first holds the result", file: "x = 2\nz = 0\nx = 3\n",
			op:     withSR(sr("m.py", "x = 1\n", "x = 2\n")),
			status: AlreadyApplied, line: 1},
		{name: "equally close places, search/replace: the first does not", file: "x = 3\nz = 0\nx = 2\n",
			op:     withSR(sr("m.py", "x = 1\n", "x = 2\n")),
			status: Failed, because: "are at line 1"},
		{name: "equally close places, the line hint picks the result", file: "x = 2\nz = 0\nx = 3\n",
			op:     hunk("udiff", "x = 1\n", "x = 2\n", 1),
			status: AlreadyApplied, line: 1},
		{name: "equally close places, the line hint picks the other", file: "x = 2\nz = 0\nx = 3\n",
			op:     hunk("udiff", "x = 1\n", "x = 2\n", 3),
			status: Failed, because: "are at line 3"},
		{name: "the result twice, a hunk: ambiguous", file: "x = 2\nz = 0\nx = 2\n",
			op:     hunk("udiff", "x = 1\n", "x = 2\n", 0),
			status: Failed, because: "several places"},
		{name: "the result twice, search/replace: the first", file: "x = 2\nz = 0\nx = 2\n",
			op:     withSR(sr("m.py", "x = 1\n", "x = 2\n")),
			status: AlreadyApplied, line: 1},

		// Scope lines say where the edit was meant.
		{name: "old lines only above the scope, the result below it", file: "def f():\n    return 1\n\ndef g():\n    return 2\n",
			op:     translate.Operation{Kind: translate.Edit, Format: "apply-patch", Path: "m.py", LineEdit: translate.LineEdit{Scope: []string{"def g():"}, Old: []string{"    return 1"}, New: []string{"    return 2"}}, Placement: translate.Placement{Ordered: true, Group: 1}},
			status: AlreadyApplied, line: 5},
		{name: "old lines only above the scope, the result nowhere", file: "def f():\n    return 1\n\ndef g():\n    return 3\n",
			op:     translate.Operation{Kind: translate.Edit, Format: "apply-patch", Path: "m.py", LineEdit: translate.LineEdit{Scope: []string{"def g():"}, Old: []string{"    return 1"}, New: []string{"    return 2"}}, Placement: translate.Placement{Ordered: true, Group: 1}},
			status: Failed, because: "only above the scope lines"},
		{name: "the result only above the scope, the old lines changed below it", file: "def f():\n    x = compute()\n    return x + 2\n\ndef g():\n    x = compute()\n    return x * 7\n",
			op:     translate.Operation{Kind: translate.Edit, Format: "apply-patch", Path: "m.py", LineEdit: translate.LineEdit{Scope: []string{"def g():"}, Old: []string{"    x = compute()", "    return x + 1"}, New: []string{"    x = compute()", "    return x + 2"}}, Placement: translate.Placement{Ordered: true, Group: 1}},
			status: Failed, because: "above the scope lines"},
		{name: "a chunk repeating its scope line as context", file: "def f():\n    return 1\n\ndef g():\n    return 1\n",
			op:     translate.Operation{Kind: translate.Edit, Format: "apply-patch", Path: "m.py", LineEdit: translate.LineEdit{Scope: []string{"def g():"}, Old: []string{"def g():", "    return 1"}, New: []string{"def g():", "    return 2"}}, Placement: translate.Placement{Ordered: true, Group: 1}},
			status: Applied, line: 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := files("m.py", tc.file)
			res, err := Resolve(src, []translate.Operation{tc.op}, Options{Format: tc.op.Format})
			if err != nil {
				t.Fatal(err)
			}
			o := res.Outcomes[0]
			if o.Status != tc.status {
				t.Fatalf("status %s, want %s (%v)", o.Status, tc.status, o.Err)
			}
			switch {
			case tc.status == Failed && tc.because != "" && !strings.Contains(o.Err.Msg, tc.because):
				t.Errorf("reason %q lacks %q", o.Err.Msg, tc.because)
			case tc.status == Failed && tc.line > 0 && (o.Err.Closest == nil || o.Err.Closest.Start != tc.line):
				t.Errorf("closest %+v, want line %d", o.Err.Closest, tc.line)
			case tc.status != Failed && tc.line > 0 && o.Start != tc.line && o.End != tc.line:
				t.Errorf("lines %d-%d, want line %d", o.Start, o.End, tc.line)
			}
			if tc.status != Applied && len(res.Changes) > 0 {
				t.Errorf("the file changed")
			}
		})
	}
}
