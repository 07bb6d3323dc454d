package patch

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// Verification applies each hunk to its own lines and compares the
// stretches between hunks as bytes: a patch that leaves out a hunk,
// or names the wrong lines for one, must still fail, wherever the
// difference lies (before the first hunk, between two, after the last,
// and past the blocks skipLines counts at once).
func TestVerifyRegionsCatchMissingHunks(t *testing.T) {
	old := ptNumbered("line ", 1, 20000)
	edited := ptEdit(ptEdit(ptEdit(old, 5, "five"), 9000, "nine thousand"), 19990, "almost the end")
	changes := ptMod("f.txt", old, edited)
	patch, err := Format(changes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(patch, changes); err != nil {
		t.Fatalf("Verify(good patch) = %v", err)
	}
	var hunks []string
	starts := regexp.MustCompile(`(?m)^@@ `).FindAllStringIndex(string(patch), -1)
	for i, s := range starts {
		end := len(patch)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		hunks = append(hunks, string(patch[s[0]:end]))
	}
	if len(hunks) != 3 {
		t.Fatalf("want 3 hunks, got %d:\n%s", len(hunks), patch)
	}
	for i, h := range hunks {
		bad := strings.Replace(string(patch), h, "", 1)
		if err := Verify([]byte(bad), changes); !errors.Is(err, ErrMismatch) {
			t.Errorf("without hunk %d: Verify = %v, want ErrMismatch", i+1, err)
		}
	}
	// The last hunk moved one line down: its lines no longer match.
	moved := strings.Replace(string(patch), "@@ -19987,7 +19987,7 @@", "@@ -19988,7 +19988,7 @@", 1)
	if moved == string(patch) {
		t.Fatalf("no hunk header to move in:\n%s", patch)
	}
	if err := Verify([]byte(moved), changes); !errors.Is(err, ErrMismatch) {
		t.Errorf("moved hunk: Verify = %v, want ErrMismatch", err)
	}
	// A hunk past the end of the file.
	past := strings.Replace(string(patch), "@@ -19987,7 +19987,7 @@", "@@ -29987,7 +29987,7 @@", 1)
	if err := Verify([]byte(past), changes); !errors.Is(err, ErrMismatch) {
		t.Errorf("hunk past the end: Verify = %v, want ErrMismatch", err)
	}
}

func TestSkipLines(t *testing.T) {
	long := strings.Repeat("x\n", 70000) + "tail"
	for _, tc := range []struct {
		b      string
		at     int
		n      int64
		want   int
		wantOK bool
	}{
		{"", 0, 0, 0, true},
		{"", 0, 1, 0, false},
		{"a\nb\n", 0, 1, 2, true},
		{"a\nb\n", 0, 2, 4, true},
		{"a\nb\n", 0, 3, 4, false},
		{"a\nb", 0, 2, 3, true},
		{"a\nb", 2, 1, 3, true},
		{"a\nb", 0, 3, 3, false},
		{long, 0, 70000, 140000, true},
		{long, 1, 70000, 140000, true},
		{long, 0, 70001, len(long), true},
		{long, 0, 70002, len(long), false},
		{long, 6, 65536, 6 + 2*65536, true},
	} {
		got, ok := skipLines([]byte(tc.b), tc.at, tc.n)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("skipLines(%.10q…, %d, %d) = %d, %v; want %d, %v", tc.b, tc.at, tc.n, got, ok, tc.want, tc.wantOK)
		}
	}
}

// TestSkipLinesAsSteps holds skipLines, whose far jumps count and
// halve blocks, to a step through one line at a time, on texts of
// short and long lines, with and without a final "\n", from line
// starts and from the middle of lines, near and far.
func TestSkipLinesAsSteps(t *testing.T) {
	step := func(b []byte, at int, n int64) (int, bool) {
		for ; n > 0 && at < len(b); n-- {
			if i := bytes.IndexByte(b[at:], '\n'); i < 0 {
				at = len(b)
			} else {
				at += i + 1
			}
		}
		return at, n == 0
	}
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 60 {
		var t0 strings.Builder
		lines := r.IntN(5000)
		for range lines {
			t0.WriteString(strings.Repeat("y", r.IntN([]int{3, 40, 900}[round%3])))
			t0.WriteByte('\n')
		}
		if round%2 == 1 {
			t0.WriteString("tail")
		}
		b := []byte(t0.String())
		for range 40 {
			at := 0
			if len(b) > 0 && r.IntN(2) == 0 {
				at = r.IntN(len(b) + 1)
			}
			n := int64(r.IntN(lines + 3))
			if r.IntN(3) == 0 {
				n = int64(r.IntN(300))
			}
			got, ok := skipLines(b, at, n)
			want, wantOK := step(b, at, n)
			if got != want || ok != wantOK {
				t.Fatalf("round %d: skipLines(%d bytes, %d, %d) = %d, %v; stepping gives %d, %v", round, len(b), at, n, got, ok, want, wantOK)
			}
		}
	}
}

// applyWhole is the verification applyRegions replaces: go-gitdiff
// applies the patch to the whole of old, and the result must be want.
func applyWhole(f *gitdiff.File, old, want []byte) error {
	zeroContextStarts(f)
	var out bytes.Buffer
	if err := gitdiff.Apply(&out, bytes.NewReader(old), f); err != nil {
		return err
	}
	if !bytes.Equal(out.Bytes(), want) {
		return errors.New("differs")
	}
	return nil
}

// The stretch-at-a-time verification accepts exactly the patches that
// applying go-gitdiff to the whole file accepts, for random changes and
// random damage to their hunks.
func TestApplyRegionsAsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 16))
	words := []string{"a\n", "b\n", "c\n", "\n", "d", "e\r\n"}
	text := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(words[rng.IntN(len(words)-2)])
		}
		if rng.IntN(3) == 0 {
			b.WriteString(words[4+rng.IntN(2)])
		}
		return b.String()
	}
	agree, refused := 0, 0
	for range 3000 {
		old := text(rng.IntN(30))
		lines := strings.SplitAfter(old, "\n")
		for range 1 + rng.IntN(3) {
			i := rng.IntN(len(lines))
			lines[i] = words[rng.IntN(len(words))]
		}
		new := strings.Join(lines, "")
		patch, err := Format(ptMod("f", old, new), Options{Context: rng.IntN(5) - 1})
		if err != nil {
			t.Fatal(err)
		}
		bad := []byte(patch)
		if rng.IntN(4) > 0 {
			bad = damage(rng, bad)
		}
		files, _, err := gitdiff.Parse(bytes.NewReader(bad))
		if err != nil || len(files) != 1 || files[0].IsBinary {
			continue
		}
		for _, want := range []string{new, old, new + "x"} {
			whole := *files[0]
			whole.TextFragments = cloneFragments(files[0].TextFragments)
			regions := *files[0]
			regions.TextFragments = cloneFragments(files[0].TextFragments)
			errWhole := applyWhole(&whole, []byte(old), []byte(want))
			errRegions := applyFile(&regions, []byte(old), []byte(want))
			if (errWhole == nil) != (errRegions == nil) {
				t.Fatalf("old %q want %q patch\n%s\nwhole: %v, regions: %v", old, want, bad, errWhole, errRegions)
			}
			// Hunks applied side by side give the same first error.
			parallelHunks = 2
			side := *files[0]
			side.TextFragments = cloneFragments(files[0].TextFragments)
			errSide := applyFile(&side, []byte(old), []byte(want))
			parallelHunks = 32
			if fmt.Sprint(errSide) != fmt.Sprint(errRegions) {
				t.Fatalf("old %q want %q patch\n%s\nhunk by hunk: %v, side by side: %v", old, want, bad, errRegions, errSide)
			}
			agree++
			if errWhole != nil {
				refused++
			}
		}
	}
	t.Logf("%d cases, %d refused", agree, refused)
	if refused == 0 || refused == agree {
		t.Fatalf("%d cases, %d refused: the damage says nothing", agree, refused)
	}
}

func cloneFragments(frags []*gitdiff.TextFragment) []*gitdiff.TextFragment {
	out := make([]*gitdiff.TextFragment, len(frags))
	for i, f := range frags {
		c := *f
		out[i] = &c
	}
	return out
}

// damage changes one thing in a patch: a hunk header's number, or a
// line of a hunk dropped, doubled or changed.
func damage(rng *rand.Rand, patch []byte) []byte {
	lines := strings.SplitAfter(string(patch), "\n")
	var hunk []int
	for i, l := range lines {
		if strings.HasPrefix(l, "@@ ") || i > 0 && len(hunk) > 0 && (strings.HasPrefix(l, " ") || strings.HasPrefix(l, "+") || strings.HasPrefix(l, "-")) && !strings.HasPrefix(l, "---") && !strings.HasPrefix(l, "+++") {
			hunk = append(hunk, i)
		}
	}
	if len(hunk) == 0 {
		return patch
	}
	i := hunk[rng.IntN(len(hunk))]
	l := lines[i]
	switch {
	case strings.HasPrefix(l, "@@ "):
		nums := regexp.MustCompile(`\d+`)
		k, n := rng.IntN(4), 0
		l = nums.ReplaceAllStringFunc(l, func(s string) string {
			n++
			if n-1 != k {
				return s
			}
			v, _ := strconv.Atoi(s)
			return strconv.Itoa(max(0, v+rng.IntN(5)-2))
		})
		lines[i] = l
	case rng.IntN(3) == 0:
		lines[i] = ""
	case rng.IntN(2) == 0:
		lines[i] = l + l
	default:
		lines[i] = l[:1] + "z" + l[1:]
	}
	return []byte(strings.Join(lines, ""))
}

// TestFormatHashesLongNewContentAhead: a long new content without its
// id is hashed while its hunks are written; the index line names it
// and Format keeps it in the change (Verify then trusts it), while a
// short one is left to be hashed where it is needed.
func TestFormatHashesLongNewContentAhead(t *testing.T) {
	old := ptNumbered("line ", 1, 40000)
	edited := ptEdit(old, 20000, "twenty thousand")
	short := "a\nb\n"
	changes := []FileChange{
		ptMod("long.txt", old, edited)[0],
		ptMod("short.txt", short, "a\nc\n")[0],
		{NewPath: "new.txt", New: []byte(edited)},
	}
	if len(edited) < hashAheadMin {
		t.Fatalf("the long file is only %d bytes", len(edited))
	}
	patch, err := Format(changes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := BlobID([]byte(edited))
	if changes[0].NewID != want || changes[2].NewID != want {
		t.Errorf("long new contents' ids %q, %q; want %s", changes[0].NewID, changes[2].NewID, want)
	}
	if changes[1].NewID != "" {
		t.Errorf("short new content's id kept: %q", changes[1].NewID)
	}
	if n := strings.Count(string(patch), ".."+want[:7]); n != 2 {
		t.Errorf("%d index lines name %s:\n%.600s", n, want[:7], patch)
	}
	if err := Verify(patch, changes); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// regionLines reads lines as go-gitdiff's own reader over an
// io.ReaderAt does: each with its "\n", the last without one when the
// source ends so, fewer than asked only at the end with io.EOF, and
// any line again after a later one.
func TestRegionLines(t *testing.T) {
	for _, tc := range []struct {
		src    string
		reads  [][2]int // offset, count
		want   []string // the lines of each read, joined by "|"
		errEOF []bool
	}{
		{"a\nb\nc\n", [][2]int{{0, 2}, {2, 1}, {3, 1}}, []string{"a\n|b\n", "c\n", ""}, []bool{false, false, true}},
		{"a\nb", [][2]int{{1, 1}, {0, 3}}, []string{"b", "a\n|b"}, []bool{false, true}},
		{"", [][2]int{{0, 1}, {0, 0}}, []string{"", ""}, []bool{true, false}},
		{"\n\n", [][2]int{{1, 4}, {5, 1}}, []string{"\n", ""}, []bool{true, true}},
		{"x\ny\n", [][2]int{{1, 1}, {0, 1}, {1, 1}}, []string{"y\n", "x\n", "y\n"}, []bool{false, false, false}},
	} {
		r := &regionLines{b: []byte(tc.src)}
		for k, rd := range tc.reads {
			lines := make([][]byte, rd[1])
			n, err := r.ReadLinesAt(lines, int64(rd[0]))
			got := bytes.Join(lines[:n], []byte("|"))
			if string(got) != tc.want[k] || errors.Is(err, io.EOF) != tc.errEOF[k] || (err != nil && !errors.Is(err, io.EOF)) {
				t.Errorf("%q: read %d (%v) = %q, %v; want %q, EOF %v", tc.src, k, rd, got, err, tc.want[k], tc.errEOF[k])
			}
		}
	}
	if _, err := (&regionLines{}).ReadLinesAt(make([][]byte, 1), -1); err == nil || errors.Is(err, io.EOF) {
		t.Errorf("a negative offset: %v, want an error", err)
	}
}

// A hunk whose new lines applying writes differ from the wanted bytes
// fails, whether they differ in a byte or in length.
func TestWantWriter(t *testing.T) {
	for _, tc := range []struct {
		want   string
		at     int
		writes []string
		differ bool
	}{
		{"abcdef", 1, []string{"bc", "d"}, false},
		{"abcdef", 1, []string{"bc", "x"}, true},
		{"abc", 2, []string{"cd"}, true},
		{"abc", 4, []string{""}, true},
		{"abc", 3, []string{""}, false},
	} {
		w := &wantWriter{want: []byte(tc.want), at: tc.at}
		for k, s := range tc.writes {
			if k%2 == 0 {
				w.WriteString(s)
			} else {
				w.Write([]byte(s))
			}
		}
		if w.differs != tc.differ {
			t.Errorf("%q at %d, writes %q: differs %v, want %v", tc.want, tc.at, tc.writes, w.differs, tc.differ)
		}
	}
}
