package engine

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

func TestChangedSpans(t *testing.T) {
	for _, tc := range []struct {
		name string
		log  []spliceRec
		want []patch.Span
	}{
		{"none", nil, nil},
		{"no-op splice", []spliceRec{{3, 0, 0}}, nil},
		{"replace one", []spliceRec{{4, 1, 1}}, []patch.Span{sp(4, 5, 4, 5)}},
		{"insert", []spliceRec{{2, 0, 3}}, []patch.Span{sp(2, 2, 2, 5)}},
		{"delete", []spliceRec{{2, 2, 0}}, []patch.Span{sp(2, 4, 2, 2)}},
		{"apart, top first", []spliceRec{{1, 1, 2}, {10, 1, 0}}, []patch.Span{sp(1, 2, 1, 3), sp(9, 10, 10, 10)}},
		{"apart, bottom first", []spliceRec{{9, 1, 0}, {1, 1, 2}}, []patch.Span{sp(1, 2, 1, 3), sp(9, 10, 10, 10)}},
		{"touching below", []spliceRec{{4, 1, 2}, {6, 1, 1}}, []patch.Span{sp(4, 6, 4, 7)}},
		{"touching above", []spliceRec{{4, 1, 2}, {3, 1, 1}}, []patch.Span{sp(3, 5, 3, 6)}},
		{"insert right after", []spliceRec{{4, 1, 1}, {5, 0, 1}}, []patch.Span{sp(4, 5, 4, 6)}},
		{"one line apart", []spliceRec{{4, 1, 1}, {6, 1, 1}}, []patch.Span{sp(4, 5, 4, 5), sp(6, 7, 6, 7)}},
		{"inside an earlier one", []spliceRec{{4, 2, 5}, {5, 2, 1}}, []patch.Span{sp(4, 6, 4, 8)}},
		{"over two", []spliceRec{{2, 1, 1}, {8, 1, 3}, {1, 12, 1}}, []patch.Span{sp(1, 11, 1, 2)}},
		{"deletion joins neighbours", []spliceRec{{2, 1, 1}, {5, 1, 1}, {3, 2, 0}}, []patch.Span{sp(2, 6, 2, 4)}},
		{"whole file", []spliceRec{{0, 7, 3}}, []patch.Span{sp(0, 7, 0, 3)}},
		{"shifts later spans", []spliceRec{{20, 1, 1}, {5, 0, 4}, {2, 3, 0}}, []patch.Span{sp(2, 5, 2, 6), sp(20, 21, 21, 22)}},
		{"added and taken out", []spliceRec{{3, 0, 2}, {3, 2, 0}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := changedSpans(tc.log); !slices.Equal(got, tc.want) {
				t.Errorf("changedSpans(%v) = %v, want %v", tc.log, got, tc.want)
			}
		})
	}
}

// TestChangedSpansRandom applies random splices to lines that know
// where they came from and checks the spans against them: outside the
// spans every line is the original one in its place, and inside each
// span something changed.
func TestChangedSpansRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 2000 {
		n := rng.IntN(40)
		lines := make([]int, n) // original line number, or -1 for an added line
		for i := range lines {
			lines[i] = i
		}
		var log []spliceRec
		for range rng.IntN(12) {
			at := rng.IntN(len(lines) + 1)
			removed := rng.IntN(min(4, len(lines)-at) + 1)
			added := rng.IntN(4)
			repl := slices.Repeat([]int{-1}, added)
			lines = slices.Concat(lines[:at:at], repl, lines[at+removed:])
			log = append(log, spliceRec{at, removed, added})
		}
		spans := changedSpans(log)
		ctx := fmt.Sprintf("iteration %d: log %v, spans %v", iter, log, spans)
		old, cur := 0, 0 // next line outside the spans, old and new
		for k, s := range spans {
			if s.OldStart-old != s.NewStart-cur || s.OldStart < old || (k > 0 && s.OldStart == old) {
				t.Fatalf("%s: span %d is not apart from the one before", ctx, k)
			}
			for ; cur < s.NewStart; old, cur = old+1, cur+1 {
				if lines[cur] != old {
					t.Fatalf("%s: line %d outside spans is %d, want old line %d", ctx, cur, lines[cur], old)
				}
			}
			changed := s.OldEnd-s.OldStart != s.NewEnd-s.NewStart
			for i := s.NewStart; i < s.NewEnd; i++ {
				changed = changed || lines[i] != s.OldStart+i-s.NewStart
			}
			if !changed {
				t.Fatalf("%s: span %d changes nothing", ctx, k)
			}
			old, cur = s.OldEnd, s.NewEnd
		}
		if n-old != len(lines)-cur {
			t.Fatalf("%s: after the spans %d old lines and %d new", ctx, n-old, len(lines)-cur)
		}
		for ; cur < len(lines); old, cur = old+1, cur+1 {
			if lines[cur] != old {
				t.Fatalf("%s: line %d after the spans is %d, want old line %d", ctx, cur, lines[cur], old)
			}
		}
	}
}

// TestChangedSpansDescending: a log of splices each above the one
// before (the resolver's bottom-first order) gives, read top first,
// the spans it gives in its own order; a log that is not so is read as
// it is.
func TestChangedSpansDescending(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for iter := range 3000 {
		var log []spliceRec
		bottom := 20 + rng.IntN(200)
		for range 1 + rng.IntN(15) {
			removed := rng.IntN(4)
			end := bottom - rng.IntN(3) // touching the splice below, or apart
			if end-removed < 0 {
				break
			}
			log = append(log, spliceRec{end - removed, removed, rng.IntN(4)})
			bottom = end - removed
		}
		if len(log) > 1 && !descending(log) {
			t.Fatalf("iteration %d: %v is not descending", iter, log)
		}
		if got, want := changedSpans(log), spansOf(log); !slices.Equal(got, want) {
			t.Fatalf("iteration %d: log %v: top first %v, in its order %v", iter, log, got, want)
		}
	}
	for _, log := range [][]spliceRec{{{5, 1, 1}, {5, 1, 1}}, {{2, 1, 1}, {8, 1, 1}}, {{4, 2, 0}, {3, 2, 1}}} {
		if descending(log) {
			t.Errorf("%v read as descending", log)
		}
	}
}

// codeLines returns n lines of made-up code, many of them repeated as
// in real code (braces, blank lines, returns), so that diffs have
// choices to make; dense ones repeat even more, in runs too.
func codeLines(rng *rand.Rand, n int, dense bool) []string {
	common := []string{"}", "", "\treturn nil", "\t}", "\tif err != nil {", "\t\treturn err", "// comment", "\tx++"}
	if dense {
		common = []string{"}", "", "", "\t}", "\treturn nil", "x"}
	}
	out := make([]string, n)
	for i := range out {
		switch r := rng.IntN(10); {
		case r < 5 || dense && r < 9:
			out[i] = common[rng.IntN(len(common))]
		case r < 6 || dense:
			out[i] = fmt.Sprintf("func f%d() error {", i)
		default:
			out[i] = fmt.Sprintf("\tv%d := %d", i, rng.IntN(50))
		}
	}
	for range n / 100 {
		at, period := rng.IntN(n-50), 1+rng.IntN(3)
		for i := at + period; i < at+rng.IntN(40); i++ {
			out[i] = out[i-period]
		}
	}
	return out
}

// randomEdits splices a doc of old the way the engine does, with
// replacements that often repeat lines found nearby, and returns the
// change with its hint as changes() builds it. Clustered edits fall
// within 30 lines of each other.
func randomEdits(rng *rand.Rand, old []byte, edits int, clustered bool) patch.FileChange {
	d := newDoc(old)
	common := []string{"}", "", "\treturn nil", "\t}", "\tx++"}
	band := rng.IntN(d.len() + 1)
	for range edits {
		n := d.len()
		at := rng.IntN(n + 1)
		switch r := rng.IntN(10); {
		case clustered:
			at = min(n, band+rng.IntN(30))
		case r == 0:
			at = rng.IntN(min(n, 3) + 1) // the file's ends, where windows are cut short
		case r == 1:
			at = max(0, n-rng.IntN(3))
		}
		removed := rng.IntN(min(5, n-at) + 1)
		repl := make([]string, rng.IntN(5))
		for i := range repl {
			switch r := rng.IntN(3); {
			case r == 0 && n > 0:
				repl[i] = d.line(min(n-1, max(0, at+rng.IntN(11)-5)))
			case r == 1:
				repl[i] = common[rng.IntN(len(common))]
			default:
				repl[i] = fmt.Sprintf("\tnew%d", rng.IntN(1000))
			}
		}
		d.splice(at, at+removed, repl)
	}
	return patch.FileChange{OldPath: "f.go", NewPath: "f.go", Old: old, New: d.bytes(), Regions: changedSpans(d.log)}
}

// TestRegionHunksMatchWholeFile sends random edits of files of a few
// thousand lines through both paths of writeHunks. When the edits fall
// in one window the patches must be the same. Edits far apart may
// differ: a whole-file diff runs Myers' algorithm over the range from
// the first edit to the last, with anchors (lines unique on both sides)
// when it is long, and a tie between equally short diffs of one edit
// may go otherwise there than in a diff of that edit alone (which is
// what a region gives). Such a patch must still apply and change no
// more lines than the whole-file one; the test reports how many differ.
func TestRegionHunksMatchWholeFile(t *testing.T) {
	defer func(n int) { patch.RegionMinLines = n }(patch.RegionMinLines)
	patch.RegionMinLines = 0
	rng := rand.New(rand.NewPCG(3, 4))
	const cases = 400
	differ, apart, hunks, hunksDiffer := 0, 0, 0, 0
	for iter := range cases {
		ls := codeLines(rng, 1000+rng.IntN(3000), iter/4%2 == 1)
		text := strings.Join(ls, "\n") + "\n"
		switch iter % 5 {
		case 3:
			text = strings.TrimSuffix(text, "\n")
		case 4:
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		var c patch.FileChange
		switch iter % 4 {
		case 0:
			c = randomEdits(rng, []byte(text), 1, false)
		case 1:
			c = randomEdits(rng, []byte(text), 1+rng.IntN(6), true)
		default:
			c = randomEdits(rng, []byte(text), 1+rng.IntN(40), false)
		}
		// A doc whose last line is empty and unterminated writes one line
		// fewer than it holds; the spans do not fit and the whole file is
		// diffed, as it must be.
		fits := len(textLines(string(c.New))) == newLineCount(c.Regions, len(textLines(text)))
		windows, ok := patch.RegionsFit(c)
		if ok != (fits && len(c.Regions) > 0) {
			t.Fatalf("case %d: region path ok=%v with spans %v", iter, ok, c.Regions)
		}
		oneWindow := windows <= 1
		if !oneWindow {
			apart++
		}
		opts := []patch.Options{{}, {Context: -1}, {Context: 1}, {Context: 10}}[iter%7%4]
		got, err := patch.Format([]patch.FileChange{c}, opts)
		if err != nil {
			t.Fatal(err)
		}
		whole := c
		whole.Regions = nil
		want, err := patch.Format([]patch.FileChange{whole}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !oneWindow {
			wantHunks := map[string]bool{}
			for _, h := range patchHunks(want) {
				wantHunks[h] = true
			}
			for _, h := range patchHunks(got) {
				hunks++
				if !wantHunks[h] {
					hunksDiffer++
				}
			}
		}
		if bytes.Equal(got, want) {
			continue
		}
		if oneWindow {
			t.Errorf("case %d: edits in one window, and the patches differ:\n%s", iter, firstDiff(want, got))
		}
		differ++
		// go-gitdiff takes a hunk "+0,0" for the deletion of the whole
		// file, while git's -U0 writes it for the deletion of its first
		// lines; patch.Verify cannot check such a patch.
		gitdiffMisreads := opts.Context < 0 && bytes.Contains(got, []byte(" +0,0 @@"))
		if err := patch.Verify(got, []patch.FileChange{c}); err != nil && !gitdiffMisreads {
			t.Fatalf("case %d: region patch does not apply: %v", iter, err)
		}
		if a, b := changedLines(got), changedLines(want); a > b {
			t.Errorf("case %d: region patch changes %d lines, whole-file patch %d:\n%s", iter, a, b, firstDiff(want, got))
		}
	}
	t.Logf("%d of %d patches with edits in several windows differ from the whole-file patch, in %d of %d hunks", differ, apart, hunksDiffer, hunks)
}

// patchHunks cuts a patch into its hunks, each with its header.
func patchHunks(diff []byte) []string {
	var out []string
	for _, l := range strings.SplitAfter(string(diff), "\n") {
		if strings.HasPrefix(l, "@@ ") {
			out = append(out, "")
		}
		if len(out) > 0 {
			out[len(out)-1] += l
		}
	}
	return out
}

// newLineCount is the length of the new file that spans of an old one
// of oldN lines describe.
func newLineCount(spans []patch.Span, oldN int) int {
	for _, s := range spans {
		oldN += s.NewEnd - s.NewStart - (s.OldEnd - s.OldStart)
	}
	return oldN
}

// changedLines counts the lines a patch adds and deletes.
func changedLines(diff []byte) int {
	n := 0
	for _, l := range strings.Split(string(diff), "\n") {
		if (strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "+++ ") && !strings.HasPrefix(l, "--- ") {
			n++
		}
	}
	return n
}

// firstDiff shows the first lines where two patches part.
func firstDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < len(w) && i < len(g); i++ {
		if w[i] != g[i] {
			lo := max(0, i-8)
			return fmt.Sprintf("whole:\n%s\nregion:\n%s", strings.Join(w[lo:min(len(w), i+40)], "\n"), strings.Join(g[lo:min(len(g), i+40)], "\n"))
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(w), len(g))
}

// largeFile is n lines of Go-like code: ten-line functions with unique
// names, and the repeated lines real code has.
func largeFile(n int) string {
	var b strings.Builder
	for i := 0; i*10 < n; i++ {
		fmt.Fprintf(&b, "func f%d(x int) int {\n\tif x > %d {\n\t\treturn x\n\t}\n\ty := x * %d\n\treturn y\n}\n\n// f%d ends here.\n\n", i, i, i, i)
	}
	return b.String()
}

// largeEdits changes one line in each of edits functions spread over a
// largeFile of n lines.
func largeEdits(n, edits int) []translate.Operation {
	ops := make([]translate.Operation, edits)
	for k := range ops {
		i := k * (n / 10) / edits
		ops[k] = translate.Operation{Kind: translate.Edit, Path: "big.go",
			LineEdit: translate.LineEdit{Old: []string{fmt.Sprintf("\ty := x * %d", i)}, New: []string{fmt.Sprintf("\ty := x * %d + 1", i)}}}
	}
	return ops
}

// TestFormatPatchLargeFile goes from a reply to a verified patch for a
// file of half a million lines, through the region path, which must
// give the whole-file patch.
func TestFormatPatchLargeFile(t *testing.T) {
	const n, edits = 500000, 500
	src := memSource{"big.go": {patch.ModeRegular, largeFile(n)}}
	res, err := Resolve(src, largeEdits(n, edits), Options{Format: "diff"})
	if err != nil || res.Failed() > 0 {
		t.Fatalf("Resolve: %v, %d failed", err, res.Failed())
	}
	if len(res.Changes) != 1 || len(res.Changes[0].Regions) != edits {
		t.Fatalf("want one change with %d regions, got %d changes", edits, len(res.Changes))
	}
	c := res.Changes[0]
	if _, ok := patch.RegionsFit(c); !ok {
		t.Fatalf("the region path refused the regions of Resolve")
	}
	diff, err := patch.Format(res.Changes, patch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := patch.Verify(diff, res.Changes); err != nil {
		t.Fatal(err)
	}
	if got := bytes.Count(diff, []byte("\n@@ ")); got != edits {
		t.Errorf("%d hunks, want %d", got, edits)
	}
	whole := c
	whole.Regions = nil
	if want, _ := patch.Format([]patch.FileChange{whole}, patch.Options{}); !bytes.Equal(diff, want) {
		t.Errorf("the patch is not the whole-file one:\n%s", firstDiff(want, diff))
	}
}

// TestChangesRecreatedFile: a file deleted and created again by the
// reply has a doc of its own, whose splices are no hint, and whose
// content must not be lost.
func TestChangesRecreatedFile(t *testing.T) {
	src := files("a.txt", "one\ntwo\n")
	ops := []translate.Operation{
		{Kind: translate.Delete, Path: "a.txt"},
		{Kind: translate.Create, Path: "a.txt", LineEdit: translate.LineEdit{New: []string{"three"}}},
		{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"three"}, New: []string{"four"}}},
	}
	res, err := Resolve(src, ops, Options{Format: "diff"})
	if err != nil || res.Failed() > 0 {
		t.Fatalf("Resolve: %v, %d failed", err, res.Failed())
	}
	if len(res.Changes) != 1 || string(res.Changes[0].New) != "four\n" || res.Changes[0].Regions != nil {
		t.Fatalf("changes = %+v, want a.txt becoming \"four\\n\" without regions", res.Changes)
	}
}

// BenchmarkFormatPatchLarge: one-line edits spread over a long file,
// diffed around the edits (region) or whole, as patch.Format did before
// the engine passed its regions on. The time per edit of the region
// path should not grow with the file.
func BenchmarkFormatPatchLarge(b *testing.B) {
	for _, n := range []int{50000, 500000} {
		src := memSource{"big.go": {patch.ModeRegular, largeFile(n)}}
		for _, edits := range []int{1, 500} {
			res, err := Resolve(src, largeEdits(n, edits), Options{Format: "diff"})
			if err != nil || res.Failed() > 0 {
				b.Fatalf("Resolve: %v, %d failed", err, res.Failed())
			}
			whole := slices.Clone(res.Changes)
			whole[0].Regions = nil
			for _, path := range []struct {
				name    string
				changes []patch.FileChange
			}{{"region", res.Changes}, {"whole", whole}} {
				b.Run(fmt.Sprintf("%s/lines=%d/edits=%d", path.name, n, edits), func(b *testing.B) {
					for b.Loop() {
						if _, err := patch.Format(path.changes, patch.Options{}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// sp is the span of old lines [oldStart, oldEnd) and new lines
// [newStart, newEnd).
func sp(oldStart, oldEnd, newStart, newEnd int) patch.Span {
	return patch.Span{OldStart: oldStart, OldEnd: oldEnd, NewStart: newStart, NewEnd: newEnd}
}

// TestOverwriteRegions: whole new content for a long file, as many
// lines as it has, is spliced in around the lines that change, so the
// patch is written around them (and is the whole-file one); content of
// another length replaces the file whole, without regions.
func TestOverwriteRegions(t *testing.T) {
	const n = 20000
	old := largeFile(n)
	lines := strings.SplitAfter(old, "\n")
	lines = lines[:len(lines)-1]
	changed := []int{7, 8, 4000, 19990}
	for _, i := range changed {
		lines[i] = "\t// changed\n"
	}
	overwrite := func(content string) patch.FileChange {
		t.Helper()
		src := memSource{"big.go": {patch.ModeRegular, old}}
		op := translate.Operation{Kind: translate.Create, Path: "big.go", FileCreate: translate.FileCreate{Overwrite: true, Content: content}}
		res, err := Resolve(src, []translate.Operation{op}, Options{Format: "whole"})
		if err != nil || res.Failed() > 0 || len(res.Changes) != 1 {
			t.Fatalf("Resolve: %v, %d failed, %d changes", err, res.Failed(), len(res.Changes))
		}
		c := res.Changes[0]
		if string(c.New) != content {
			t.Fatalf("the new content is not the reply's")
		}
		return c
	}
	c := overwrite(strings.Join(lines, ""))
	want := []patch.Span{sp(7, 9, 7, 9), sp(4000, 4001, 4000, 4001), sp(19990, 19991, 19990, 19991)}
	if !slices.Equal(c.Regions, want) {
		t.Fatalf("regions %v, want %v", c.Regions, want)
	}
	diff, err := patch.Format([]patch.FileChange{c}, patch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	whole := c
	whole.Regions = nil
	if want, _ := patch.Format([]patch.FileChange{whole}, patch.Options{}); !bytes.Equal(diff, want) {
		t.Errorf("the patch is not the whole-file one:\n%s", firstDiff(want, diff))
	}
	if err := patch.Verify(diff, []patch.FileChange{c}); err != nil {
		t.Fatal(err)
	}
	longer := overwrite(strings.Join(lines, "") + "// one more\n")
	if len(longer.Regions) != 1 || longer.Regions[0] != sp(0, n, 0, n+1) {
		t.Errorf("content one line longer: regions %v, want the whole file", longer.Regions)
	}
}

// TestOverwriteEndings: a whole new content, its lines read without
// their endings, leaves the lines of the file that end with its line
// ending alone and rewrites those that end otherwise (a line of
// another ending, the last line without one).
func TestOverwriteEndings(t *testing.T) {
	for _, tc := range []struct {
		name, old string
		want      []patch.Span
		new       string
	}{
		{"LF", "a\nb\nc\nd\n", []patch.Span{sp(2, 3, 2, 3)}, "a\nb\nX\nd\n"},
		{"CRLF", "a\r\nb\r\nc\r\nd\r\n", []patch.Span{sp(2, 3, 2, 3)}, "a\r\nb\r\nX\r\nd\r\n"},
		{"a LF line in a CRLF file", "a\r\nb\nc\r\nd\r\n", []patch.Span{sp(1, 3, 1, 3)}, "a\r\nb\r\nX\r\nd\r\n"},
		{"CR before LF in an LF file", "a\nb\r\nc\nd\n", []patch.Span{sp(1, 3, 1, 3)}, "a\nb\nX\nd\n"},
		{"no final newline", "a\nb\nc\nd", []patch.Span{sp(2, 4, 2, 4)}, "a\nb\nX\nd\n"},
		{"one line longer than the new", "a\nbb\nc\nd\n", []patch.Span{sp(1, 3, 1, 3)}, "a\nb\nX\nd\n"},
		{"a line the new one and a byte, LF", "a\nb\nc\ndx", []patch.Span{sp(2, 4, 2, 4)}, "a\nb\nX\nd\n"},
		{"a line the new one and two bytes, CRLF", "a\r\nbc\nc\r\nd\r\n", []patch.Span{sp(1, 3, 1, 3)}, "a\r\nb\r\nX\r\nd\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := memSource{"a.txt": {patch.ModeRegular, tc.old}}
			op := translate.Operation{Kind: translate.Create, Path: "a.txt", FileCreate: translate.FileCreate{Overwrite: true},
				LineEdit: translate.LineEdit{New: []string{"a", "b", "X", "d"}}}
			res, err := Resolve(src, []translate.Operation{op}, Options{Format: "whole"})
			if err != nil || res.Failed() > 0 || len(res.Changes) != 1 {
				t.Fatalf("Resolve: %v, %d failed, %d changes", err, res.Failed(), len(res.Changes))
			}
			c := res.Changes[0]
			if string(c.New) != tc.new || !slices.Equal(c.Regions, tc.want) {
				t.Errorf("new %q, regions %v; want %q, %v", c.New, c.Regions, tc.new, tc.want)
			}
		})
	}
}
