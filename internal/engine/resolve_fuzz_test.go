package engine

import (
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// FuzzResolve feeds random files and SEARCH/REPLACE edits to the
// resolver at every fuzz level: it must never panic, every outcome must
// be consistent, no line outside the lines an edit reports touching may
// change, and whatever it changes must give a diff that verifies.
func FuzzResolve(f *testing.F) {
	f.Add("def f():\n    x = 1\n    return x\n", "x = 1\n", "x = 2\ny = 3\n", uint8(0))
	f.Add("a\r\nb\r\nc", "b\n", "B\n", uint8(1))
	f.Add("\tif x {\n\t\ty()\n\t}\n", "    y()\n", "    z()\n", uint8(2))
	f.Add("x\n\n\ny\n", "x\ny\n", "x\n# ... existing code ...\n", uint8(0))
	f.Add("a \u201cb\u201d\n", "a \"b\"\n", "", uint8(0))
	f.Add("int a; /* x\n y */\nint b;\n", "int a;\nint b;\n", "int c;\n", uint8(3))
	f.Add("def f():\n    \"\"\"doc\n    \"\"\"\n    return 1\n", "def f():\n    return 1\n", "def f():\n    return 2\n", uint8(6))
	f.Add("\ufeffa\r\nb\nc\rd\n\u200be\xff\n\tf", "b\n", "B\nb2\n", uint8(0))
	f.Fuzz(func(t *testing.T, file, search, replace string, level uint8) {
		name := []string{"f.py", "f.cpp"}[int(level/3)%2] // the comment syntax the comments rung uses
		src := files(name, file)
		ops := []translate.Operation{
			{Kind: translate.Edit, Path: name, Old: lines(search), New: lines(replace), FirstMatch: level%2 == 0},
			{Kind: translate.Edit, Path: name, Old: lines(replace), New: lines(search), Group: int(level % 3)},
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
