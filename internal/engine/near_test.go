package engine

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// stepsFile is a source file of n unique lines, as scripts/bench makes
// them: line i (1-based, after the first) is step i-1.
func stepsFile(n int) string {
	var b strings.Builder
	b.WriteString("package big\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "\tv%06d := compute(%d) // step %d\n", i, i*7%1000, i)
	}
	return b.String()
}

// nearMisses are SEARCH/REPLACE edits of k lines spread over a steps
// file of n lines, each with a wrong compute argument: none is found.
func nearMisses(n, k int) ([]translate.Operation, []int) {
	var ops []translate.Operation
	var want []int
	for j := 0; j < k; j++ {
		i := 1 + j*(n-2)/k
		old := fmt.Sprintf("\tv%06d := compute(%d) // step %d\n", i, (i*7+1)%1000, i)
		op := sr("big.go", old, strings.Replace(old, "step", "stage", 1))
		op.Format = "diff"
		ops = append(ops, op)
		want = append(want, i+1)
	}
	return ops, want
}

// resolveFile resolves ops one group each, as Resolve does, and returns
// the outcomes and the file's matcher, to look at the work it did.
func resolveFile(t *testing.T, src memSource, path string, ops []translate.Operation) ([]Outcome, *matcher) {
	t.Helper()
	r := newResolver(src, Options{Format: "diff"})
	outs := make([]Outcome, len(ops))
	for i := range ops {
		if err := r.group(ops[i:i+1], i+1, outs[i:i+1]); err != nil {
			t.Fatal(err)
		}
	}
	return outs, r.files[path].matcher()
}

// TestClosestSearchBoundedWork: every failing edit of a reply still
// gets its closest lines, but the file is read once for all of them,
// not once for each, and each one's search visits a bounded number of
// lines, however long the file.
func TestClosestSearchBoundedWork(t *testing.T) {
	const edits = 150
	for _, n := range []int{20000, 200000} {
		t.Run(fmt.Sprintf("lines=%d", n), func(t *testing.T) {
			ops, want := nearMisses(n, edits)
			outs, m := resolveFile(t, files("big.go", stepsFile(n)), "big.go", ops)
			for i, o := range outs {
				if o.Status != Failed {
					t.Fatalf("edit %d: %s", o.N, o.Status)
				}
				if c := o.Err.Closest; c == nil || c.Start != want[i] || c.Similarity < 0.9 {
					t.Fatalf("edit %d: closest %+v, want line %d", o.N, c, want[i])
				}
			}
			w := m.work
			// The word index, once; the views of the rungs above the
			// format's (whitespace, comments, typography), once each,
			// to tell whether --fuzz loose would take the edits, and
			// not at all in a file too long to build them for advice.
			views := 3
			if n > looserViewLines {
				views = 0
			}
			if w.indexed != n*(1+views) {
				t.Errorf("%d lines indexed, want the file's %d %d times", w.indexed, n, 1+views)
			}
			if w.visited > edits*nearEditWork {
				t.Errorf("%d postings visited, over %d a failing edit", w.visited, nearEditWork)
			}
			// One search a failing edit (already applied? loose? the
			// closest lines? ask the same), scoring its best 16
			// anchored windows and its best 16 voted ones.
			if w.scored > edits*2*16 {
				t.Errorf("%d windows scored for %d edits", w.scored, edits)
			}
			// Reading the whole file for each failing edit would be
			// n*edits lines: the work is bounded by the budget, and
			// well under that once the file is longer than it.
			total := w.indexed + w.visited + w.scored
			if total > n+edits*nearEditWork || n > 4*nearEditWork && total*10 > n*edits {
				t.Errorf("%d units of work for %d edits of a %d-line file", total, edits, n)
			}
		})
	}
}

// TestClosestSearchBudget: once a file's budget is spent, failing edits
// still fail (never succeed for want of a search) and say that their
// closest lines were not looked for.
func TestClosestSearchBudget(t *testing.T) {
	defer func(v int) { nearFileWork = v }(nearFileWork)
	nearFileWork = 1 << 16
	n := 20000
	src := files("big.go", strings.Repeat("a b\n", n))
	var ops []translate.Operation
	for i := 0; i < 40; i++ {
		op := sr("big.go", fmt.Sprintf("a c%d\n", i), "d\n")
		op.Format = "diff"
		ops = append(ops, op)
	}
	outs, m := resolveFile(t, src, "big.go", ops)
	if limit := nearFileWork + 8*n + nearEditWork; m.work.indexed+m.work.visited > limit {
		t.Errorf("work %d, over the budget %d", m.work.indexed+m.work.visited, limit)
	}
	last := outs[len(outs)-1]
	if last.Status != Failed || last.Err.Closest != nil || !strings.Contains(last.Err.Msg, "not all looked for") {
		t.Errorf("last edit: %s %+v", last.Status, last.Err)
	}
	if outs[0].Err.Closest == nil {
		t.Errorf("the first edit has no closest lines")
	}
}

// TestClosestFollowsEdits: the index built for one failing edit keeps
// up with the edits that follow, so a later failure's closest lines may
// be lines an earlier edit wrote, at their new line numbers.
func TestClosestFollowsEdits(t *testing.T) {
	n := 20000
	first := sr("big.go", "\tv000100 := compute(701) // step 100\n", "x\n") // fails: builds the index
	first.Format = "diff"
	insert := sr("big.go", "\tv000010 := compute(70) // step 10\n", "\tv000010 := compute(70) // step 10\n\tnew1 := fresh(1)\n\tnew2 := fresh(2)\n")
	insert.Format = "diff"
	later := sr("big.go", "\tnew2 := fresh(3)\n", "y\n")
	later.Format = "diff"
	moved := sr("big.go", "\tv000500 := compute(501) // step 500\n", "z\n")
	moved.Format = "diff"
	outs, _ := resolveFile(t, files("big.go", stepsFile(n)), "big.go", []translate.Operation{first, insert, later, moved})
	if outs[1].Status != Applied {
		t.Fatalf("the insertion: %s %v", outs[1].Status, outs[1].Err)
	}
	if c := outs[2].Err.Closest; c == nil || c.Start != 13 {
		t.Errorf("closest of a line the reply wrote: %+v, want line 13", c)
	}
	if c := outs[3].Err.Closest; c == nil || c.Start != 503 {
		t.Errorf("closest below the insertion: %+v, want line 503", c)
	}
}

// FuzzNearIndex edits a file through a matcher whose token index was
// built first: after every edit, the lines the index gives for each
// token of the file must be exactly the lines holding it, and a search
// must return windows inside the file.
func FuzzNearIndex(f *testing.F) {
	f.Add("a b\nc d\ne\n", "x y\n", uint8(1), uint8(2), "b c\n")
	f.Add("\tv000001 := compute(7) // step 1\n\tv000002 := compute(14) // step 2\n", "\tnew := 1\n", uint8(0), uint8(0), "compute(15) // step 2\n")
	f.Add("“quoted” — dash\n\u00a0nbsp\n\xff\n", "", uint8(3), uint8(1), "\"quoted\" - dash\n")
	f.Fuzz(func(t *testing.T, file, repl string, at, del uint8, pattern string) {
		// Long enough that candidates uses the index, not a scan.
		if !strings.HasSuffix(file, "\n") {
			file += "\n"
		}
		text := strings.Repeat(file, max(1, 1+smallScan/(len(file)*(1+len(pattern)))))
		d := newDoc([]byte(text))
		m := newMatcher(d, "")
		if _, ok := m.nearIndex(); !ok {
			t.Skip()
		}
		check := func() {
			brute := bruteBuckets(m.near, d)
			for b := range uint32(len(m.near.off) - 1) {
				var got []int
				m.near.where(d, b, func(c int) { got = append(got, c) })
				sort.Ints(got)
				if fmt.Sprint(got) != fmt.Sprint(brute[b]) && len(got)+len(brute[b]) > 0 {
					t.Fatalf("bucket %d: index %v, file %v", b, got, brute[b])
				}
			}
		}
		for k := 0; k < 3; k++ {
			from := int(at) * (k + 1) % (d.len() + 1)
			to := min(d.len(), from+int(del)%4)
			var add []string
			for _, l := range lines(repl) {
				add = append(add, l+"\n")
			}
			m.splice(from, to, add)
			check()
		}
		ws, _ := m.candidates(lines(pattern), 8)
		for _, w := range ws {
			if w.start < 0 || w.start+min(len(lines(pattern)), d.len()) > d.len() {
				t.Fatalf("window %+v outside %d lines", w, d.len())
			}
		}
	})
}

// bruteBuckets maps each token bucket of d's lines to the lines holding
// it, in order.
func bruteBuckets(x *nearIndex, d *doc) map[uint32][]int {
	out := map[uint32][]int{}
	for i := 0; i < d.len(); i++ {
		for _, b := range x.tokens(d.content(i), nil) {
			out[b] = append(out[b], i)
		}
	}
	return out
}
