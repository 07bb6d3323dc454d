package engine

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// stepFile is the source file of scripts/benchrun: a package line and
// n-1 lines of about 33 bytes, each unique.
func stepFile(n int) string {
	var b strings.Builder
	b.Grow(n * 36)
	b.WriteString("package big\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "\tv%06d := compute(%d) // step %d\n", i, i*7%1000, i)
	}
	return b.String()
}

// stepReply is a reply of edits SEARCH/REPLACE blocks of one line each
// to big.go, a stepFile of size lines, spread evenly from line from on.
func stepReply(size, from, edits int) string {
	var b strings.Builder
	b.WriteString("Renumber some steps.\n\n")
	step := max(1, (size-from)/edits)
	for k := range edits {
		i := from + k*step
		old := fmt.Sprintf("\tv%06d := compute(%d) // step %d", i, i*7%1000, i)
		fmt.Fprintf(&b, "big.go\n```\n<<<<<<< SEARCH\n%s\n=======\n%s\n>>>>>>> REPLACE\n```\n\n", old, strings.Replace(old, "step", "stage", 1))
	}
	return b.String()
}

// oneFile is a Source of one file whose id is computed once, so that
// the benchmarks measure the engine and not the test's source.
type oneFile struct {
	path string
	data []byte
	id   string
}

func newOneFile(path, data string) *oneFile {
	return &oneFile{path, []byte(data), patch.BlobID([]byte(data))}
}

func (f *oneFile) Lookup(p string) (Entry, error) {
	if p != f.path {
		return Entry{}, ErrNotExist
	}
	return Entry{Mode: patch.ModeRegular, ID: f.id}, nil
}

func (f *oneFile) Read(p string) ([]byte, error) {
	if p != f.path {
		return nil, ErrNotExist
	}
	return f.data, nil
}

func (f *oneFile) Paths() ([]string, error) { return []string{f.path}, nil }

// benchRun checks reply against src as the check command does: read,
// resolve, write the diff and verify it.
func benchRun(b *testing.B, src Source, reply string) {
	b.ReportAllocs()
	for b.Loop() {
		res, err := Run(context.Background(), []Input{{Source: "reply.md", Text: reply}}, src, nil, RunOptions{Format: "auto", Fuzz: FuzzFormat})
		if err != nil || len(res) != 1 || res[0].Failed() || len(res[0].Patch) == 0 {
			b.Fatalf("%v %+v", err, res)
		}
	}
}

// BenchmarkHugeFileOneEdit: one edit near the end of a file of a
// million lines (the case git apply --cached --check is compared with).
func BenchmarkHugeFileOneEdit(b *testing.B) {
	const n = 1000000
	src := newOneFile("big.go", stepFile(n))
	benchRun(b, src, stepReply(n, n-10, 1))
}

// BenchmarkManyEdits: 1,000 and 10,000 one-line edits in one reply to a
// 100,000-line file; the time should grow with the edits, not with
// their square.
func BenchmarkManyEdits(b *testing.B) {
	const n = 100000
	src := newOneFile("big.go", stepFile(n))
	for _, edits := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("edits=%d", edits), func(b *testing.B) { benchRun(b, src, stepReply(n, 1, edits)) })
	}
}

// BenchmarkViewIndex: the exact rung's index of a million-line file,
// which a reply of many edits to it builds.
func BenchmarkViewIndex(b *testing.B) {
	d := newDoc([]byte(stepFile(1000000)))
	b.ReportAllocs()
	for b.Loop() {
		newView(d, RungExact, "").index(d)
	}
}

// hunkLine is line i of the file of BenchmarkApplyPatchHunks and
// scripts/benchrun's case 13: every line unique.
func hunkLine(i int) string {
	return fmt.Sprintf("    total += weight(%d) * %d  # row %d", i, i%97, i)
}

// BenchmarkViewIndexWanted: the trailing-space rung's index of a
// 50,000-line file of which a reply of 500 hunks looks for 4,000
// lines: the index holds only theirs.
func BenchmarkViewIndexWanted(b *testing.B) {
	const n = 50000
	var file strings.Builder
	for i := range n {
		file.WriteString(hunkLine(i) + "\n")
	}
	var want [][]string
	for k := range 500 {
		at := k*100 + 50
		var hunk []string
		for i := at - 3; i <= at+3; i++ {
			hunk = append(hunk, hunkLine(i))
		}
		want = append(want, hunk, []string{strings.Replace(hunkLine(at), "total", "sum", 1)})
	}
	d := newDoc([]byte(file.String()))
	b.ReportAllocs()
	for b.Loop() {
		v := newView(d, RungTrailing, "")
		v.want = want
		v.index(d)
	}
}

// applyPatchHunks is the file of n lines and the apply-patch document
// of hunks one-line changes spread evenly over it that
// BenchmarkApplyPatchHunks and its scoped twin measure, each hunk with
// three lines of context either side. scoped puts a function's def
// line at the top of each hunk's stretch of the file and names it on
// the hunk's "@@" line, as Codex's prompt teaches
// ("@@ def handler_40(request):").
func applyPatchHunks(n, hunks int, scoped bool) (file, doc string) {
	var f, d strings.Builder
	step := n / hunks
	for i := range n {
		if scoped && i%step == 0 {
			fmt.Fprintf(&f, "def handler_%d(request):\n", i/step)
			continue
		}
		f.WriteString(hunkLine(i) + "\n")
	}
	d.WriteString("*** Begin Patch\n*** Update File: calc.py\n")
	for k := range hunks {
		at := k*step + step/2
		if scoped {
			fmt.Fprintf(&d, "@@ def handler_%d(request):\n", k)
		} else {
			d.WriteString("@@\n")
		}
		for i := at - 3; i < at; i++ {
			d.WriteString(" " + hunkLine(i) + "\n")
		}
		d.WriteString("-" + hunkLine(at) + "\n+" + strings.Replace(hunkLine(at), "total", "sum", 1) + "\n")
		for i := at + 1; i <= at+3; i++ {
			d.WriteString(" " + hunkLine(i) + "\n")
		}
	}
	d.WriteString("*** End Patch\n")
	return f.String(), d.String()
}

// BenchmarkApplyPatchHunks: a 500-hunk apply-patch document, each hunk
// a one-line change with three lines of context either side, on a
// 50,000-line file (scripts/benchrun's case against Codex's own
// apply_patch).
func BenchmarkApplyPatchHunks(b *testing.B) {
	file, doc := applyPatchHunks(50000, 500, false)
	benchRun(b, newOneFile("calc.py", file), doc)
}

// BenchmarkApplyPatchScopedHunks: the same with a scope line on every
// hunk, the function its change stands in (scripts/benchrun's case
// 13's twin): placing a hunk below its scope costs finding the scope
// once, never a scan of the file per hunk.
func BenchmarkApplyPatchScopedHunks(b *testing.B) {
	file, doc := applyPatchHunks(50000, 500, true)
	benchRun(b, newOneFile("calc.py", file), doc)
}
