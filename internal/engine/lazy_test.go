package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// lazyFile is a file of n lines of Go-like code, every line unique.
func lazyFile(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		switch i % 5 {
		case 0:
			lines[i] = fmt.Sprintf("func f%d() int {", i)
		case 4:
			lines[i] = "}"
		default:
			lines[i] = fmt.Sprintf("\tx%d := compute(%d)", i, i)
		}
	}
	return lines
}

// lazyEditOf is a lazy edit of file with segs segments spread over it,
// each changing one line between two it keeps.
func lazyEditOf(file []string, segs int) []string {
	var edit []string
	step := len(file) / segs
	for k := 0; k < segs; k++ {
		at := k*step + 1
		edit = append(edit, "// ... existing code ...", file[at], "\tchanged := true // "+fmt.Sprint(k), file[at+2])
	}
	return append(edit, "// ... existing code ...")
}

func mergeOf(file, edit []string) ([]lazySpan, *lazyRefusal) {
	segs, _ := splitLazy(edit, func(i int) bool { return translate.IsLazyMarker(edit[i]) })
	spans, _, _, err := newLazyMerge(file, segs, RungIndent, true).run()
	return spans, err
}

func TestLazyMergeSpreadSegments(t *testing.T) {
	file := lazyFile(1000)
	spans, err := mergeOf(file, lazyEditOf(file, 20))
	if err != nil {
		t.Fatal(err.msg)
	}
	if len(spans) != 20 {
		t.Fatalf("%d spans, want 20", len(spans))
	}
	for k, sp := range spans {
		if sp.end-sp.start != 3 || len(sp.lines) != 3 || sp.lines[1].file != -1 {
			t.Errorf("span %d: lines %d-%d, %v", k, sp.start, sp.end, sp.lines)
		}
	}
}

// BenchmarkLazy merges a lazy edit of 20 segments into files of 1k,
// 10k and 100k lines (SPEC section 5: linear in both).
func BenchmarkLazy(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		file := lazyFile(n)
		edit := lazyEditOf(file, 20)
		b.Run(fmt.Sprintf("lines=%d", n), func(b *testing.B) {
			for range b.N {
				if _, err := mergeOf(file, edit); err != nil {
					b.Fatal(err.msg)
				}
			}
		})
	}
}

// FuzzLazyMerge checks what every merge keeps: the file's lines outside
// the spans stand in the result, in order, and each segment's lines
// stand in its span, in order (a kept line as the file has it).
func FuzzLazyMerge(f *testing.F) {
	f.Add("a\nb\nc\nd\ne\n", "// ...\nb\nB\nd\n// ...\n")
	f.Add("func a() {\n\treturn 1\n}\n\nfunc b() {\n}\n", "func a() {\n\treturn 2\n}\n// ... existing code ...\n")
	f.Add("x\ny\nx\ny\n", "# ...\nx\nz\n# ...\n")
	f.Fuzz(func(t *testing.T, fileText, editText string) {
		file := strings.Split(fileText, "\n")
		edit := strings.Split(editText, "\n")
		if len(file) > 200 || len(edit) > 200 {
			return
		}
		segs, _ := splitLazy(edit, func(i int) bool { return translate.IsLazyMarker(edit[i]) })
		spans, _, _, err := newLazyMerge(file, segs, RungIndent, false).run()
		if err != nil {
			return
		}
		if len(spans) != len(segs) {
			t.Fatalf("%d spans for %d segments", len(spans), len(segs))
		}
		at := 0
		for k, sp := range spans {
			if sp.start < at || sp.end < sp.start || sp.end > len(file) {
				t.Fatalf("span %d: lines %d-%d after %d of %d", k, sp.start, sp.end, at, len(file))
			}
			prev := sp.start - 1
			j := 0
			for _, l := range sp.lines {
				if l.file >= 0 {
					if l.file <= prev || l.file >= sp.end {
						t.Fatalf("span %d keeps line %d out of order", k, l.file)
					}
					prev = l.file
				}
				// Each line is the segment's next line (as the file has it
				// when kept, re-indented when added).
				for j < len(segs[k].lines) && strings.TrimSpace(segs[k].lines[j]) != strings.TrimSpace(lazyText(file, l)) {
					j++
				}
				if j == len(segs[k].lines) {
					t.Fatalf("span %d holds %q, no line of its segment in order", k, lazyText(file, l))
				}
				j++
			}
			at = sp.end
		}
	})
}

func lazyText(file []string, l lazyLine) string {
	if l.file >= 0 {
		return file[l.file]
	}
	return l.text
}
