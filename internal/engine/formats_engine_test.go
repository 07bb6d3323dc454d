package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestEngineForFormats covers what the seed formats ask of the engine
// beyond the SEARCH/REPLACE family.
func TestEngineForFormats(t *testing.T) {
	u := translate.IndentUnit
	pyFile := "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n"
	cpp := "int f(int x) {\n    if (x) {\n        a(\"}\");\n    } else {\n        b('{'); // }\n    }\n    return 0;\n}\n"
	tests := []struct {
		name    string
		src     memSource
		ops     []translate.Operation
		want    map[string]string
		gone    []string
		status  []Status
		errKind error
		errMsg  string
	}{
		{name: "indent units follow a 4-space file", src: files("a.py", pyFile),
			ops:  []translate.Operation{{Kind: translate.Edit, Format: "fiup", LineEdit: translate.LineEdit{Old: []string{u + u + "return 1"}, New: []string{u + u + "x = 1", u + u + "return x"}}, Path: "a.py"}},
			want: map[string]string{"a.py": strings.Replace(pyFile, "        return 1\n", "        x = 1\n        return x\n", 1)}, status: []Status{Applied}},
		{name: "indent units follow a tab file", src: files("m.go", "func f() {\n\treturn\n}\n"),
			ops:  []translate.Operation{{Kind: translate.Edit, Format: "fiup", LineEdit: translate.LineEdit{Before: []string{"func f() {"}, New: []string{u + "x()"}}, Path: "m.go"}},
			want: map[string]string{"m.go": "func f() {\n\tx()\n\treturn\n}\n"}, status: []Status{Applied}},
		{name: "indent units in a new file are four spaces", src: files(),
			ops:  []translate.Operation{{Kind: translate.Create, Format: "fiup", LineEdit: translate.LineEdit{New: []string{"def f():", u + "pass"}}, Path: "n.py"}},
			want: map[string]string{"n.py": "def f():\n    pass\n"}, status: []Status{Applied}},
		{name: "delete leaves no stray blank line", src: files("a.py", "import os\n\n\ndef f():\n    pass\n\n\ndef g():\n    pass\n"),
			ops:  []translate.Operation{{Kind: translate.Edit, LineEdit: translate.LineEdit{Old: []string{"def f():", "    pass"}, TrimBlank: true}, Path: "a.py"}},
			want: map[string]string{"a.py": "import os\n\n\ndef g():\n    pass\n"}, status: []Status{Applied}},
		{name: "delete at the end leaves no trailing blank lines", src: files("a.py", "x = 1\n\n\ndef f():\n    pass\n"),
			ops:  []translate.Operation{{Kind: translate.Edit, LineEdit: translate.LineEdit{Old: []string{"def f():", "    pass"}, TrimBlank: true}, Path: "a.py"}},
			want: map[string]string{"a.py": "x = 1\n"}, status: []Status{Applied}},
		{name: "payload aligned to the marker", src: files("a.py", pyFile), ops: []translate.Operation{{Kind: translate.Edit, Format: "chunk",
			LineEdit: translate.LineEdit{Before: []string{"def f(self):", "return 1"}, New: []string{"", "def h(self):", "    return 3"}}, Placement: translate.Placement{Indent: translate.IndentAnchor, IndentFrom: 1}, Path: "a.py"}},
			want: map[string]string{"a.py": strings.Replace(pyFile, "        return 1\n", "        return 1\n\n        def h(self):\n            return 3\n", 1)}, status: []Status{Applied}},
		{name: "payload as is", src: files("a.py", pyFile), ops: []translate.Operation{{Kind: translate.Edit, Format: "chunk",
			LineEdit: translate.LineEdit{Old: []string{"return 2"}, New: []string{"return 22"}}, Placement: translate.Placement{Indent: translate.IndentAsIs}, Path: "a.py"}},
			want: map[string]string{"a.py": strings.Replace(pyFile, "        return 2\n", "return 22\n", 1)}, status: []Status{Applied}},
		{name: "prepend and append", src: files("a.txt", "mid"), ops: []translate.Operation{
			{Kind: translate.Edit, Placement: translate.Placement{Where: translate.AtStart}, LineEdit: translate.LineEdit{New: []string{"top"}}, Path: "a.txt"},
			{Kind: translate.Edit, Placement: translate.Placement{Where: translate.AtEnd}, LineEdit: translate.LineEdit{New: []string{"end"}}, Path: "a.txt"}},
			want: map[string]string{"a.txt": "top\nmid\nend\n"}, status: []Status{Applied, Applied}},
		{name: "prepend already there", src: files("a.txt", "top\nmid\n"), ops: []translate.Operation{
			{Kind: translate.Edit, Placement: translate.Placement{Where: translate.AtStart}, LineEdit: translate.LineEdit{New: []string{"top"}}, Path: "a.txt"}}, status: []Status{AlreadyApplied}},
		{name: "overwrite keeps the mode", src: memSource{"t.sh": {patch.ModeExec, "old\r\n"}}, ops: []translate.Operation{
			{Kind: translate.Create, FileCreate: translate.FileCreate{Overwrite: true}, LineEdit: translate.LineEdit{New: []string{"new", "lines"}}, Path: "t.sh"}},
			want: map[string]string{"t.sh": "new\r\nlines\r\n"}, status: []Status{Applied}},
		{name: "delete a directory", src: files("d/a", "a\n", "d/e/b", "b\n", "dx", "x\n"), ops: []translate.Operation{
			{Kind: translate.Delete, FileOp: translate.FileOp{Recursive: true}, Path: "d"}}, gone: []string{"d/a", "d/e/b"}, status: []Status{Applied}},
		{name: "unreadable block fails alone", src: files("a.txt", "a\n"), ops: []translate.Operation{
			{Kind: translate.Invalid, Comment: "FILE_PATCH lacks file_path", Line: 3},
			{Kind: translate.Edit, LineEdit: translate.LineEdit{Old: []string{"a"}, New: []string{"b"}}, Path: "a.txt"}},
			want: map[string]string{"a.txt": "b\n"}, status: []Status{Failed, Applied}, errKind: ErrUnreadable},
		{name: "ordered hunks take places in order", src: files("a.txt", "x\n1\nx\n2\nx\n3\n"), ops: []translate.Operation{
			{Kind: translate.Edit, LineEdit: translate.LineEdit{Old: []string{"x", "2"}, New: []string{"x", "two"}}, Placement: translate.Placement{Group: 1, Ordered: true}, Path: "a.txt"},
			{Kind: translate.Edit, LineEdit: translate.LineEdit{Old: []string{"x"}, New: []string{"y"}}, Placement: translate.Placement{Group: 1, Ordered: true}, Path: "a.txt"}},
			want: map[string]string{"a.txt": "x\n1\nx\ntwo\ny\n3\n"}, status: []Status{Applied, Applied}},
		{name: "c block through strings, chars and comments; else survives", src: files("f.cpp", cpp), ops: []translate.Operation{
			{Kind: translate.Edit, Format: "chunk", LineEdit: translate.LineEdit{Old: []string{"if (x) {"}, New: []string{"if (y) {", "    c();", "}"}, Block: translate.CBraces}, Placement: translate.Placement{Indent: translate.IndentAnchor}, Path: "f.cpp"}},
			want: map[string]string{"f.cpp": "int f(int x) {\n    if (y) {\n        c();\n    } else {\n        b('{'); // }\n    }\n    return 0;\n}\n"}, status: []Status{Applied}},
		{name: "c block: the brace that ends the header", src: files("f.cpp", "struct S {\n  int v() const {\n    return 1;\n  };\n};\n"), ops: []translate.Operation{
			{Kind: translate.Edit, Format: "chunk", LineEdit: translate.LineEdit{Old: []string{"struct S {", "int v() const {"}, New: []string{"int v() const { return 2; }"}, Block: translate.CBraces}, Placement: translate.Placement{Indent: translate.IndentAsIs}, Path: "f.cpp"}},
			want: map[string]string{"f.cpp": "int v() const { return 2; };\n};\n"}, status: []Status{Applied}},
		{name: "c block with a raw string", src: files("f.cpp", "void f() {\n  auto s = R\"x(}\n)x\";\n}\nint g;\n"), ops: []translate.Operation{
			{Kind: translate.Edit, LineEdit: translate.LineEdit{Old: []string{"void f() {"}, New: []string{"void f() {}"}, Block: translate.CBraces}, Path: "f.cpp"}},
			want: map[string]string{"f.cpp": "void f() {}\nint g;\n"}, status: []Status{Applied}},
		{name: "python block: multi-line header, comment at header level ends it", src: files("a.py",
			"def f(a,\n      b: int = 1):\n    \"\"\"Doc\nat column 0.\"\"\"\n    return a\n\n# about g\ndef g():\n    pass\n"), ops: []translate.Operation{
			{Kind: translate.Edit, Format: "chunk", LineEdit: translate.LineEdit{Old: []string{"def f(a,"}, New: []string{"def f(a):", "    return a"}, Block: translate.PyIndent}, Placement: translate.Placement{Indent: translate.IndentAnchor}, Path: "a.py"}},
			want: map[string]string{"a.py": "def f(a):\n    return a\n\n# about g\ndef g():\n    pass\n"}, status: []Status{Applied}},
		{name: "python one-line block", src: files("a.py", "def f(): return 1\ndef g(): return 2\n"), ops: []translate.Operation{
			{Kind: translate.Edit, LineEdit: translate.LineEdit{Old: []string{"def f(): return 1"}, New: []string{"def f(): return 0"}, Block: translate.PyIndent}, Path: "a.py"}},
			want: map[string]string{"a.py": "def f(): return 0\ndef g(): return 2\n"}, status: []Status{Applied}},
		{name: "language from the reply ignores its comments", src: files("f.h", "int x; // the x\n"), ops: []translate.Operation{
			{Kind: translate.Edit, Format: "chunk", Placement: translate.Placement{Language: "c++"}, LineEdit: translate.LineEdit{Old: []string{"int x;"}, New: []string{"long x;"}}, Path: "f.h"}},
			want: map[string]string{"f.h": "long x;\n"}, status: []Status{Applied}},
		{name: "leading anchor not found", src: files("a.txt", "a\nb\nc\n"), ops: []translate.Operation{
			{Kind: translate.Edit, Format: "edit-v2", LineEdit: translate.LineEdit{Before: []string{"z"}, Old: []string{"b"}, New: []string{"B"}}, Path: "a.txt"}},
			status: []Status{Failed}, errMsg: "Leading anchor not found"},
		{name: "old lines don't match after anchor", src: files("a.txt", "a\nb\nc\n"), ops: []translate.Operation{
			{Kind: translate.Edit, Format: "edit-v2", LineEdit: translate.LineEdit{Before: []string{"a"}, Old: []string{"c"}, New: []string{"C"}}, Path: "a.txt"}},
			status: []Status{Failed}, errMsg: "Old lines don't match content after anchor"},
		{name: "trailing anchor not found", src: files("a.txt", "a\nb\nc\n"), ops: []translate.Operation{
			{Kind: translate.Edit, Format: "edit-v2", LineEdit: translate.LineEdit{Before: []string{"a"}, Old: []string{"b"}, After: []string{"x"}, New: []string{"B"}}, Path: "a.txt"}},
			status: []Status{Failed}, errMsg: "Trailing anchor not found after old lines"},
		{name: "edit-v2 is exact", src: files("a.txt", "a  \nb\n"), ops: []translate.Operation{
			{Kind: translate.Edit, Format: "edit-v2", LineEdit: translate.LineEdit{Before: []string{"a"}, Old: []string{"b"}, New: []string{"B"}}, Path: "a.txt"}},
			status: []Status{Failed}, errMsg: "Leading anchor not found"},
		{name: "ambiguous in the seed's words", src: files("a.txt", "a\nb\na\nb\n"), ops: []translate.Operation{
			{Kind: translate.Edit, Format: "edit-v2", LineEdit: translate.LineEdit{Before: []string{"a"}, Old: []string{"b"}, New: []string{"B"}}, Path: "a.txt"}},
			status: []Status{Failed}, errMsg: "Edit location is ambiguous (multiple matches)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(tt.src, tt.ops, Options{Format: "diff"})
			if err != nil {
				t.Fatal(err)
			}
			for i, o := range res.Outcomes {
				if i < len(tt.status) && o.Status != tt.status[i] {
					t.Errorf("edit %d: status %s, want %s (%v)", i+1, o.Status, tt.status[i], o.Err)
				}
				if o.Status == Failed && tt.errKind != nil && !errors.Is(o.Err, tt.errKind) {
					t.Errorf("edit %d: %v, want kind %v", i+1, o.Err, tt.errKind)
				}
				if o.Status == Failed && tt.errMsg != "" && !strings.HasPrefix(o.Err.Msg, tt.errMsg) {
					t.Errorf("edit %d: %q, want it to start with %q", i+1, o.Err.Msg, tt.errMsg)
				}
			}
			got := map[string]string{}
			deleted := map[string]bool{}
			for _, c := range res.Changes {
				if c.NewPath != "" {
					got[c.NewPath] = string(c.New)
				} else {
					deleted[c.OldPath] = true
				}
			}
			for p, want := range tt.want {
				if got[p] != want {
					t.Errorf("%s:\n got %q\nwant %q", p, got[p], want)
				}
			}
			for _, p := range tt.gone {
				if !deleted[p] {
					t.Errorf("%s not deleted", p)
				}
			}
			if len(tt.gone) > 0 && len(deleted) != len(tt.gone) {
				t.Errorf("deleted %v, want %v", deleted, tt.gone)
			}
		})
	}
}

// TestSkippedLinesAreNotDuplicated: reply lines a tolerant rung maps to
// no file line stand for the file's skipped lines.
func TestSkippedLinesAreNotDuplicated(t *testing.T) {
	for _, tt := range []struct{ file, old, new, want string }{
		{"a\n# g - s\nz\n", "a\n# g \u2013 s\nz\n", "a\n# g: t\nz\n", "a\n# g: t\nz\n"},
		{"def a():\n\n    b\n", "def a():\n\n   b\n", "def a():\n\n    x\n   b\n", "def a():\n\n    x\n    b\n"},
	} {
		res, err := Resolve(files("f.py", tt.file), []translate.Operation{anchored("f.py", tt.old, tt.new)}, Options{Format: "udiffx"})
		if err != nil || len(res.Changes) != 1 {
			t.Fatalf("%v %+v", err, res.Outcomes)
		}
		if got := string(res.Changes[0].New); got != tt.want {
			t.Errorf("%q: got %q, want %q", tt.file, got, tt.want)
		}
	}
}
