package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestGoldenUntouchedLines holds every golden case to the promise that
// an edit changes only the lines it names: whatever the bytes of a file
// (BOMs, invalid UTF-8, mixed or lone-CR line endings, no final
// newline), every line outside the lines an edit reports it replaced
// stands byte for byte, terminator included, in the result.
//
// The golden files alone cannot say this: they pin whatever the engine
// wrote, and a diff of old against new always shows unchanged lines as
// unchanged. So the reply is replayed one operation (or one group of
// operations placed together) at a time, and each step is checked
// against the line ranges its Outcomes report, which are in the
// coordinates of the file as that step found it.
func TestGoldenUntouchedLines(t *testing.T) {
	type goldenCase struct {
		name string
		load func(t *testing.T) (string, memSource, RunOptions)
	}
	var cases []goldenCase
	for _, name := range resolveCases() {
		cases = append(cases, goldenCase{"resolve/" + strings.TrimSuffix(filepath.Base(name), ".txtar"),
			func(t *testing.T) (string, memSource, RunOptions) {
				_, reply, src, opts := loadResolveCase(t, name)
				return reply, src, opts
			}})
	}
	for _, format := range goldenFormats {
		for _, file := range formatCases(format) {
			cases = append(cases, goldenCase{format + "/" + strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) (string, memSource, RunOptions) {
				return loadFormatCase(t, format, file)
			}})
		}
	}
	if len(cases) == 0 {
		t.Fatal("no golden cases")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			reply, src, opts := c.load(t)
			checkReplyUntouched(t, reply, src, opts)
		})
	}
}

// checkReplyUntouched resolves reply as the golden tests do, then
// replays it step by step and checks each step's untouched lines.
func checkReplyUntouched(t *testing.T, reply string, src memSource, opts RunOptions) {
	t.Helper()
	results, err := Run(context.Background(), []Input{{Source: "reply", Text: reply}}, src, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	parsed, err := translate.Parse(reply, translate.ParseOptions{Format: opts.Format, ShellOps: opts.ShellOps, Partial: opts.Partial})
	if err != nil {
		if len(results[0].Changes) > 0 {
			t.Fatalf("the reply does not parse (%v), yet Run changed files", err)
		}
		return
	}
	prev, violations, err := replayUntouched(src, parsed.Ops, Options{Format: parsed.Format, Fuzz: opts.Fuzz, Detected: opts.Format == "" || opts.Format == "auto"})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range violations {
		t.Error(v)
	}
	// The replay must end where Run did, or it checked something else.
	if r := results[0]; len(r.Changes) > 0 {
		if got, want := treeString(prev), treeString(withChanges(src, r.Changes)); got != want {
			t.Errorf("the step by step replay ends with\n%s\nbut Run gives\n%s", got, want)
		}
	}
}

// replayUntouched resolves ops against src one step at a time (an
// operation, or a group Resolve places together) and returns the files
// after the last step and, for each step, what it changed outside the
// lines its Outcomes report touching.
func replayUntouched(src memSource, ops []translate.Operation, opts Options) (memSource, []string, error) {
	var violations []string
	prev := src
	for i := 0; i < len(ops); {
		// Resolve places a group's members against the file as it
		// stood before the group, so a group is one step.
		j := i + 1
		for ops[i].Group != 0 && j < len(ops) && ops[j].Group == ops[i].Group {
			j++
		}
		res, err := Resolve(src, ops[:j], opts)
		if err != nil {
			return nil, nil, err
		}
		next := withChanges(src, res.Changes)
		for _, v := range untouchedViolations(prev, next, res.Outcomes[i:j]) {
			violations = append(violations, fmt.Sprintf("edits %d-%d: %s", i+1, j, v))
		}
		prev, i = next, j
	}
	return prev, violations, nil
}

// untouchedViolations checks one step, from the files prev to next,
// whose edits reported outs: every file next holds that existed before
// the step (under its own name, or under the name a rename moved it
// from) keeps the lines no applied edit reports touching.
func untouchedViolations(prev, next memSource, outs []Outcome) []string {
	from := map[string]string{} // a rename's target: its source
	// The lines kept at an edit's edges are found leading ones first,
	// or trailing ones first: where Old and New share lines at both
	// ends (Old " ", New "", " "), the engine's diff may keep either.
	// And they are found equal but for trailing white space, or equal:
	// where a line is both (Old " ", New "", " ", "0"), the engine
	// keeps the equal line rather than the edge.
	touched := [4]map[string][]lineRange{{}, {}, {}, {}}
	for _, o := range outs {
		if o.Status != Applied {
			continue // a failed or already-applied edit changes nothing
		}
		switch o.Op.Kind {
		case translate.Rename:
			from[o.Op.NewPath] = o.Path
		case translate.Edit, translate.Create, translate.Replace, translate.Insert, translate.Lazy:
			for k := range touched {
				trailFirst, exact := k%2 == 1, k >= 2
				touched[k][o.Path] = append(touched[k][o.Path], outcomeRange(o, prev[o.Path].data, trailFirst, exact))
			}
		}
	}
	var names []string
	for p := range next {
		names = append(names, p)
	}
	sort.Strings(names)
	var out []string
	for _, p := range names {
		origin := p
		if f, ok := from[p]; ok {
			origin = f
		}
		before, ok := prev[origin]
		if !ok {
			continue // created by this step: every line is new
		}
		var err error
		for _, t := range touched {
			ranges := t[origin]
			if origin != p {
				ranges = append(ranges, t[p]...)
			}
			if err = checkUntouched(before.data, next[p].data, ranges); err == nil {
				break
			}
		}
		if err != nil {
			out = append(out, fmt.Sprintf("%s: %v", p, err))
		}
	}
	for to := range from {
		if _, ok := next[to]; !ok {
			out = append(out, fmt.Sprintf("a rename to %s left no file there", to))
		}
	}
	return out
}

// outcomeRange is the lines an applied edit touched, 0-based, in data,
// the file as the edit found it: the lines it reports replacing, less
// its leading and trailing lines that stand unchanged in both Old and
// New (a diff's context), which keep the file's bytes too (SPEC section
// 5), counted from the start first or from the end first, and equal
// but for trailing white space or exactly equal. Those are told only
// where Old maps line for line onto the file; a rung that skips blank
// lines takes blank lines at the edges of its match into the replaced
// region but leaves them out of the report (see reported), so those
// count as touched.
func outcomeRange(o Outcome, data string, trailFirst, exact bool) lineRange {
	r := lineRange{o.Start - 1, max(o.End, o.Start-1)}
	lines := textLines(data)
	if n := len(lines); r.end == n+1 {
		// An earlier edit of the reply left an empty last line without
		// a newline, which the engine still counts and no byte shows.
		r.start, r.end = min(r.start, n), n
	}
	op := o.Op
	if op.Kind == translate.Edit && !o.Rung.skipsBlank() && op.Block == translate.NoBlock && r.end-r.start == len(op.Old) {
		// Kept as the engine keeps them: equal but for trailing white
		// space (see replacement).
		same := func(i, j int) bool {
			if exact {
				return op.Old[i] == op.New[j]
			}
			return trimTrailing(op.Old[i]) == trimTrailing(op.New[j])
		}
		lead, trail := 0, 0
		countLead := func() {
			for lead < len(op.Old)-trail && lead < len(op.New)-trail && same(lead, lead) {
				lead++
			}
		}
		countTrail := func() {
			for trail < len(op.Old)-lead && trail < len(op.New)-lead && same(len(op.Old)-1-trail, len(op.New)-1-trail) {
				trail++
			}
		}
		if trailFirst {
			countTrail()
			countLead()
		} else {
			countLead()
			countTrail()
		}
		r.start, r.end = r.start+lead, r.end-trail
	}
	if o.Rung.skipsBlank() {
		blank := func(i int) bool { return i >= 0 && i < len(lines) && strings.TrimSpace(lines[i]) == "" }
		for blank(r.start - 1) {
			r.start--
		}
		for blank(r.end) {
			r.end++
		}
	}
	return r
}

// lineRange is lines [start, end) of a file, 0-based; an empty one is
// the place an insertion went.
type lineRange struct{ start, end int }

// checkUntouched returns an error naming the first line of before
// outside touched that does not stand in after byte for byte (its
// terminator included) and in order. The runs of untouched lines
// between the touched ranges must appear in after in their order: the
// first at its top, the last at its end, the others anywhere between,
// with whatever the edits wrote in the gaps.
//
// A byte order mark the file starts with belongs to the file, not to
// its first line: it must stay at the top, whatever replaces that line
// or goes above it. And one exception follows from a file's missing
// final newline being kept (SPEC section 5): when before has none, its
// last line gains a terminator once lines are added after it, and the
// line that ends up last loses its own.
func checkUntouched(before, after string, touched []lineRange) error {
	if strings.HasPrefix(before, utf8BOM) {
		var ok bool
		if after, ok = strings.CutPrefix(after, utf8BOM); !ok {
			return fmt.Errorf("the file's byte order mark is gone")
		}
		before = before[len(utf8BOM):]
	}
	b, a := textLines(before), textLines(after)
	ranges := append([]lineRange(nil), touched...)
	sort.Slice(ranges, func(i, j int) bool { return ranges[i].start < ranges[j].start })
	type run struct{ from, to int }
	var runs []run
	pos := 0
	for _, r := range ranges {
		if r.start < 0 || r.end < r.start || r.end > len(b) {
			return fmt.Errorf("an edit reports lines %d-%d of a file of %d lines", r.start+1, r.end, len(b))
		}
		runs = append(runs, run{pos, max(pos, r.start)})
		pos = max(pos, r.end)
	}
	runs = append(runs, run{pos, len(b)})

	noFinal := before != "" && !strings.HasSuffix(before, "\n")
	if noFinal && (after == "" || strings.HasSuffix(after, "\n")) {
		// The line that ends up last may be empty, and an empty line
		// without a newline shows as no bytes at all.
		a = append(a, "")
	}
	same := func(bi, ai int) bool {
		x, y := b[bi], a[ai]
		if x == y {
			return true
		}
		if !noFinal {
			return false
		}
		// Byte for byte still: the line's own bytes, with a whole
		// terminator added or dropped.
		gained := bi == len(b)-1 && ai < len(a)-1 && (y == x+"\n" || y == x+"\r\n")
		lost := ai == len(a)-1 && bi < len(b)-1 && !strings.HasSuffix(y, "\n") && y == lineBody(x)
		return gained || lost
	}
	stands := func(r run, at int) bool {
		if at < 0 || at+r.to-r.from > len(a) {
			return false
		}
		for i := r.from; i < r.to; i++ {
			if !same(i, at+i-r.from) {
				return false
			}
		}
		return true
	}
	firstDiff := func(r run, at int) error {
		for i := r.from; i < r.to; i++ {
			if at+i-r.from < 0 || at+i-r.from >= len(a) || !same(i, at+i-r.from) {
				return fmt.Errorf("untouched line %d %q does not stand unchanged in the result", i+1, b[i])
			}
		}
		return nil
	}

	if len(runs) == 1 {
		// No edit touched the file: nothing may change.
		if err := firstDiff(runs[0], 0); err != nil {
			return err
		}
		if len(a) != len(b) {
			return fmt.Errorf("no edit touched the file, yet it went from %d lines to %d", len(b), len(a))
		}
		return nil
	}
	at := 0 // where in after the next run may start
	for k, r := range runs {
		place := at
		switch k {
		case 0:
			if !stands(r, 0) {
				return firstDiff(r, 0)
			}
		case len(runs) - 1:
			place = len(a) - (r.to - r.from)
			if place < at || !stands(r, place) {
				if err := firstDiff(r, place); err != nil {
					return err
				}
				return fmt.Errorf("untouched lines %d-%d stand at the end of the result, but overlap what comes before them", r.from+1, r.to)
			}
		default:
			for place <= len(a) && !stands(r, place) {
				place++
			}
			if place > len(a) {
				return fmt.Errorf("untouched lines %d-%d do not stand unchanged, in order, in the result", r.from+1, r.to)
			}
		}
		at = place + r.to - r.from
	}
	return nil
}

// textLines splits s after each "\n"; a last line without one is a
// line too. A "\r" is never a break: on its own it belongs to the line.
func textLines(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// lineBody is a line without its terminator, "\n" or "\r\n".
func lineBody(l string) string {
	if body, ok := strings.CutSuffix(l, "\n"); ok {
		return strings.TrimSuffix(body, "\r")
	}
	return l
}

// TestGoldenUntouchedCorrupted proves the replay catches what it is
// for, through the ranges real Outcomes report: the result of a golden
// case, corrupted on a line no edit touched (a context line included),
// must be reported, and the true result must not.
func TestGoldenUntouchedCorrupted(t *testing.T) {
	tests := []struct {
		name, dir, path string
		old, new        string // the first old in the result becomes new
	}{
		{"untouched LF became CRLF", "udiff/mixed-endings", "list.yaml", "a: 1\n", "a: 1\r\n"},
		{"context CRLF became LF", "udiff/mixed-endings", "list.yaml", "b: 2\r\n", "b: 2\n"},
		{"BOM dropped off a context line", "udiff/bom-context-crlf", "Program.cs", "\ufeffusing", "using"},
		{"invalid bytes of a kept line repaired", "diff/invalid-utf8", "notes.txt", "\xff\xfe stray", "\ufffd\ufffd stray"},
		{"lone CRs turned into breaks", "diff/lone-cr", "progress.log", "step 1\rstep 2\r", "step 1\nstep 2\n"},
		{"final newline added", "diff/no-final-newline-middle", "greet.py", "print(\"bye\", name)", "print(\"bye\", name)\n"},
		{"zero-width space dropped", "apply-patch/zero-width-mid-file-bom", "conf.py", "name\u200b", "name"},
		{"context indented with the reply's tab", "udiff/tabs-reply-spaces-file", "calc.py", "    s = 0", "\ts = 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply, src, opts := loadFormatCase(t, filepath.Dir(tt.dir), filepath.Join("..", "..", "testdata", tt.dir+".txtar"))
			parsed, err := translate.Parse(reply, translate.ParseOptions{Format: opts.Format})
			if err != nil {
				t.Fatal(err)
			}
			ops := parsed.Ops
			for _, op := range ops {
				if len(ops) > 1 && (op.Group == 0 || op.Group != ops[0].Group) {
					t.Fatal("the case must resolve in one step, so that its Outcomes describe the whole result")
				}
			}
			res, err := Resolve(src, ops, Options{Format: parsed.Format, Fuzz: opts.Fuzz})
			if err != nil {
				t.Fatal(err)
			}
			next := withChanges(src, res.Changes)
			if v := untouchedViolations(src, next, res.Outcomes); len(v) > 0 {
				t.Fatalf("the true result is reported: %v", v)
			}
			f := next[tt.path]
			corrupted := strings.Replace(f.data, tt.old, tt.new, 1)
			if corrupted == f.data {
				t.Fatalf("%q is not in the result", tt.old)
			}
			next[tt.path] = memFile{f.mode, corrupted}
			if v := untouchedViolations(src, next, res.Outcomes); len(v) == 0 {
				t.Errorf("the corrupted result is not reported:\n%q", corrupted)
			}
		})
	}
}

// TestCheckUntouched proves the checker can fail: each corruption an
// engine could commit silently, next to edits it must accept.
func TestCheckUntouched(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		touched       []lineRange
		wantErr       bool
	}{
		{"edit keeps its neighbours' endings", "a\r\nb\nc\r\n", "a\r\nB\r\nc\r\n", []lineRange{{1, 2}}, false},
		{"insertion at the top", "a\n", "x\na\n", []lineRange{{0, 0}}, false},
		{"two edits, lines added and removed", "a\nb\nc\nd\ne\n", "a\nB1\nB2\nc\ne\n", []lineRange{{1, 2}, {3, 4}}, false},
		{"append after a last line without newline", "a\nb", "a\nb\nc", []lineRange{{2, 2}}, false},
		{"delete the last line of a file without newline", "a\nb", "a", []lineRange{{1, 2}}, false},
		{"delete the last line after an empty one", "\n ", "", []lineRange{{1, 2}}, false},
		{"lines inserted above a first line with a BOM", "\ufeffa\n", "\ufeffx\na\n", []lineRange{{0, 0}}, false},
		{"first line with a BOM replaced", "\ufeffa\nb\n", "\ufeffA\nb\n", []lineRange{{0, 1}}, false},
		{"append after a last line ending in a lone CR", "a\nb\r", "a\nb\r\nc", []lineRange{{2, 2}}, false},
		{"no edit, no change", "\ufeffa\n\xff\r\n", "\ufeffa\n\xff\r\n", nil, false},

		{"untouched CRLF became LF", "a\r\nb\r\nc\r\n", "a\nB\r\nc\r\n", []lineRange{{1, 2}}, true},
		{"untouched LF became CRLF", "a\nb\nc\n", "a\nB\nc\r\n", []lineRange{{1, 2}}, true},
		{"BOM dropped from an untouched first line", "\ufeffa\nb\n", "a\nB\n", []lineRange{{1, 2}}, true},
		{"BOM dropped with the first line replaced", "\ufeffa\nb\n", "A\nb\n", []lineRange{{0, 1}}, true},
		{"BOM moved below lines inserted above", "\ufeffa\n", "x\n\ufeffa\n", []lineRange{{0, 0}}, true},
		{"untouched empty line lost", "\n \nx", "x", []lineRange{{1, 2}}, true},
		{"invalid byte replaced", "a\n\xff\nc\n", "A\n\ufffd\nc\n", []lineRange{{0, 1}}, true},
		{"lone CR turned into a break", "a\rb\nc\n", "a\nb\nC\n", []lineRange{{1, 2}}, true},
		{"zero-width space dropped", "x\u200by\nz\n", "xy\nZ\n", []lineRange{{1, 2}}, true},
		{"tab turned into spaces", "\tx\ny\n", "    x\nY\n", []lineRange{{1, 2}}, true},
		{"last line's CRLF split when it became last", "a\r\nb", "a\r", []lineRange{{1, 2}}, true},
		{"final newline dropped", "a\nb\n", "A\nb", []lineRange{{0, 1}}, true},
		{"final newline added", "a\nb", "A\nb\n", []lineRange{{0, 1}}, true},
		{"untouched line lost", "a\nb\nc\n", "A\n", []lineRange{{0, 1}}, true},
		{"untouched lines swapped", "a\nb\nc\nd\n", "a\nB\nd\nc\n", []lineRange{{1, 2}}, true},
		{"middle run missing", "a\nb\nc\nd\ne\n", "a\nB\nD\ne\n", []lineRange{{1, 2}, {3, 4}}, true},
		{"a file no edit touched changed", "a\nb\n", "a\nb\nc\n", nil, true},
		{"range outside the file", "a\n", "a\n", []lineRange{{1, 3}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkUntouched(tt.before, tt.after, tt.touched)
			if (err != nil) != tt.wantErr {
				t.Errorf("checkUntouched(%q, %q, %v) = %v, want error: %v", tt.before, tt.after, tt.touched, err, tt.wantErr)
			}
		})
	}
}
