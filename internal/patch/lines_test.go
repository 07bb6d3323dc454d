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

// TestLastLine holds lastLine to a search up the lines one at a time,
// on lines long and short.
func TestLastLine(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var b bytes.Buffer
	for i := range 3000 {
		switch {
		case i%97 == 0:
			b.WriteString("func" + string(bytes.Repeat([]byte{'x'}, r.IntN(20000))) + "\n")
		case i%5 == 0:
			b.WriteString("\n")
		default:
			b.WriteString("\t" + string(bytes.Repeat([]byte{'y'}, r.IntN(200))) + "\n")
		}
	}
	for _, text := range [][]byte{b.Bytes(), append(b.Bytes(), "tail"...), []byte("a\n\tb\n"), []byte("a")} {
		want := splitLines(text)
		tl := newTextLines(text)
		for range 300 {
			i := r.IntN(len(want) + 1)
			j := i + r.IntN(len(want)-i+1)
			got, ok := tl.lastLine(tl.start(i), tl.start(j), defaultFuncName)
			var w []byte
			wok := false
			for l := j - 1; l >= i; l-- {
				if w, wok = defaultFuncName(want[l]); wok {
					break
				}
			}
			if ok != wok || !bytes.Equal(got, w) {
				t.Fatalf("lines [%d, %d): %q %v, want %q %v", i, j, got, ok, w, wok)
			}
		}
	}
}
