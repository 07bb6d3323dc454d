package engine

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// BenchmarkSweep: one reply of n edits spread through a file of l
// lines, every format in its most common real shape: SEARCH/REPLACE
// blocks of three lines, unified-diff hunks with their numbers and
// three lines of context, apply-patch hunks under a scope line,
// edit-v2's anchors, fiup's anchors, Cline's SEARCH blocks, Roo Code's
// with :start_line: hints, udiffx's hunks. n goes from 100 to 10,000
// at 100,000 lines and l from 10,000 to 1,000,000 at 1,000 edits: the
// time should grow as n and as l (an exponent near 1 or below), never
// as their product. Run with -benchtime 3x; the exponents are the
// slopes of log time against log n and log l (cpu-ns/op, the
// process's processor time, when the machine is busy).
func BenchmarkSweep(b *testing.B) {
	type size struct{ n, l int }
	sizes := []size{{100, 100000}, {1000, 100000}, {10000, 100000}, {1000, 10000}, {1000, 1000000}}
	for _, format := range sweepFormats {
		for _, s := range sizes {
			b.Run(fmt.Sprintf("format=%s/n=%d/l=%d", format.name, s.n, s.l), func(b *testing.B) {
				file, reply := sweepCase(format, s.n, s.l)
				runtime.GC() // the file's making is not the reply's cost
				before := cpuTime()
				benchRun(b, newOneFile("calc.py", file), reply)
				b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// sweepEdit writes edit k of a reply: line at (0-based) of the file
// becomes its new text; scope is the function it stands in.
type sweepEdit func(w *strings.Builder, k, at int, scope string)

// sweepFormat is a format's reply: head, the edits, tail.
type sweepFormat struct {
	name, head, tail string
	edit             sweepEdit
}

var sweepFormats []sweepFormat

func init() {
	old := hunkLine
	new := func(at int) string { return strings.Replace(hunkLine(at), "total", "sum", 1) }
	context := func(w *strings.Builder, prefix string, from, to int) {
		for i := from; i < to; i++ {
			w.WriteString(prefix + old(i) + "\n")
		}
	}
	add := func(name, head, tail string, edit sweepEdit) {
		sweepFormats = append(sweepFormats, sweepFormat{name, head, tail, edit})
	}
	add("diff", "", "", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("calc.py\n```python\n<<<<<<< SEARCH\n")
		context(w, "", at-1, at+2)
		w.WriteString("=======\n" + old(at-1) + "\n" + new(at) + "\n" + old(at+1) + "\n>>>>>>> REPLACE\n```\n\n")
	})
	add("udiff", "```diff\n--- a/calc.py\n+++ b/calc.py\n", "```\n", func(w *strings.Builder, k, at int, scope string) {
		fmt.Fprintf(w, "@@ -%d,7 +%d,7 @@ %s\n", at-2, at-2, scope)
		context(w, " ", at-3, at)
		w.WriteString("-" + old(at) + "\n+" + new(at) + "\n")
		context(w, " ", at+1, at+4)
	})
	add("apply-patch", "*** Begin Patch\n*** Update File: calc.py\n", "*** End Patch\n", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("@@ " + scope + "\n")
		context(w, " ", at-3, at)
		w.WriteString("-" + old(at) + "\n+" + new(at) + "\n")
		context(w, " ", at+1, at+4)
	})
	add("edit-v2", "", "", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("```python\ncalc.py\n<<<<<<< EDIT\n" + old(at-1) + "\n-------\n" + old(at) + "\n=======\n" + new(at) + "\n-------\n" + old(at+1) + "\n>>>>>>>\n```\n\n")
	})
	add("fiup", "```fiup\n", "```\n", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("<<<FIUP>>>\n[FILE]: calc.py\n[OP]: REPLACE\n[ANCHOR]\n" + old(at) + "\n[CONTENT]\n" + new(at) + "\n<<<END>>>\n\n")
	})
	add("cline", "<replace_in_file>\n<path>calc.py</path>\n<diff>\n", "</diff>\n</replace_in_file>\n", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("------- SEARCH\n")
		context(w, "", at-1, at+2)
		w.WriteString("=======\n" + old(at-1) + "\n" + new(at) + "\n" + old(at+1) + "\n+++++++ REPLACE\n")
	})
	add("roo", "<apply_diff>\n<path>calc.py</path>\n<diff>\n", "</diff>\n</apply_diff>\n", func(w *strings.Builder, k, at int, scope string) {
		fmt.Fprintf(w, "<<<<<<< SEARCH\n:start_line:%d\n-------\n%s\n=======\n%s\n>>>>>>> REPLACE\n\n", at+1, old(at), new(at))
	})
	add("udiffx", "<FILE_CHANGES>\n<FILE_PATCH file_path=\"calc.py\">\n", "</FILE_PATCH>\n</FILE_CHANGES>\n", func(w *strings.Builder, k, at int, scope string) {
		fmt.Fprintf(w, "@@ -%d,7 +%d,7 @@\n", at-2, at-2)
		context(w, " ", at-3, at)
		w.WriteString("-" + old(at) + "\n+" + new(at) + "\n")
		context(w, " ", at+1, at+4)
	})
}

// sweepCase is the file of l lines, a function's def line heading each
// of n stretches, and the reply of n edits, one in the middle of each.
func sweepCase(format sweepFormat, n, l int) (file, reply string) {
	var f, r strings.Builder
	step := l / n
	for i := range l {
		if i%step == 0 {
			fmt.Fprintf(&f, "def handler_%d(request):\n", i/step)
			continue
		}
		f.WriteString(hunkLine(i) + "\n")
	}
	r.WriteString("Rename some totals.\n\n" + format.head)
	for k := range n {
		format.edit(&r, k, k*step+step/2, fmt.Sprintf("def handler_%d(request):", k))
	}
	r.WriteString(format.tail)
	return f.String(), r.String()
}
