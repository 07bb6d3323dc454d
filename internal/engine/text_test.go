package engine

import (
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// plainBytes is doc.bytes of lines as a plain list: every line but the
// last gets a terminator, the last one the final-newline state.
func plainBytes(bom string, lines []string, eol string, final bool) string {
	var b strings.Builder
	b.WriteString(bom)
	for i, l := range lines {
		body := trimEOL(l)
		term := l[len(body):]
		switch {
		case i == len(lines)-1 && !final:
			term = ""
		case term == "":
			term = eol
		}
		b.WriteString(body + term)
	}
	return b.String()
}

// TestDocPiecesFollowSplices checks the piece table against a plain
// list of lines after every one of many random splices, in random
// places (the gap moving both ways): the lines, the bytes written back,
// and where each line of the text stands (doc.where).
func TestDocPiecesFollowSplices(t *testing.T) {
	for _, text := range []string{"", "a\n", "a", "a\r\nb\r\nc", "\ufeffx\ny\n\nz", "l0\nl1\r\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\n"} {
		rng := rand.New(rand.NewSource(int64(len(text))))
		d := newDoc([]byte(text))
		plain := d.slice(0, d.len())
		ids := make([]int, len(plain)) // the text line each plain line is, -1 for an added one
		for i := range ids {
			ids[i] = i
		}
		textLines := len(plain)
		for step := range 300 {
			from := rng.Intn(len(plain) + 1)
			to := min(len(plain), from+rng.Intn(3))
			repl := make([]string, rng.Intn(3))
			for i := range repl {
				repl[i] = []string{"n\n", "m\r\n", "o", "\n"}[rng.Intn(4)]
			}
			if from+len(repl) < len(plain) || to < len(plain) {
				for i, l := range repl {
					if trimEOL(l) == l {
						repl[i] = l + "\n" // only a last line goes without a terminator
					}
				}
			}
			d.splice(from, to, repl)
			plain = slices.Concat(plain[:from], repl, plain[to:])
			ids = slices.Concat(ids[:from], slices.Repeat([]int{-1}, len(repl)), ids[to:])
			if got := d.slice(0, d.len()); !slices.Equal(got, plain) {
				t.Fatalf("%q step %d: lines %q, want %q", text, step, got, plain)
			}
			if got, want := string(d.bytes()), plainBytes(d.bom, plain, d.eol, d.final); got != want {
				t.Fatalf("%q step %d: bytes %q, want %q", text, step, got, want)
			}
			for id := range textLines {
				want := slices.Index(ids, id)
				got, ok := d.where(id)
				if ok != (want >= 0) || ok && got != want {
					t.Fatalf("%q step %d: where(%d) = %d, %v; want %d", text, step, id, got, ok, want)
				}
			}
		}
	}
}

// TestDocBytesSideBySide: TestDocPiecesFollowSplices with every
// content copied in two halves side by side.
func TestDocBytesSideBySide(t *testing.T) {
	defer func(n int) { parallelCopy = n }(parallelCopy)
	parallelCopy = 1
	TestDocPiecesFollowSplices(t)
}

// TestDocLinesAsRead: a doc's lines keep their terminators, CR and all.
func TestDocLinesAsRead(t *testing.T) {
	for text, want := range map[string][]string{
		"":            {},
		"a":           {"a"},
		"a\n":         {"a\n"},
		"a\r\nb\rc\n": {"a\r\n", "b\rc\n"},
		"\n\nx":       {"\n", "\n", "x"},
	} {
		d := newDoc([]byte(text))
		if got := d.slice(0, d.len()); !slices.Equal(got, want) {
			t.Errorf("newDoc(%q) lines %q, want %q", text, got, want)
		}
		if got := string(d.bytes()); got != text {
			t.Errorf("newDoc(%q).bytes() = %q", text, got)
		}
		w := newDocWhole(text, strings.Count(text, "\n"))
		if strings.HasSuffix(text, "\n") || text == "" {
			if got := w.slice(0, w.len()); !slices.Equal(got, want) {
				t.Errorf("newDocWhole(%q) lines %q, want %q", text, got, want)
			}
		}
	}
}

// plainUnit is guessUnit as first written, with strings functions only.
func plainUnit(lines []string) string {
	tabs, spaces := 0, 0
	steps := map[int]int{}
	prev := 0
	for _, l := range lines {
		c := trimEOL(l)
		if strings.TrimSpace(c) == "" {
			continue
		}
		ws := c[:len(c)-len(strings.TrimLeft(c, " \t"))]
		switch {
		case strings.HasPrefix(ws, "\t"):
			tabs++
		case ws != "":
			spaces++
		}
		n := len(strings.TrimLeft(ws, "\t"))
		if !strings.HasPrefix(ws, "\t") && n > prev {
			steps[n-prev]++
		}
		prev = n
	}
	if tabs > spaces {
		return "\t"
	}
	best, bestN := 4, 0
	for step, n := range steps {
		if n > bestN || (n == bestN && step < best) {
			best, bestN = step, n
		}
	}
	return strings.Repeat(" ", best)
}

func TestGuessUnitAsPlain(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	parts := []string{" ", "  ", "\t", "x", "\u00a0", "\u2003", "\v", "\x01", "\r", "\x7f", "é"}
	for range 2000 {
		var lines []string
		for range rng.Intn(12) {
			var b strings.Builder
			for range rng.Intn(6) {
				b.WriteString(parts[rng.Intn(len(parts))])
			}
			lines = append(lines, b.String()+"\n")
		}
		d := newDoc([]byte(strings.Join(lines, "")))
		if got, want := d.guessUnit(), plainUnit(d.slice(0, d.len())); got != want {
			t.Fatalf("guessUnit(%q) = %q, want %q", lines, got, want)
		}
	}
}

// TestLinesOf: the lines whose content is k, found from where lines
// start and end, on texts whose lines share k's start (where a search
// of the text slows down), with each terminator, a last line without
// one, a "\r" that is content and one that ends a line.
func TestLinesOf(t *testing.T) {
	for _, tc := range []struct {
		text, k string
		want    []int
	}{
		{"entry 1\nentry 10\nentry 1\nentry 1x\n", "entry 1", []int{0, 2}},
		{"a\r\nab\r\na\n", "a", []int{0, 2}},
		{"a\r\na\r", "a\r", []int{1}},
		{"a\r\na\r\n", "a\r", nil},
		{"x\na", "a", []int{1}},
		{"x\nab", "a", nil},
		{"\ufeffa\na\n", "a", []int{0, 1}},
		{"aa\na\naaa\n", "aa", []int{0}},
		{"", "a", nil},
	} {
		got, ok := newDoc([]byte(tc.text)).linesOf(tc.k)
		if !ok || !slices.Equal(got, tc.want) {
			t.Errorf("linesOf(%q) in %q = %v, %v; want %v", tc.k, tc.text, got, ok, tc.want)
		}
	}
	d := newDoc([]byte("a\nb\n"))
	d.splice(0, 1, []string{"b\n"})
	if _, ok := d.linesOf("b"); ok {
		t.Errorf("an edited doc's lines are not all in its text: linesOf must decline")
	}
}

// TestCheckLinesLongest: the longest line, terminator and all, decides
// at once for a doc fresh from its text; the line that is too long is
// still named.
func TestCheckLinesLongest(t *testing.T) {
	l := Limits{LineLength: 4}
	for _, tc := range []struct {
		text string
		bad  bool
	}{
		{"abcd\n", false},
		{"abcd\r\n", false},
		{"abcd", false},
		{"ab\nabcde\n", true},
		{"ab\nabcde", true},
		{"abcde\r\nab", true},
	} {
		d := newDoc([]byte(tc.text))
		if why := l.checkLines("f", d); (why != "") != tc.bad || tc.bad && !strings.Contains(why, "line ") {
			t.Errorf("%q: checkLines = %q, want a refusal %v", tc.text, why, tc.bad)
		}
	}
}

// TestTrimTrailing: the trailing rung's key cuts exactly what
// strings.TrimRight with its set cuts.
func TestTrimTrailing(t *testing.T) {
	for _, s := range []string{"", " ", "a", "a \t\f\v", " a b  ", "\t", "a\r", "a \r", "é\u00a0", "x\v\v"} {
		if got, want := trimTrailing(s), strings.TrimRight(s, " \t\f\v"); got != want {
			t.Errorf("trimTrailing(%q) = %q, want %q", s, got, want)
		}
	}
}
