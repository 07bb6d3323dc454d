package patch

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestTextLines reads lines in every order against splitLines.
func TestTextLines(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, text := range []string{"", "a", "a\n", "\n\n", "a\nb", "a\nb\n", "ab\n\ncd\ne"} {
		checkTextLines(t, r, []byte(text))
	}
	var big bytes.Buffer
	for i := range 40000 {
		big.WriteString(string(rune('a'+i%26)) + "\n")
		if i%7 == 0 {
			big.WriteString("\n")
		}
	}
	checkTextLines(t, r, big.Bytes())
	checkTextLines(t, r, append(big.Bytes(), "tail"...))
}

func checkTextLines(t *testing.T, r *rand.Rand, b []byte) {
	t.Helper()
	want := splitLines(b)
	tl := newTextLines(b)
	if tl.len() != len(want) {
		t.Fatalf("%d lines, want %d", tl.len(), len(want))
	}
	if tl.start(len(want)) != len(b) {
		t.Fatalf("end at %d, want %d", tl.start(len(want)), len(b))
	}
	for k := 0; k < min(3*len(want)+10, 1500) && len(want) > 0; k++ {
		i := r.IntN(len(want))
		if k%3 == 0 {
			i = min(len(want)-1, max(0, tl.line+r.IntN(5)-2))
		}
		if got := tl.get(i); !bytes.Equal(got, want[i]) {
			t.Fatalf("line %d of %d is %q, want %q", i, len(want), got, want[i])
		}
		j := i + r.IntN(len(want)-i+1)
		if got, w := tl.span(i, j), bytes.Join(want[i:j], nil); !bytes.Equal(got, w) {
			t.Fatalf("lines [%d, %d) differ", i, j)
		}
	}
}
