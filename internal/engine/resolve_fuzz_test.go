package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// FuzzResolve feeds random files and SEARCH/REPLACE edits to the
// resolver at every fuzz level: it must never panic, every outcome must
// be consistent, no line outside the lines an edit reports touching may
// change, whatever it changes must give a diff that verifies, and a
// white-space-only line an edit writes is the reply's or one the diff
// kept (checkBlankBytes).
func FuzzResolve(f *testing.F) {
	f.Add("def f():\n    x = 1\n    return x\n", "x = 1\n", "x = 2\ny = 3\n", uint8(0))
	f.Add("a\r\nb\r\nc", "b\n", "B\n", uint8(1))
	f.Add("\tif x {\n\t\ty()\n\t}\n", "    y()\n", "    z()\n", uint8(2))
	f.Add("x\n\n\ny\n", "x\ny\n", "x\n# ... existing code ...\n", uint8(0))
	f.Add("a \u201cb\u201d\n", "a \"b\"\n", "", uint8(0))
	f.Add("int a; /* x\n y */\nint b;\n", "int a;\nint b;\n", "int c;\n", uint8(3))
	f.Add("def f():\n    \"\"\"doc\n    \"\"\"\n    return 1\n", "def f():\n    return 1\n", "def f():\n    return 2\n", uint8(6))
	f.Add("\ufeffa\r\nb\nc\rd\n\u200be\xff\n\tf", "b\n", "B\nb2\n", uint8(0))
	f.Add("### Sim\n- **Edit mode**:\n  - one\n  \n- **Run mode**:\n  - two\n", "### Sim\n- **Edit mode**:\n  - one\n  \n- **Run mode**:\n  - two\n",
		"### Sim\n\n#### Edit mode\n- one\n\n#### Run mode\n- two\n", uint8(0))
	f.Add("class A:\n    def f(self):\n        a = 1\n            \n        return a\n    \n    def g(self):\n",
		"    def f(self):\n        a = 1\n            \n        return a\n    \n", "    def f(self):\n        return 2\n        \n    def h(self):\n        return 3\n    \n", uint8(0))
	f.Fuzz(func(t *testing.T, file, search, replace string, level uint8) {
		name := []string{"f.py", "f.cpp"}[int(level/3)%2] // the comment syntax the comments rung uses
		src := files(name, file)
		ops := []translate.Operation{
			{Kind: translate.Edit, Path: name, LineEdit: translate.LineEdit{Old: lines(search), New: lines(replace)}, Placement: translate.Placement{FirstMatch: level%2 == 0}},
			{Kind: translate.Edit, Path: name, LineEdit: translate.LineEdit{Old: lines(replace), New: lines(search)}, Placement: translate.Placement{Group: int(level % 3)}},
		}
		fuzz := []Fuzz{FuzzFormat, FuzzExact, FuzzLoose}[int(level)%3]
		res, err := Resolve(src, ops, Options{Format: "udiff", Fuzz: fuzz})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Outcomes {
			if (o.Status == Failed) != (o.Err != nil) {
				t.Fatalf("outcome %+v", o)
			}
		}
		if err := checkBlankBytes(src, ops[0], fuzz); err != nil {
			t.Fatalf("%q, %q, %q: %v", file, search, replace, err)
		}
		if _, violations, err := replayUntouched(src, ops, Options{Format: "udiff", Fuzz: fuzz}); err != nil || len(violations) > 0 {
			t.Fatalf("%q: %v %s", file, err, strings.Join(violations, "\n"))
		}
		applied := false
		for _, o := range res.Outcomes {
			applied = applied || o.Status == Applied
		}
		if !applied && len(res.Changes) > 0 {
			t.Fatalf("no edit applied, yet %q became %q", file, res.Changes[0].New)
		}
		if len(res.Changes) == 0 {
			return
		}
		diff, err := patch.Format(res.Changes, patch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := patch.Verify(diff, res.Changes); err != nil {
			t.Fatalf("%v\n%s", err, diff)
		}
		if !strings.HasSuffix(file, "\n") && file != "" && strings.HasSuffix(string(res.Changes[0].New), "\n") &&
			res.Outcomes[0].End < strings.Count(file, "\n")+1 && res.Outcomes[1].Status != Applied {
			t.Fatalf("final newline added to %q: %q", file, res.Changes[0].New)
		}
	})
}

// checkBlankBytes resolves op alone and checks each white-space-only
// line it writes where it matched at a rung that reads every line
// (SPEC section 5): it is one of the new lines as the reply has them,
// or a blank line of the matched region that stood by the same line
// (the nearest line above or below it that is not blank, or the edge
// of the region) as the line written does, which is what the file's
// bytes of a blank line the diff kept are.
func checkBlankBytes(src memSource, op translate.Operation, fuzz Fuzz) error {
	res, err := Resolve(src, []translate.Operation{op}, Options{Format: "udiff", Fuzz: fuzz})
	if err != nil || len(res.Changes) != 1 {
		return err
	}
	o := res.Outcomes[0]
	before := src[op.Path].data
	if o.Status != Applied || o.Rung > RungIndent || strings.HasPrefix(before, utf8BOM) || o.End < o.Start {
		return nil
	}
	old, now := textLines(before), textLines(string(res.Changes[0].New))
	if before == "" {
		old = nil
	}
	from, to := o.Start-1, o.End
	end := to + len(now) - len(old)
	if from < 0 || to > len(old) || end < from || end > len(now) {
		return nil
	}
	reply := map[string]bool{}
	for _, l := range op.New {
		reply[strings.TrimSuffix(l, "\r")] = true
	}
	// neighbours is the nearest line above and below line i of lines
	// [lo, hi) that is not blank, "" past an edge.
	neighbours := func(ls []string, lo, hi, i int) (up, down string) {
		for k := i - 1; k >= lo && up == ""; k-- {
			if !isBlank(ls[k]) {
				up = "\x00" + ls[k]
			}
		}
		for k := i + 1; k < hi && down == ""; k++ {
			if !isBlank(ls[k]) {
				down = "\x00" + ls[k]
			}
		}
		return up, down
	}
	for i := from; i < end; i++ {
		l := now[i]
		if !isBlank(l) || reply[trimEOL(l)] {
			continue
		}
		up, down := neighbours(now, from, end, i)
		kept := false
		for j := from; j < to && !kept; j++ {
			if trimEOL(old[j]) == trimEOL(l) { // the file's last line gains the line break of the lines added below it
				u, d := neighbours(old, from, to, j)
				kept = u == up || d == down
			}
		}
		if !kept {
			return fmt.Errorf("blank line %d %q of the result is neither the reply's nor a kept line of the file", i+1, l)
		}
	}
	return nil
}
