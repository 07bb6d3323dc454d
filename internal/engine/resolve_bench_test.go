package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// bigFile is a source file of n lines: functions of ten lines, each
// with unique names, plus the repeated lines real code has.
func bigFile(n int) string {
	var b strings.Builder
	for i := 0; b.Len() == 0 || strings.Count(b.String(), "\n") < n; i++ {
		fmt.Fprintf(&b, "func f%d(x int) int {\n\tif x > %d {\n\t\treturn x\n\t}\n\ty := x * %d\n\treturn y\n}\n\n// f%d ends here.\n\n", i, i, i, i)
	}
	return b.String()
}

// bigReply edits `edits` functions spread over the file, written with
// the given indentation instead of the file's tabs.
func bigReply(lines, edits int, indent string) []translate.Operation {
	funcs := lines / 10
	ops := make([]translate.Operation, edits)
	for k := range ops {
		i := k * funcs / edits
		ops[k] = translate.Operation{Kind: translate.Edit, Path: "big.go", Placement: translate.Placement{FirstMatch: true},
			LineEdit: translate.LineEdit{
				Old: []string{fmt.Sprintf("%sy := x * %d", indent, i), indent + "return y"},
				New: []string{fmt.Sprintf("%sy := x * %d", indent, i+1), indent + "return y + 1"},
			}}
	}
	return ops
}

func benchResolve(b *testing.B, lines, edits int, indent string, fuzz Fuzz) {
	src := memSource{"big.go": {patch.ModeRegular, bigFile(lines)}}
	ops := bigReply(lines, edits, indent)
	b.ResetTimer()
	for b.Loop() {
		res, err := Resolve(src, ops, Options{Format: "diff", Fuzz: fuzz})
		if err != nil || res.Failed() > 0 {
			b.Fatalf("%v %+v", err, res.Outcomes[0].Err)
		}
	}
}

// BenchmarkResolve: 500 edits to one file, exact and at the indent
// rung, for files of 5k, 50k and 500k lines (time per edit should not
// grow with the file).
func BenchmarkResolve(b *testing.B) {
	for _, lines := range []int{5000, 50000, 500000} {
		b.Run(fmt.Sprintf("exact/lines=%d", lines), func(b *testing.B) { benchResolve(b, lines, 500, "\t", FuzzFormat) })
		b.Run(fmt.Sprintf("indent/lines=%d", lines), func(b *testing.B) { benchResolve(b, lines, 500, "    ", FuzzFormat) })
	}
	b.Run("loose/lines=50000", func(b *testing.B) { benchResolve(b, 50000, 500, "\t", FuzzLoose) })
}

// BenchmarkMatcherFind: finding one three-line pattern in a 50,000-line
// file at each rung, the view already built (the cost per edit).
func BenchmarkMatcherFind(b *testing.B) {
	d := newDoc([]byte(bigFile(50000)))
	m := newMatcher(d, "go")
	pattern := []string{"\ty := x * 2500", "\treturn y", "}"}
	for _, r := range []Rung{RungExact, RungTrailing, RungIndent, RungWhitespace, RungComments, RungTypography} {
		m.view(r).index(d) // built once per file, outside the loop
		b.Run(r.String(), func(b *testing.B) {
			for b.Loop() {
				if len(m.find(pattern, r)) != 1 {
					b.Fatal("not found once")
				}
			}
		})
	}
}
