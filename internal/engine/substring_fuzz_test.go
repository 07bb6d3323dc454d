package engine

import (
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// FuzzReplace: a Replace that applies gives what strings.Replace gives
// (in a CRLF file, with CRLF line endings throughout), one that does
// not changes nothing, and the diff of every change verifies.
func FuzzReplace(f *testing.F) {
	f.Add("a\nb\nc\n", "b", "x\ny", false, false)
	f.Add("a\nb", "b", "b\n", false, true)
	f.Add("x = f(a, a)\n", "a", "bb", true, false)
	f.Add("one\ntwo\n", "\ntwo\n", "", false, true)
	f.Add("", "a", "b", false, false)
	f.Add("a\n\n\nb\n", "\n\n", "\n", true, false)
	f.Fuzz(func(t *testing.T, file, old, new string, all, crlf bool) {
		if old == "" || strings.ContainsAny(file+old+new, "\r\x00") || strings.HasPrefix(file, utf8BOM) {
			return
		}
		want := strings.ReplaceAll(file, old, new)
		if crlf && strings.Contains(file, "\n") {
			// A file with no line break has no line ending of its own.
			file, want = strings.ReplaceAll(file, "\n", "\r\n"), strings.ReplaceAll(want, "\n", "\r\n")
		}
		src := files("a.txt", file)
		op := translate.Operation{Kind: translate.Replace, Path: "a.txt", TextEdit: translate.TextEdit{OldText: old, NewText: new, All: all}}
		res, err := Resolve(src, []translate.Operation{op}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got := file
		for _, c := range res.Changes {
			got = string(c.New)
		}
		switch o := res.Outcomes[0]; o.Status {
		case Applied:
			if got != want {
				t.Fatalf("%q with %q for %q gives\n%q\nwant\n%q", file, new, old, got, want)
			}
		default:
			if len(res.Changes) > 0 {
				t.Fatalf("%s edit changed the file to %q", o.Status, got)
			}
			return
		}
		if len(res.Changes) == 0 {
			return
		}
		diff, err := patch.Format(res.Changes, patch.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := patch.Verify(diff, res.Changes); err != nil {
			t.Fatalf("the diff does not verify: %v\n%s", err, diff)
		}
	})
}
