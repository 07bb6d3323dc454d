package engine

import (
	"errors"
	"sort"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// memSource is a Source held in memory, for tests.
type memSource map[string]memFile

type memFile struct {
	mode patch.Mode
	data string
}

func (m memSource) Lookup(p string) (Entry, error) {
	f, ok := m[p]
	if !ok {
		return Entry{}, ErrNotExist
	}
	return Entry{Mode: f.mode, ID: patch.BlobID([]byte(f.data))}, nil
}

func (m memSource) Read(p string) ([]byte, error) {
	f, ok := m[p]
	if !ok {
		return nil, ErrNotExist
	}
	return []byte(f.data), nil
}

func (m memSource) Paths() ([]string, error) {
	var out []string
	for p := range m {
		out = append(out, p)
	}
	sort.Strings(out)
	return out, nil
}

func files(kv ...string) memSource {
	m := memSource{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = memFile{patch.ModeRegular, kv[i+1]}
	}
	return m
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

func sr(path, old, new string) translate.Operation {
	return translate.Operation{Kind: translate.Edit, Path: path, LineEdit: translate.LineEdit{Old: lines(old), New: lines(new)}, Placement: translate.Placement{FirstMatch: true}, Line: 1}
}

func anchored(path, old, new string) translate.Operation {
	return translate.Operation{Kind: translate.Edit, Path: path, LineEdit: translate.LineEdit{Old: lines(old), New: lines(new)}, Line: 1}
}

func TestResolve(t *testing.T) {
	py := "def f():\n    x = 1\n    return x\n\n\ndef g():\n    return 2\n"
	tests := []struct {
		name    string
		src     memSource
		ops     []translate.Operation
		format  string
		fuzz    Fuzz
		want    map[string]string // path -> content after ("" key absent means unchanged)
		gone    []string
		status  []Status
		rung    []Rung
		errKind error
		warn    bool
	}{
		{name: "exact", src: files("a.py", py), ops: []translate.Operation{sr("a.py", "    x = 1\n", "    x = 42\n")},
			want: map[string]string{"a.py": strings.Replace(py, "x = 1", "x = 42", 1)}, status: []Status{Applied}, rung: []Rung{RungExact}},
		{name: "trailing space in the file", src: files("a.py", "a = 1   \nb = 2\n"), ops: []translate.Operation{sr("a.py", "a = 1\nb = 2\n", "a = 1\nb = 3\n")},
			want: map[string]string{"a.py": "a = 1   \nb = 3\n"}, status: []Status{Applied}, rung: []Rung{RungTrailing}},
		{name: "indent off, new lines re-indented", src: files("a.py", py),
			ops:    []translate.Operation{sr("a.py", "x = 1\nreturn x\n", "x = 1\nif x:\n    x += 1\nreturn x\n")},
			want:   map[string]string{"a.py": "def f():\n    x = 1\n    if x:\n        x += 1\n    return x\n\n\ndef g():\n    return 2\n"},
			status: []Status{Applied}, rung: []Rung{RungIndent}},
		{name: "tabs in the file, spaces in the reply", src: files("m.go", "func f() {\n\tx := 1\n\treturn\n}\n"),
			ops:    []translate.Operation{sr("m.go", "    x := 1\n", "    x := 1\n    if x > 0 {\n        x--\n    }\n")},
			want:   map[string]string{"m.go": "func f() {\n\tx := 1\n\tif x > 0 {\n\t\tx--\n\t}\n\treturn\n}\n"},
			status: []Status{Applied}, rung: []Rung{RungIndent}},
		{name: "blank lines ignored", src: files("a.py", py), format: "chunk",
			ops:  []translate.Operation{anchored("a.py", "return x\ndef g():\n", "return x\n\n\ndef h():\n")},
			want: map[string]string{"a.py": strings.Replace(py, "def g", "def h", 1)}, status: []Status{Applied}, rung: []Rung{RungWhitespace}},
		{name: "comments ignored", src: files("m.go", "package m\n\nvar x = 1 // the answer\n"), format: "chunk",
			ops:  []translate.Operation{anchored("m.go", "var x = 1\n", "var x = 2\n")},
			want: map[string]string{"m.go": "package m\n\nvar x = 2\n"}, status: []Status{Applied}, rung: []Rung{RungComments}},
		{name: "typographic quotes folded", src: files("a.txt", "say \"hi\"\n"), format: "udiff",
			ops:  []translate.Operation{anchored("a.txt", "say \u201chi\u201d\n", "say \"hello\"\n")},
			want: map[string]string{"a.txt": "say \"hello\"\n"}, status: []Status{Applied}, rung: []Rung{RungTypography}},
		{name: "diff format stops at the indent rung", src: files("a.py", py),
			ops: []translate.Operation{sr("a.py", "x = 1\n\nreturn x\n", "x = 2\n")}, status: []Status{Failed}, errKind: ErrNotFound},
		{name: "exact fuzz stops at rung 1", src: files("a.py", "a = 1   \n"), fuzz: FuzzExact,
			ops: []translate.Operation{sr("a.py", "a = 1\n", "a = 2\n")}, status: []Status{Failed}, errKind: ErrNotFound},
		{name: "loose finds a near match", src: files("a.py", py), fuzz: FuzzLoose,
			ops:  []translate.Operation{sr("a.py", "def f():\n    x = 11\n    return x\n", "def f():\n    return 1\n")},
			want: map[string]string{"a.py": "def f():\n    return 1\n\n\ndef g():\n    return 2\n"}, status: []Status{Applied}, rung: []Rung{RungLoose}},
		{name: "ambiguous without first-match", src: files("a.txt", "x\ny\nx\n"),
			ops: []translate.Operation{anchored("a.txt", "x\n", "z\n")}, status: []Status{Failed}, errKind: ErrAmbiguous},
		{name: "first match wins for search/replace", src: files("a.txt", "x\ny\nx\n"),
			ops: []translate.Operation{sr("a.txt", "x\n", "z\n")}, want: map[string]string{"a.txt": "z\ny\nx\n"}, status: []Status{Applied}, warn: true},
		{name: "line hint picks the nearest", src: files("a.txt", "x\ny\nx\n"),
			ops:  []translate.Operation{{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"x"}, New: []string{"z"}}, Placement: translate.Placement{LineHint: 3}}},
			want: map[string]string{"a.txt": "x\ny\nz\n"}, status: []Status{Applied}},
		{name: "scope narrows", src: files("a.py", "def f():\n    pass\ndef g():\n    pass\n"),
			ops:  []translate.Operation{{Kind: translate.Edit, Path: "a.py", LineEdit: translate.LineEdit{Scope: []string{"def g():"}, Old: []string{"    pass"}, New: []string{"    return 1"}}}},
			want: map[string]string{"a.py": "def f():\n    pass\ndef g():\n    return 1\n"}, status: []Status{Applied}},
		{name: "before and after disambiguate", src: files("a.txt", "a\nx\nb\nc\nx\nd\n"),
			ops:  []translate.Operation{{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Before: []string{"c"}, Old: []string{"x"}, After: []string{"d"}, New: []string{"y"}}}},
			want: map[string]string{"a.txt": "a\nx\nb\nc\ny\nd\n"}, status: []Status{Applied}},
		{name: "already applied", src: files("a.py", "x = 2\n"),
			ops: []translate.Operation{sr("a.py", "x = 1\n", "x = 2\n")}, status: []Status{AlreadyApplied}},
		{name: "CRLF file stays CRLF", src: files("a.txt", "one\r\ntwo\r\nthree\r\n"),
			ops:  []translate.Operation{sr("a.txt", "two\n", "2\nand a half\n")},
			want: map[string]string{"a.txt": "one\r\n2\r\nand a half\r\nthree\r\n"}, status: []Status{Applied}},
		{name: "no final newline kept", src: files("a.txt", "one\ntwo"),
			ops:  []translate.Operation{sr("a.txt", "two\n", "deux\n")},
			want: map[string]string{"a.txt": "one\ndeux"}, status: []Status{Applied}},
		{name: "no final newline kept when appending below", src: files("a.txt", "one\ntwo"),
			ops:  []translate.Operation{sr("a.txt", "two\n", "two\nthree\n")},
			want: map[string]string{"a.txt": "one\ntwo\nthree"}, status: []Status{Applied}},
		{name: "unchanged lines keep the file's bytes", src: files("a.py", "if x:  \n    y()\n"),
			ops:  []translate.Operation{sr("a.py", "if x:\n    y()\n", "if x:\n    z()\n")},
			want: map[string]string{"a.py": "if x:  \n    z()\n"}, status: []Status{Applied}, rung: []Rung{RungTrailing}},
		{name: "create", src: files(), ops: []translate.Operation{{Kind: translate.Create, Path: "new/a.txt", LineEdit: translate.LineEdit{New: []string{"hi"}}, FileCreate: translate.FileCreate{Append: true}}},
			want: map[string]string{"new/a.txt": "hi\n"}, status: []Status{Applied}},
		{name: "append to an existing file", src: files("a.txt", "one"), ops: []translate.Operation{{Kind: translate.Create, Path: "a.txt", LineEdit: translate.LineEdit{New: []string{"two"}}, FileCreate: translate.FileCreate{Append: true}}},
			want: map[string]string{"a.txt": "one\ntwo\n"}, status: []Status{Applied}},
		{name: "create already applied", src: files("a.txt", "hi\n"), ops: []translate.Operation{{Kind: translate.Create, Path: "a.txt", LineEdit: translate.LineEdit{New: []string{"hi"}}, FileCreate: translate.FileCreate{Append: true}}},
			status: []Status{AlreadyApplied}},
		{name: "create over different content", src: files("a.txt", "other\n"), ops: []translate.Operation{{Kind: translate.Create, Path: "a.txt", LineEdit: translate.LineEdit{New: []string{"hi"}}}},
			status: []Status{Failed}, errKind: ErrFileExists},
		{name: "sequential edits see earlier ones", src: files("a.txt", "a\n"),
			ops:  []translate.Operation{sr("a.txt", "a\n", "a\nb\n"), sr("a.txt", "b\n", "c\n")},
			want: map[string]string{"a.txt": "a\nc\n"}, status: []Status{Applied, Applied}},
		{name: "grouped edits that overlap fail", src: files("a.txt", "a\nb\nc\n"),
			ops: []translate.Operation{
				{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"a", "b"}, New: []string{"x"}}, Placement: translate.Placement{Group: 1}},
				{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"b", "c"}, New: []string{"y"}}, Placement: translate.Placement{Group: 1}}},
			status: []Status{Failed, Failed}, errKind: ErrOverlap},
		{name: "grouped edits apply against the same content", src: files("a.txt", "a\nb\nc\n"),
			ops: []translate.Operation{
				{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"a"}, New: []string{"A", "A2"}}, Placement: translate.Placement{Group: 1}},
				{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"c"}, New: []string{"C"}}, Placement: translate.Placement{Group: 1}}},
			want: map[string]string{"a.txt": "A\nA2\nb\nC\n"}, status: []Status{Applied, Applied}},
		{name: "placeholder instead of code", src: files("a.py", py),
			ops:    []translate.Operation{sr("a.py", "def f():\n    x = 1\n    return x\n", "def f():\n    # ... existing code ...\n    return 0\n")},
			status: []Status{Failed}, errKind: ErrElided},
		{name: "binary refused", src: files("b.bin", "a\x00b\n"), ops: []translate.Operation{sr("b.bin", "a\n", "b\n")},
			status: []Status{Failed}, errKind: ErrBinary},
		{name: "escape refused", src: files("a.txt", "x\n"), ops: []translate.Operation{sr("a/../../x", "x\n", "y\n")},
			status: []Status{Failed}, errKind: ErrUnsafePath},
		{name: ".git refused", src: files("a.txt", "x\n"), ops: []translate.Operation{{Kind: translate.Create, Path: ".GIT/config", LineEdit: translate.LineEdit{New: []string{"x"}}}},
			status: []Status{Failed}, errKind: ErrUnsafePath},
		{name: "absolute refused", src: files("a.txt", "x\n"), ops: []translate.Operation{sr("/etc/passwd", "x\n", "y\n")},
			status: []Status{Failed}, errKind: ErrUnsafePath},
		{name: "unique suffix resolves", src: files("src/pkg/a.py", "x\n", "b.py", "y\n"),
			ops:  []translate.Operation{sr("pkg/a.py", "x\n", "z\n")},
			want: map[string]string{"src/pkg/a.py": "z\n"}, status: []Status{Applied}, warn: true},
		{name: "missing file", src: files("a.txt", "x\n"), ops: []translate.Operation{sr("b.txt", "x\n", "y\n")},
			status: []Status{Failed}, errKind: ErrNoFile},
		{name: "symlink never edited", src: memSource{"l": {patch.ModeSymlink, "target"}}, ops: []translate.Operation{sr("l", "target\n", "x\n")},
			status: []Status{Failed}, errKind: ErrNotEditable},
		{name: "through a symlink refused", src: memSource{"d": {patch.ModeSymlink, "elsewhere"}}, ops: []translate.Operation{{Kind: translate.Create, Path: "d/x", LineEdit: translate.LineEdit{New: []string{"x"}}}},
			status: []Status{Failed}, errKind: ErrUnsafePath},
		{name: "a directory is not a file", src: files("d/a.txt", "x\n"), ops: []translate.Operation{{Kind: translate.Create, Path: "d", LineEdit: translate.LineEdit{New: []string{"x"}}}},
			status: []Status{Failed}, errKind: ErrUnsafePath},
		{name: "delete and rename", src: files("a.txt", "a\n", "b.txt", "b\n"),
			ops:  []translate.Operation{{Kind: translate.Delete, Path: "a.txt"}, {Kind: translate.Rename, Path: "b.txt", FileOp: translate.FileOp{NewPath: "c/b.txt"}}},
			want: map[string]string{"c/b.txt": "b\n"}, gone: []string{"a.txt", "b.txt"}, status: []Status{Applied, Applied}},
		{name: "edit after rename", src: files("a.txt", "a\n"),
			ops:  []translate.Operation{{Kind: translate.Rename, Path: "a.txt", FileOp: translate.FileOp{NewPath: "b.txt"}}, sr("b.txt", "a\n", "b\n")},
			want: map[string]string{"b.txt": "b\n"}, gone: []string{"a.txt"}, status: []Status{Applied, Applied}},
		{name: "block rule reaches the closing brace", src: files("m.go", "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n\nfunc g() {}\n"),
			ops:  []translate.Operation{{Kind: translate.Edit, Path: "m.go", LineEdit: translate.LineEdit{Old: []string{"func f() {"}, New: []string{"func f() {}"}, Block: translate.CBraces}}},
			want: map[string]string{"m.go": "func f() {}\n\nfunc g() {}\n"}, status: []Status{Applied}},
		{name: "rename onto an existing file with overwrite", src: files("a.txt", "a\n", "b.txt", "b\n"),
			ops:  []translate.Operation{{Kind: translate.Rename, Path: "a.txt", FileOp: translate.FileOp{NewPath: "b.txt"}, FileCreate: translate.FileCreate{Overwrite: true}}},
			want: map[string]string{"b.txt": "a\n"}, gone: []string{"a.txt"}, status: []Status{Applied}},
		{name: "rename onto an existing file without overwrite", src: files("a.txt", "a\n", "b.txt", "b\n"),
			ops: []translate.Operation{{Kind: translate.Rename, Path: "a.txt", FileOp: translate.FileOp{NewPath: "b.txt"}}}, status: []Status{Failed}, errKind: ErrFileExists},
		{name: "chmod", src: files("run.sh", "echo\n"),
			ops:    []translate.Operation{{Kind: translate.Chmod, Path: "run.sh", FileOp: translate.FileOp{Executable: true}}, {Kind: translate.Chmod, Path: "run.sh", FileOp: translate.FileOp{Executable: true}}},
			status: []Status{Applied, AlreadyApplied}, want: map[string]string{"run.sh": "echo\n"}},
		{name: "end of file anchors the match", src: files("a.txt", "x\ny\nx\n"), format: "apply-patch",
			ops:  []translate.Operation{{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"x"}, New: []string{"z"}, AtEOF: true}}},
			want: map[string]string{"a.txt": "x\ny\nz\n"}, status: []Status{Applied}},
		{name: "end of file not matched elsewhere", src: files("a.txt", "x\ny\n"), format: "apply-patch",
			ops: []translate.Operation{{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"x"}, New: []string{"z"}, AtEOF: true}}}, status: []Status{Failed}, errKind: ErrNotFound},
		{name: "scope-only insertion goes below the scope", src: files("a.py", py), format: "apply-patch",
			ops:  []translate.Operation{{Kind: translate.Edit, Path: "a.py", LineEdit: translate.LineEdit{Scope: []string{"def g():"}, New: []string{"    \"\"\"G.\"\"\""}}}},
			want: map[string]string{"a.py": strings.Replace(py, "def g():\n", "def g():\n    \"\"\"G.\"\"\"\n", 1)}, status: []Status{Applied}},
		{name: "scope-only insertion already there", src: files("a.py", py), format: "apply-patch",
			ops: []translate.Operation{{Kind: translate.Edit, Path: "a.py", LineEdit: translate.LineEdit{Scope: []string{"def g():"}, New: []string{"    return 2"}}}}, status: []Status{AlreadyApplied}},
		{name: "scope-only insertion without its scope", src: files("a.py", py), format: "apply-patch",
			ops: []translate.Operation{{Kind: translate.Edit, Path: "a.py", LineEdit: translate.LineEdit{Scope: []string{"def h():"}, New: []string{"x"}}}}, status: []Status{Failed}, errKind: ErrNotFound},
		{name: "whole content with a placeholder where code was", src: files("a.py", py), format: "whole",
			ops:    []translate.Operation{{Kind: translate.Create, Path: "a.py", FileCreate: translate.FileCreate{Overwrite: true}, LineEdit: translate.LineEdit{New: []string{"def f():", "    # ... rest of the code unchanged ..."}}}},
			status: []Status{Failed}, errKind: ErrElided},
		{name: "whole content keeping a placeholder the file had", src: files("a.py", "# ... existing code ...\nx = 1\n"), format: "whole",
			ops:  []translate.Operation{{Kind: translate.Create, Path: "a.py", FileCreate: translate.FileCreate{Overwrite: true}, LineEdit: translate.LineEdit{New: []string{"# ... existing code ...", "x = 2"}}}},
			want: map[string]string{"a.py": "# ... existing code ...\nx = 2\n"}, status: []Status{Applied}},
		{name: "python block rule", src: files("a.py", py),
			ops:  []translate.Operation{{Kind: translate.Edit, Path: "a.py", LineEdit: translate.LineEdit{Old: []string{"def f():"}, New: []string{"def f():", "    return 0"}, Block: translate.PyIndent}}},
			want: map[string]string{"a.py": "def f():\n    return 0\n\n\ndef g():\n    return 2\n"}, status: []Status{Applied}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			format := tt.format
			if format == "" {
				format = "diff"
			}
			res, err := Resolve(tt.src, tt.ops, Options{Format: format, Fuzz: tt.fuzz})
			if err != nil {
				t.Fatal(err)
			}
			for i, o := range res.Outcomes {
				if i < len(tt.status) && o.Status != tt.status[i] {
					t.Errorf("edit %d: status %s, want %s (%v)", i+1, o.Status, tt.status[i], o.Err)
				}
				if i < len(tt.rung) && o.Rung != tt.rung[i] {
					t.Errorf("edit %d: rung %s, want %s", i+1, o.Rung, tt.rung[i])
				}
				if tt.errKind != nil && o.Status == Failed && !errors.Is(o.Err, tt.errKind) {
					t.Errorf("edit %d: error %v, want kind %v", i+1, o.Err, tt.errKind)
				}
				if tt.warn != (len(o.Warnings) > 0) {
					t.Errorf("edit %d: warnings %q", i+1, o.Warnings)
				}
			}
			got := map[string]string{}
			for _, c := range res.Changes {
				if c.NewPath != "" {
					got[c.NewPath] = string(c.New)
				}
			}
			for p, want := range tt.want {
				if got[p] != want {
					t.Errorf("%s:\n got %q\nwant %q", p, got[p], want)
				}
			}
			for _, p := range tt.gone {
				found := false
				for _, c := range res.Changes {
					if c.OldPath == p && c.NewPath != p {
						found = true
					}
				}
				if !found {
					t.Errorf("%s should be gone", p)
				}
			}
			if len(tt.want) == 0 && len(tt.gone) == 0 && len(res.Changes) != 0 {
				t.Errorf("unexpected changes %+v", res.Changes)
			}
		})
	}
}

func TestClosestOnFailure(t *testing.T) {
	src := files("a.py", "def f():\n    x = 1\n    return x\n\n\ndef g():\n    return 2\n")
	res, err := Resolve(src, []translate.Operation{sr("a.py", "def f():\n    x = 11\n    return x\n", "pass\n")}, Options{Format: "diff"})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Outcomes[0]
	if o.Status != Failed || o.Err.Closest == nil {
		t.Fatalf("want a failure with a closest place, got %+v", o)
	}
	c := o.Err.Closest
	if c.Start != 1 || c.End != 3 || c.Similarity < 0.9 || !strings.Contains(c.Text, "x = 1") {
		t.Errorf("closest = %+v", c)
	}
}

func TestInsertionWrittenAsReplacementIsIdempotent(t *testing.T) {
	op := sr("a.py", "import os\n", "import os\nimport sys\n")
	for _, tt := range []struct {
		src    string
		status Status
	}{
		{"import os\n\nx = 1\n", Applied},
		{"import os\nimport sys\n\nx = 1\n", AlreadyApplied},
		// Elsewhere in the file the result does not count.
		{"import os\n\nimport os\nimport sys\n", Applied},
	} {
		res, err := Resolve(files("a.py", tt.src), []translate.Operation{op}, Options{Format: "diff"})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Outcomes[0].Status; got != tt.status {
			t.Errorf("%q: status %s, want %s", tt.src, got, tt.status)
		}
	}
}

func TestDocRoundTrip(t *testing.T) {
	for _, s := range []string{"", "a", "a\n", "a\r\n", "\n\r", "a\rb\r", "x\r\ny\nz", "\r\n\r\n", "\n\n",
		"\ufeff", "\ufeffa\r\n", "\ufeff\ufeffa\n", "a\n\ufeffb\n", "caf\xe9\n\xff\xfe", "x\u200by\n\tz \n"} {
		if got := string(newDoc([]byte(s)).bytes()); got != s {
			t.Errorf("%q round-trips to %q", s, got)
		}
	}
}

// TestByteOrderMark: a file's byte order mark stays at its top, once,
// whatever an edit does to the first line, and a reply that copies the
// mark matches as one that does not.
func TestByteOrderMark(t *testing.T) {
	tests := []struct {
		name, file string
		op         translate.Operation
		want       string
	}{
		{"first line replaced", "\ufeffa\nb\n", sr("f.txt", "a\n", "A\n"), "\ufeffA\nb\n"},
		{"reply copies the mark", "\ufeffa\nb\n", sr("f.txt", "\ufeffa\n", "\ufeffA\n"), "\ufeffA\nb\n"},
		{"lines inserted above the first", "\ufeffa\n", sr("f.txt", "a\n", "x\na\n"), "\ufeffx\na\n"},
		{"first line deleted", "\ufeffa\nb\n", sr("f.txt", "a\n", ""), "\ufeffb\n"},
		{"every line deleted", "\ufeffa\n", sr("f.txt", "a\n", ""), "\ufeff"},
		{"append to a file holding only the mark", "\ufeff",
			translate.Operation{Kind: translate.Create, FileCreate: translate.FileCreate{Append: true}, Path: "f.txt", LineEdit: translate.LineEdit{New: []string{"a"}}}, "\ufeffa\n"},
		{"two marks, an edit elsewhere", "\ufeff\ufeffa\nb\n", sr("f.txt", "b\n", "B\n"), "\ufeff\ufeffa\nB\n"},
		{"a mark mid-file is the line's own", "a\n\ufeffb\n", sr("f.txt", "\ufeffb\n", "c\n"), "a\nc\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(files("f.txt", tt.file), []translate.Operation{tt.op}, Options{Format: "diff"})
			if err != nil {
				t.Fatal(err)
			}
			if o := res.Outcomes[0]; o.Status != Applied {
				t.Fatalf("status %s: %v", o.Status, o.Err)
			}
			if len(res.Changes) != 1 || string(res.Changes[0].New) != tt.want {
				t.Fatalf("got %+v, want %q", res.Changes, tt.want)
			}
			diff, err := patch.Format(res.Changes, patch.Options{})
			if err == nil {
				err = patch.Verify(diff, res.Changes)
			}
			if err != nil {
				t.Errorf("%v\n%s", err, diff)
			}
		})
	}
}

// TestEmptyLastLine: a last line without a terminator that an edit
// empties keeps a terminator, since an empty line without one is no
// line; a later edit of the reply then sees the lines the file has.
func TestEmptyLastLine(t *testing.T) {
	tests := []struct {
		name, file string
		ops        []translate.Operation
		want       string
	}{
		{"last line emptied", "a\nb", []translate.Operation{sr("f.txt", "b\n", "\n")}, "a\n\n"},
		{"only line emptied", "b", []translate.Operation{sr("f.txt", "b\n", "\n")}, "\n"},
		{"only line emptied, a mark before it", "\ufeffb", []translate.Operation{sr("f.txt", "b\n", "\n")}, "\ufeff\n"},
		{"emptied, then filled again", "\ufeffb", []translate.Operation{sr("f.txt", "b\n", "\n"), sr("f.txt", "\n", "b\n")}, "\ufeffb\n"},
		{"last line deleted keeps the absence", "a\nb", []translate.Operation{sr("f.txt", "b\n", "")}, "a"},
		{"a line added below an unterminated one", "a", []translate.Operation{sr("f.txt", "a\n", "a\n\n")}, "a\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(files("f.txt", tt.file), tt.ops, Options{Format: "diff"})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range res.Outcomes {
				if o.Status != Applied {
					t.Fatalf("edit %d: status %s: %v", o.N, o.Status, o.Err)
				}
			}
			if len(res.Changes) != 1 || string(res.Changes[0].New) != tt.want {
				t.Fatalf("got %+v, want %q", res.Changes, tt.want)
			}
			if _, violations, err := replayUntouched(files("f.txt", tt.file), tt.ops, Options{Format: "diff"}); err != nil || len(violations) > 0 {
				t.Errorf("%v %v", err, violations)
			}
			diff, err := patch.Format(res.Changes, patch.Options{})
			if err == nil {
				err = patch.Verify(diff, res.Changes)
			}
			if err != nil {
				t.Errorf("%v\n%s", err, diff)
			}
		})
	}
}

func TestChmodChangesOnlyTheMode(t *testing.T) {
	res, err := Resolve(files("run.sh", "echo\n"), []translate.Operation{{Kind: translate.Chmod, Path: "run.sh", FileOp: translate.FileOp{Executable: true}}}, Options{Format: "udiff"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Changes) != 1 || res.Changes[0].OldMode != patch.ModeRegular || res.Changes[0].NewMode != patch.ModeExec || string(res.Changes[0].New) != "echo\n" {
		t.Fatalf("changes: %+v", res.Changes)
	}
	diff, err := patch.Format(res.Changes, patch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"; string(diff) != want {
		t.Errorf("patch:\n%s", diff)
	}
}

// countingSource counts how often the base is listed.
type countingSource struct {
	memSource
	listed int
}

func (c *countingSource) Paths() ([]string, error) {
	c.listed++
	return c.memSource.Paths()
}

// Listing a large index's every path is the costly part of resolving;
// exact names must not need it, a name by suffix lists once.
func TestPathsListedOnlyWhenNeeded(t *testing.T) {
	src := &countingSource{memSource: files("src/a.py", "x\n", "src/b.py", "y\n")}
	ops := []translate.Operation{sr("src/a.py", "x\n", "X\n"), sr("src/b.py", "y\n", "Y\n")}
	if _, err := Resolve(src, ops, Options{Format: "diff"}); err != nil {
		t.Fatal(err)
	}
	if src.listed != 0 {
		t.Errorf("exact names listed the base %d times", src.listed)
	}
	ops = []translate.Operation{sr("a.py", "x\n", "X\n"), sr("b.py", "y\n", "Y\n")}
	res, err := Resolve(src, ops, Options{Format: "diff"})
	if err != nil || res.Failed() > 0 {
		t.Fatalf("%v %+v", err, res.Outcomes)
	}
	if src.listed != 1 {
		t.Errorf("suffix names listed the base %d times, want 1", src.listed)
	}
}

// TestOverwriteChangingOnlyWhiteSpace: a whole new content that differs
// from the file only in white space (trailing spaces, blank lines at the
// end) is written, not reported already applied; the same content again
// is already applied.
func TestOverwriteChangingOnlyWhiteSpace(t *testing.T) {
	whole := func(content string) []translate.Operation {
		return []translate.Operation{{Kind: translate.Create, Path: "a.py", FileCreate: translate.FileCreate{Overwrite: true}, LineEdit: translate.LineEdit{New: lines(content)}, Line: 1, Format: "whole"}}
	}
	for _, tt := range []struct{ name, file, content, want string }{
		{"trailing spaces", "a = 1   \nb = 2\n", "a = 1\nb = 2\n", "a = 1\nb = 2\n"},
		{"blank lines at the end", "a = 1\nb = 2\n\n\n", "a = 1\nb = 2\n", "a = 1\nb = 2\n"},
		{"CRLF file", "a = 1  \r\nb = 2\r\n", "a = 1\nb = 2\n", "a = 1\r\nb = 2\r\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(files("a.py", tt.file), whole(tt.content), Options{Format: "whole"})
			if err != nil {
				t.Fatal(err)
			}
			if o := res.Outcomes[0]; o.Status != Applied || len(res.Changes) != 1 || string(res.Changes[0].New) != tt.want {
				t.Fatalf("status %s, changes %+v; want %q written", o.Status, res.Changes, tt.want)
			}
			res, err = Resolve(files("a.py", tt.want), whole(tt.content), Options{Format: "whole"})
			if err != nil {
				t.Fatal(err)
			}
			if o := res.Outcomes[0]; o.Status != AlreadyApplied || len(res.Changes) != 0 {
				t.Errorf("again: status %s, %d changes; want already applied", o.Status, len(res.Changes))
			}
		})
	}
}
