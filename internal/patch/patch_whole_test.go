package patch

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

// The one-pass hunk of a file added or removed whole is the hunk the
// diff algorithm gives, byte for byte.
func TestWriteWholeIsTheDiff(t *testing.T) {
	texts := []string{"a\n", "a", "a\nb\n", "a\nb", "\n", "\n\n\n", "x\r\ny\r\n", "  \t\n\\ back\n+plus\n-minus\n", "one line without end"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var b strings.Builder
		for n := rng.IntN(40); n > 0; n-- {
			b.WriteString([]string{"a", "", " ", "}", "func f() {", "\tx := 1", "\r"}[rng.IntN(7)])
			b.WriteString([]string{"\n", "\n", "\r\n"}[rng.IntN(3)])
		}
		if rng.IntN(4) == 0 {
			b.WriteString("tail")
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		if text == "" {
			continue
		}
		for _, added := range []bool{true, false} {
			old, new := []byte(nil), []byte(text)
			sign := byte('+')
			if !added {
				old, new, sign = new, old, '-'
			}
			var got, want bytes.Buffer
			writeWhole(&got, []byte(text), sign)
			writeDiffHunks(&want, old, new, nil, nil, 3)
			if got.String() != want.String() {
				t.Fatalf("%q (added %v):\ngot\n%s\nwant\n%s", text, added, got.String(), want.String())
			}
		}
	}
}

// A section that adds or removes a file whole is checked line by line:
// any line changed, lost, added or left without its marker fails.
func TestVerifyWholeCatchesCorruption(t *testing.T) {
	add := FileChange{NewPath: "n.txt", New: []byte("one\ntwo\nthree")}
	del := FileChange{OldPath: "d.txt", Old: []byte("x\ny\n")}
	changes := []FileChange{del, add}
	patch, err := Format(changes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(patch, changes); err != nil {
		t.Fatalf("Verify(good patch) = %v", err)
	}
	for name, edit := range map[string][2]string{
		"line changed":    {"+two\n", "+TWO\n"},
		"line lost":       {"+two\n", ""},
		"line added":      {"+two\n", "+two\n+2\n"},
		"removed changed": {"-y\n", "-Y\n"},
		"marker lost":     {"+three\n\\ No newline at end of file\n", "+three\n"},
		"marker added":    {"-y\n", "-y\n\\ No newline at end of file\n"},
		"count":           {"@@ -0,0 +1,3 @@", "@@ -0,0 +1,4 @@"},
		"sign":            {"+one\n", " one\n"},
		"new mode":        {"new file mode 100644", "new file mode 100755"},
		"path":            {"+++ b/n.txt", "+++ b/m.txt"},
		"blob id":         {"index 0000000..", "index 0000000..0"},
		"no hunk":         {"@@ -1,2 +0,0 @@\n-x\n-y\n", ""},
	} {
		bad := strings.Replace(string(patch), edit[0], edit[1], 1)
		if bad == string(patch) {
			t.Fatalf("%s: %q is not in the patch:\n%s", name, edit[0], patch)
		}
		if err := Verify([]byte(bad), changes); !errors.Is(err, ErrMismatch) {
			t.Errorf("%s: Verify = %v, want ErrMismatch", name, err)
		}
	}
}

// sections cuts a patch at its file headers only: lines of a hunk,
// which start with their sign, never begin a section.
func TestSections(t *testing.T) {
	patch := "diff --git a/a b/a\n@@ -1 +1 @@\n-diff --git x\n+diff --git y\ndiff --git a/b b/b\nnew file mode 100644\n"
	pre, secs := sections([]byte(patch))
	if len(pre) != 0 || len(secs) != 2 || !strings.HasPrefix(string(secs[1]), "diff --git a/b b/b\n") ||
		string(secs[0])+string(secs[1]) != patch {
		t.Errorf("sections = %q, %q", pre, secs)
	}
	pre, secs = sections([]byte("hello\n" + patch))
	if string(pre) != "hello\n" || len(secs) != 2 {
		t.Errorf("with a preamble: %q, %d sections", pre, len(secs))
	}
	if pre, secs := sections(nil); len(pre)+len(secs) != 0 {
		t.Errorf("empty patch: %q, %q", pre, secs)
	}
}
