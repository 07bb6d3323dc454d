package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// scopeEndScan is scopeEnd as it was before the index: a scan of the
// file from the top for each scope line, the oracle of the index.
func scopeEndScan(d *doc, scope []string) (int, bool) {
	at := 0
	for _, s := range scope {
		want := strings.TrimSpace(foldTypography(s))
		found := false
		d.each(at, func(i int, l string) bool {
			if strings.TrimSpace(foldTypography(trimEOL(l))) == want {
				at, found = i+1, true
				return false
			}
			return true
		})
		if !found {
			return 0, false
		}
	}
	return at, true
}

// scopeVariants are lines of a few keys, each written several ways: as
// is, with white space around it, and with typographic look-alikes
// that fold to it.
var scopeVariants = [][]string{
	{"def handler(request):", "    def handler(request):", "def handler(request):  ", "\tdef handler(request):\t"},
	{"class Store:", "class Store:   ", "  class Store:"},
	{`print("it's")`, "print(\u201cit\u2019s\u201d)", "  print(\u201cit's\")  ", "print(\"it\u2019s\")\t"},
	{"a - b", "a \u2013 b", "a\u00a0- b", "  a \u2014 b"},
	{"x = 1", "x = 1 ", "x = 1\r"},
	{"}"},
	{"", "   ", "\t", "\u00a0"},
}

func randomScopeLine(r *rand.Rand) string {
	if r.IntN(3) == 0 {
		return fmt.Sprintf("line %d", r.IntN(50)) // filler, a few of them repeated
	}
	v := scopeVariants[r.IntN(len(scopeVariants))]
	return v[r.IntN(len(v))]
}

// TestScopeEndIndexMatchesScan: on random files of repeated scope
// lines, written with and without white space around them and
// typographic look-alikes, and as edits change the file, scopeEnd
// through the index gives what a scan from the top gives, for scopes
// of one to three lines, whether the index holds every line or only
// those of the reply's lines (and those of other keys too).
func TestScopeEndIndexMatchesScan(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 1))
	for round := range 300 {
		n := r.IntN(60)
		var text strings.Builder
		for range n {
			text.WriteString(randomScopeLine(r) + "\n")
		}
		var scopes [][]string
		for range 6 {
			s := make([]string, 1+r.IntN(3))
			for i := range s {
				s[i] = randomScopeLine(r)
			}
			scopes = append(scopes, s)
		}
		d := newDoc([]byte(text.String()))
		m := newMatcher(d, "")
		switch round % 3 {
		case 1: // the index holds the lines of the reply's keys
			m.want = scopes
		case 2: // ... of only some of them: the others have it built whole
			m.want = scopes[:2]
		}
		for step := range 12 {
			if step > 0 && r.IntN(2) == 0 {
				from := r.IntN(d.len() + 1)
				to := min(d.len(), from+r.IntN(4))
				repl := make([]string, r.IntN(4))
				for i := range repl {
					repl[i] = randomScopeLine(r) + "\n"
				}
				m.splice(from, to, repl)
			}
			for _, s := range scopes {
				got, gotOK := m.scopeEnd(s)
				want, wantOK := scopeEndScan(d, s)
				if got != want || gotOK != wantOK {
					t.Fatalf("round %d step %d: scopeEnd(%q) = %d, %v; the scan says %d, %v\nfile:\n%s", round, step, s, got, gotOK, want, wantOK, strings.Join(d.slice(0, d.len()), ""))
				}
			}
		}
	}
}

// TestScopeEndOnePass: the file's lines are keyed for scopes once, not
// once per question, however many hunks ask.
func TestScopeEndOnePass(t *testing.T) {
	var text strings.Builder
	for i := range 2000 {
		if i%10 == 0 {
			fmt.Fprintf(&text, "def handler_%d(request):\n", i/10)
		} else {
			fmt.Fprintf(&text, "    total += %d\n", i)
		}
	}
	m := newMatcher(newDoc([]byte(text.String())), "")
	keyed := 0
	m.scopeView().key = func(s string) string { keyed++; return scopeKey(s) }
	for k := range 200 {
		at, ok := m.scopeEnd([]string{fmt.Sprintf("def handler_%d(request):", k)})
		if !ok || at != 10*k+1 {
			t.Fatalf("handler_%d: %d, %v; want %d", k, at, ok, 10*k+1)
		}
	}
	if keyed == 0 || keyed > 2*2000 {
		t.Fatalf("%d lines keyed for 200 scopes of a 2000-line file; want one pass", keyed)
	}
}

// TestIsASCII: a byte of 0x80 or more anywhere in strings of every
// length up to three steps of eight, against a test of each byte.
func TestIsASCII(t *testing.T) {
	each := func(s string) bool {
		for i := 0; i < len(s); i++ {
			if s[i] >= 0x80 {
				return false
			}
		}
		return true
	}
	for n := range 25 {
		plain := strings.Repeat("a~\x7f", n)[:n]
		if !isASCII(plain) {
			t.Errorf("isASCII(%q) = false", plain)
		}
		for i := range n {
			for _, c := range []byte{0x80, 0xe2, 0xff} {
				s := plain[:i] + string([]byte{c}) + plain[i+1:]
				if got, want := isASCII(s), each(s); got != want {
					t.Errorf("isASCII(%q) = %v, want %v", s, got, want)
				}
			}
		}
	}
	if got := foldTypography("x \u2014 \u201cy\u201d"); got != `x - "y"` {
		t.Errorf("foldTypography = %q", got)
	}
}
