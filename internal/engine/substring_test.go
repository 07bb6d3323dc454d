package engine

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

func rep(old, new string) translate.Operation {
	return translate.Operation{Kind: translate.Replace, Format: translate.FormatToolCalls, Path: "a.txt", TextEdit: translate.TextEdit{OldText: old, NewText: new}, Line: 1}
}

func repN(old, new string, n int) translate.Operation {
	op := rep(old, new)
	op.Count = n
	return op
}

func repAll(old, new string) translate.Operation {
	op := rep(old, new)
	op.All = true
	return op
}

// textCase is a reply of Replace and Insert operations on a.txt (nil
// file: a.txt does not exist): the statuses it gives, the file it
// leaves, or the failure of its one failing edit.
type textCase struct {
	name   string
	file   *string
	ops    []translate.Operation
	status []Status
	want   string // a.txt afterwards
	err    error  // kind of the failing edit's error
	msg    string // part of its message
	places []int
}

func text(s string) *string { return &s }

// runTextCase resolves c and checks it; for a change, the canonical
// diff must verify and pass git apply --check against the base.
func runTextCase(t *testing.T, c textCase) {
	t.Helper()
	src := memSource{}
	if c.file != nil {
		src["a.txt"] = memFile{patch.ModeRegular, *c.file}
	}
	res, err := Resolve(src, c.ops, Options{Format: translate.FormatToolCalls})
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range res.Outcomes {
		if i < len(c.status) && o.Status != c.status[i] {
			t.Errorf("edit %d: status %s, want %s (%v)", i+1, o.Status, c.status[i], o.Err)
		}
		if o.Err == nil {
			continue
		}
		if c.err != nil && !errors.Is(o.Err, c.err) {
			t.Errorf("edit %d: error %v, want kind %v", i+1, o.Err, c.err)
		}
		if !strings.Contains(o.Err.Msg, c.msg) {
			t.Errorf("edit %d: message %q lacks %q", i+1, o.Err.Msg, c.msg)
		}
		if c.places != nil && intList(o.Err.Places) != intList(c.places) {
			t.Errorf("edit %d: places %v, want %v", i+1, o.Err.Places, c.places)
		}
	}
	if res.Failed() > 0 {
		return
	}
	got := ""
	if c.file != nil {
		got = *c.file
	}
	for _, ch := range res.Changes {
		if ch.Path() == "a.txt" {
			got = string(ch.New)
		}
	}
	if got != c.want {
		t.Errorf("a.txt is\n%q\nwant\n%q", got, c.want)
	}
	if len(res.Changes) == 0 {
		return
	}
	diff, err := patch.Format(res.Changes, patch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := patch.Verify(diff, res.Changes); err != nil {
		t.Errorf("the diff does not verify: %v\n%s", err, diff)
	}
	gitApplyCheck(t, src, string(diff))
}

func TestReplace(t *testing.T) {
	const py = "def f(a):\n    return a\n\ndef g(b):\n    return b\n"
	cases := []textCase{
		{name: "once", file: text(py), ops: []translate.Operation{rep("    return a\n", "    return a + 1\n")},
			status: []Status{Applied}, want: "def f(a):\n    return a + 1\n\ndef g(b):\n    return b\n"},
		{name: "twice fails listing both lines", file: text(py), ops: []translate.Operation{rep("    return", "    yield")},
			status: []Status{Failed}, err: ErrAmbiguous, msg: "stands 2 times in a.txt (at lines 2, 5)", places: []int{2, 5}},
		{name: "all", file: text(py), ops: []translate.Operation{repAll("return", "yield")},
			status: []Status{Applied}, want: "def f(a):\n    yield a\n\ndef g(b):\n    yield b\n"},
		{name: "all needs one", file: text(py), ops: []translate.Operation{repAll("lambda", "def")},
			status: []Status{Failed}, err: ErrNotFound, msg: `the old text "lambda" does not stand in a.txt`},
		{name: "count 2 of 2", file: text(py), ops: []translate.Operation{repN("return", "yield", 2)},
			status: []Status{Applied}, want: "def f(a):\n    yield a\n\ndef g(b):\n    yield b\n"},
		{name: "count 2 of 3", file: text(py + "    return\n"), ops: []translate.Operation{repN("return", "yield", 2)},
			status: []Status{Failed}, err: ErrAmbiguous, msg: "stands 3 times", places: []int{2, 5, 6}},
		{name: "count 3 of 2", file: text(py), ops: []translate.Operation{repN("return", "yield", 3)},
			status: []Status{Failed}, err: ErrNotFound, msg: "asks for it 3 times"},
		{name: "crlf file", file: text("one\r\ntwo\r\nthree\r\n"), ops: []translate.Operation{rep("two\nthree", "2\n2b\nthree")},
			status: []Status{Applied}, want: "one\r\n2\r\n2b\r\nthree\r\n"},
		{name: "crlf in the call", file: text("one\ntwo\n"), ops: []translate.Operation{rep("one\r\ntwo", "1\r\n2")},
			status: []Status{Applied}, want: "1\n2\n"},
		{name: "no final newline kept", file: text("a\nb"), ops: []translate.Operation{rep("b", "c")},
			status: []Status{Applied}, want: "a\nc"},
		{name: "no final newline, lines added", file: text("a\nb"), ops: []translate.Operation{rep("b", "b\nc")},
			status: []Status{Applied}, want: "a\nb\nc"},
		{name: "replacement adds the final newline", file: text("a\nb"), ops: []translate.Operation{rep("b", "b\n")},
			status: []Status{Applied}, want: "a\nb\n"},
		{name: "replacement removes the final newline", file: text("a\nb\n"), ops: []translate.Operation{rep("b\n", "c")},
			status: []Status{Applied}, want: "a\nc"},
		{name: "multi-line", file: text(py), ops: []translate.Operation{rep("def g(b):\n    return b\n", "def g(b, c):\n    return b + c\n")},
			status: []Status{Applied}, want: "def f(a):\n    return a\n\ndef g(b, c):\n    return b + c\n"},
		{name: "mid-line", file: text("x = compute(alpha, beta)  # keep\nnext\n"), ops: []translate.Operation{rep("alpha, beta", "beta, alpha")},
			status: []Status{Applied}, want: "x = compute(beta, alpha)  # keep\nnext\n"},
		{name: "joins lines", file: text("a\nb\nc\n"), ops: []translate.Operation{rep("\nb\n", "")},
			status: []Status{Applied}, want: "ac\n"},
		{name: "two on one line", file: text("f(x, x)\nx\n"), ops: []translate.Operation{repN("x", "y", 3)},
			status: []Status{Applied}, want: "f(y, y)\ny\n"},
		{name: "deletes the last lines", file: text("keep\ndrop\n"), ops: []translate.Operation{rep("drop\n", "")},
			status: []Status{Applied}, want: "keep\n"},
		{name: "mixed endings keep theirs", file: text("a\r\nb\nc\r\n"), ops: []translate.Operation{rep("b", "B")},
			status: []Status{Applied}, want: "a\r\nB\nc\r\n"},
		{name: "byte order mark", file: text("\ufeffpackage a\n"), ops: []translate.Operation{rep("\ufeffpackage a", "package b")},
			status: []Status{Applied}, want: "\ufeffpackage b\n"},
		{name: "not found gives the closest lines", file: text(py), ops: []translate.Operation{rep("def g(b):\n    return  b\n", "x")},
			status: []Status{Failed}, err: ErrNotFound, msg: `the old text "def g(b):"... does not stand in a.txt`},
		{name: "empty old creates", ops: []translate.Operation{rep("", "new\nfile")},
			status: []Status{Applied}, want: "new\nfile\n"},
		{name: "empty old fills an empty file", file: text(""), ops: []translate.Operation{rep("", "x\n")},
			status: []Status{Applied}, want: "x\n"},
		{name: "empty old on content fails", file: text("x\n"), ops: []translate.Operation{rep("", "y\n")},
			status: []Status{Failed}, err: ErrFileExists, msg: "not empty"},
		{name: "empty old, same content", file: text("y\n"), ops: []translate.Operation{rep("", "y")},
			status: []Status{AlreadyApplied}, want: "y\n"},
		{name: "missing file", ops: []translate.Operation{rep("a", "b")},
			status: []Status{Failed}, err: ErrNoFile, msg: "does not exist"},
		{name: "create then replace", ops: []translate.Operation{
			{Kind: translate.Create, Path: "a.txt", LineEdit: translate.LineEdit{New: []string{"one", "two"}}}, rep("two", "2")},
			status: []Status{Applied, Applied}, want: "one\n2\n"},
		{name: "replace then replace", file: text(py), ops: []translate.Operation{
			rep("def f(a):", "def f(a, b):"), rep("def f(a, b):\n    return a\n", "def f(a, b):\n    return a * b\n")},
			status: []Status{Applied, Applied}, want: "def f(a, b):\n    return a * b\n\ndef g(b):\n    return b\n"},
		{name: "the second sees the first", file: text("x\n"), ops: []translate.Operation{rep("x", "y"), rep("x", "z")},
			status: []Status{Applied, Failed}, err: ErrNotFound},
		{name: "replace after a line edit", file: text(py), ops: []translate.Operation{
			{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"def g(b):"}, New: []string{"def h(b):"}}}, rep("def h(b)", "def k(b)")},
			status: []Status{Applied, Applied}, want: "def f(a):\n    return a\n\ndef k(b):\n    return b\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runTextCase(t, c) })
	}
}

// TestReplaceAround: an old text of three lines or more is looked for
// in the lines around the places of its rarest whole line (flatAround),
// and finds what a search of the whole file finds: overlapping
// candidates, places many lines apart, the end of the file, line
// endings, a whole line that stands where the text does not.
func TestReplaceAround(t *testing.T) {
	var long strings.Builder
	for i := range 300 {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	ls := long.String()
	cases := []textCase{
		{name: "periodic text, all", file: text("x\nx\nx\nx\nx\n"), ops: []translate.Operation{repAll("x\nx\nx", "y")},
			status: []Status{Applied}, want: "y\nx\nx\n"},
		{name: "periodic text, once is ambiguous", file: text("a\nx\nx\nx\nx\nx\nx\nb\n"), ops: []translate.Operation{rep("x\nx\nx", "y")},
			status: []Status{Failed}, err: ErrAmbiguous, msg: "stands 2 times", places: []int{2, 5}},
		{name: "places far apart", file: text("a\nb\nc\n" + ls + "a\nb\nc\n"), ops: []translate.Operation{repN("a\nb\nc", "A", 2)},
			status: []Status{Applied}, want: "A\n" + ls + "A\n"},
		{name: "mid-line ends", file: text(ls + "x = f(a)\nmid\ng(b) + 1\n" + ls), ops: []translate.Operation{rep("f(a)\nmid\ng(b)", "F")},
			status: []Status{Applied}, want: ls + "x = F + 1\n" + ls},
		{name: "the whole line stands where the text does not", file: text(ls + "p\nmid\nq\nr\nmid\ns\n"), ops: []translate.Operation{rep("r\nmid\ns", "R")},
			status: []Status{Applied}, want: ls + "p\nmid\nq\nR\n"},
		{name: "at the end, no final newline", file: text(ls + "a\nb\nc"), ops: []translate.Operation{rep("a\nb\nc", "z")},
			status: []Status{Applied}, want: ls + "z"},
		{name: "takes the final newline", file: text(ls + "a\nb\nc\nd\n"), ops: []translate.Operation{rep("a\nb\nc\n", "z")},
			status: []Status{Applied}, want: ls + "zd\n"},
		{name: "crlf", file: text("one\r\ntwo\r\nthree\r\nfour\r\n"), ops: []translate.Operation{rep("one\ntwo\nthree", "1\n2\n3")},
			status: []Status{Applied}, want: "1\r\n2\r\n3\r\nfour\r\n"},
		{name: "after an edit above", file: text(ls), ops: []translate.Operation{rep("line 1\nline 2\nline 3", "L\nL\nL\nL"), rep("line 200\nline 201\nline 202", "M")},
			status: []Status{Applied, Applied}, want: strings.Replace(strings.Replace(ls, "line 1\nline 2\nline 3\n", "L\nL\nL\nL\n", 1), "line 200\nline 201\nline 202\n", "M\n", 1)},
		{name: "the new lines of an edit", file: text(ls), ops: []translate.Operation{rep("line 7\n", "a\nb\nc\n"), rep("a\nb\nc", "abc")},
			status: []Status{Applied, Applied}, want: strings.Replace(ls, "line 7\n", "abc\n", 1)},
		{name: "the whole line only, not found", file: text(ls), ops: []translate.Operation{rep("line 4\nline 5\nline 7", "x")},
			status: []Status{Failed}, err: ErrNotFound, msg: "does not stand in a.txt"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runTextCase(t, c) })
	}
}

// TestReplaceReadsAroundTheEdit: 200 tool-call edits of a 20,000-line
// file read the lines around each edit, not the file for each (which
// made 10,000 edits of a long file cost their number times its
// length).
func TestReplaceReadsAroundTheEdit(t *testing.T) {
	var file, want strings.Builder
	var ops []translate.Operation
	for i := range 20000 {
		fmt.Fprintf(&file, "    total += weight(%d)\n", i)
		if i%100 == 50 {
			fmt.Fprintf(&want, "    sum += weight(%d)\n", i)
			continue
		}
		fmt.Fprintf(&want, "    total += weight(%d)\n", i)
	}
	for i := 50; i < 20000; i += 100 {
		ops = append(ops, rep(fmt.Sprintf("    total += weight(%d)\n    total += weight(%d)\n    total += weight(%d)", i-1, i, i+1),
			fmt.Sprintf("    total += weight(%d)\n    sum += weight(%d)\n    total += weight(%d)", i-1, i, i+1)))
	}
	before := linesFlattened.Load()
	res, err := Resolve(files("a.txt", file.String()), ops, Options{Format: translate.FormatToolCalls})
	if err != nil || res.Failed() > 0 || len(res.Changes) != 1 {
		t.Fatalf("%v %+v", err, res.Outcomes)
	}
	if got := string(res.Changes[0].New); got != want.String() {
		t.Fatalf("the file is not what the edits make")
	}
	if read := linesFlattened.Load() - before; read > int64(len(ops))*10 {
		t.Errorf("the %d edits read %d lines of the 20000-line file, want at most %d", len(ops), read, len(ops)*10)
	}
}

// TestReplaceAlreadyApplied: a reply run twice finds its Replace done
// the second time and changes nothing; where a second run cannot be
// told from a first, the edit fails, never guesses.
func TestReplaceAlreadyApplied(t *testing.T) {
	const py = "def f(a):\n    return a\n\ndef g(b):\n    return b\n"
	cases := []textCase{
		{name: "rerun", file: text("def f(a):\n    return a + 1\n\ndef g(b):\n    return b\n"),
			ops:    []translate.Operation{rep("def f(a):\n    return a\n", "def f(a):\n    return a + 1\n")},
			status: []Status{AlreadyApplied}, want: "def f(a):\n    return a + 1\n\ndef g(b):\n    return b\n"},
		{name: "rerun of an insertion", file: text("import os\nimport sys\n\nx = 1\n"),
			ops:    []translate.Operation{rep("import os\n", "import os\nimport sys\n")},
			status: []Status{AlreadyApplied}, want: "import os\nimport sys\n\nx = 1\n"},
		{name: "insertion partly done", file: text("import os\nimport sys\nimport os\n"),
			ops:    []translate.Operation{repAll("import os\n", "import os\nimport sys\n")},
			status: []Status{Failed}, err: ErrAmbiguous, msg: "1 of them inside the new text"},
		{name: "new text elsewhere is no proof", file: text(py + "colour = 1\n"),
			ops:    []translate.Operation{rep("    return c", "colour")},
			status: []Status{Failed}, err: ErrNotFound},
		{name: "deletion cannot be told", file: text(py),
			ops:    []translate.Operation{rep("def h():\n    pass\n", "")},
			status: []Status{Failed}, err: ErrNotFound},
		{name: "new text twice when once is asked", file: text("def f(a):\n    return a + 1\n\ndef f(a):\n    return a + 1\n"),
			ops:    []translate.Operation{rep("def f(a):\n    return a\n", "def f(a):\n    return a + 1\n")},
			status: []Status{Failed}, err: ErrNotFound},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runTextCase(t, c) })
	}
}

// TestReplaceTwiceChangesNothing applies each reply, then again to
// what it left: the second run changes nothing, each edit found done
// or, where that cannot be told, failing.
func TestReplaceTwiceChangesNothing(t *testing.T) {
	const py = "def f(a):\n    return a\n\ndef g(b):\n    return b\n"
	replies := []struct {
		ops  []translate.Operation
		want []Status // of the second run
	}{
		{[]translate.Operation{rep("def f(a):\n    return a\n", "def f(a):\n    return a + 1\n")}, []Status{AlreadyApplied}},
		{[]translate.Operation{rep("def g(b):", "def g(b):\n    \"\"\"Return b.\"\"\"")}, []Status{AlreadyApplied}},
		{[]translate.Operation{repN("return", "return 2 *", 2)}, []Status{AlreadyApplied}},
		{[]translate.Operation{rep("return a", "return a  # checked"), rep("def f(a):", "def f(a: int):")}, []Status{AlreadyApplied, AlreadyApplied}},
		// "    return b" is more like the old line than the new one is:
		// nothing shows the new line stands where the edit meant it.
		{[]translate.Operation{rep("    return a\n", "    return a + 1\n")}, []Status{Failed}},
	}
	for i, r := range replies {
		src := files("a.txt", py)
		first, err := Resolve(src, r.ops, Options{})
		if err != nil || first.Failed() > 0 {
			t.Fatalf("reply %d: %v %+v", i, err, first.Outcomes)
		}
		again, err := Resolve(withChanges(src, first.Changes), r.ops, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for j, o := range again.Outcomes {
			if o.Status != r.want[j] {
				t.Errorf("reply %d, second run: edit %d %s, want %s (%v)", i, o.N, o.Status, r.want[j], o.Err)
			}
		}
		if len(again.Changes) != 0 && again.Failed() == 0 {
			t.Errorf("reply %d, second run changed %s", i, again.Changes[0].Path())
		}
	}
}

func TestReplaceClosest(t *testing.T) {
	file := strings.Join(storeFile(300), "\n") + "\n"
	old := "func (s *Store) Load7(id string) (*Item, error) {\n\titem, err := s.get(ID)\n\tif err != nil {\n"
	o := resolveOne(t, file, translate.Operation{Kind: translate.Replace, Path: "s.go", TextEdit: translate.TextEdit{OldText: old, NewText: "x"}}, FuzzFormat)
	if o.Status != Failed || o.Err.Closest == nil {
		t.Fatalf("want a failure with the closest lines, got %s %+v", o.Status, o.Err)
	}
	if c := o.Err.Closest; !strings.Contains(c.Text, "Load7(") || len(c.Differ) != 1 {
		t.Errorf("closest lines %d-%d, differing %v:\n%s", c.Start, c.End, c.Differ, c.Text)
	}
}

func TestReplaceRefuses(t *testing.T) {
	src := memSource{
		"bin":  {patch.ModeRegular, "a\x00b\n"},
		"link": {patch.ModeSymlink, "target"},
		"sub":  {patch.ModeGitlink, ""},
	}
	for _, p := range []string{"bin", "link", "sub"} {
		op := rep("a", "b")
		op.Path = p
		res, err := Resolve(src, []translate.Operation{op}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		o := res.Outcomes[0]
		if o.Status != Failed || !(errors.Is(o.Err, ErrBinary) || errors.Is(o.Err, ErrNotEditable)) {
			t.Errorf("%s: %s %v, want refused", p, o.Status, o.Err)
		}
	}
}

func ins(after int, lines ...string) translate.Operation {
	return translate.Operation{Kind: translate.Insert, Path: "a.txt", TextEdit: translate.TextEdit{InsertAfter: after}, LineEdit: translate.LineEdit{New: lines}, Line: 3}
}

func TestInsert(t *testing.T) {
	cases := []textCase{
		{name: "top", file: text("a\nb\n"), ops: []translate.Operation{ins(0, "x")}, status: []Status{Applied}, want: "x\na\nb\n"},
		{name: "middle", file: text("a\nb\n"), ops: []translate.Operation{ins(1, "x", "y")}, status: []Status{Applied}, want: "a\nx\ny\nb\n"},
		{name: "after the last line", file: text("a\nb\n"), ops: []translate.Operation{ins(2, "x")}, status: []Status{Applied}, want: "a\nb\nx\n"},
		{name: "no final newline kept", file: text("a\nb"), ops: []translate.Operation{ins(2, "x")}, status: []Status{Applied}, want: "a\nb\nx"},
		{name: "crlf", file: text("a\r\nb\r\n"), ops: []translate.Operation{ins(1, "x")}, status: []Status{Applied}, want: "a\r\nx\r\nb\r\n"},
		{name: "beyond", file: text("a\nb\n"), ops: []translate.Operation{ins(3, "x")}, status: []Status{Failed},
			err: ErrNoAnchor, msg: "a.txt has 2 lines"},
		{name: "after a replace", file: text("a\nb\n"), ops: []translate.Operation{rep("a\n", "a\na2\n"), ins(2, "x")},
			status: []Status{Applied, Applied}, want: "a\na2\nx\nb\n"},
		{name: "rerun", file: text("a\nx1\nb\n"), ops: []translate.Operation{ins(1, "x1")}, status: []Status{AlreadyApplied}, want: "a\nx1\nb\n"},
		{name: "a brace before a brace cannot be told", file: text("a\n}\n"), ops: []translate.Operation{ins(1, "}")},
			status: []Status{Failed}, err: ErrAmbiguous},
		{name: "missing file", ops: []translate.Operation{ins(0, "x")}, status: []Status{Failed}, err: ErrNoFile},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { runTextCase(t, c) })
	}
}
