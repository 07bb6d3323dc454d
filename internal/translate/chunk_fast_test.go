package translate

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// checkChunkFast fails t when loadChunkFast reads a document's lines
// into a tree other than yaml.Load's, or reads one yaml refuses. It
// reports whether the fast path read it.
func checkChunkFast(t *testing.T, lines []string) bool {
	t.Helper()
	fast, ok := loadChunkFast(lines)
	if !ok {
		return false
	}
	var root yaml.Node
	if err := yaml.Load([]byte(joinLines(lines)), &root); err != nil {
		t.Fatalf("the fast path read what yaml refuses (%v):\n%s", err, joinLines(lines))
	}
	if d := diffYAMLNodes(fast, &root, "doc"); d != "" {
		t.Fatalf("the fast path reads it otherwise: %s\n%s", d, joinLines(lines))
	}
	return true
}

// diffYAMLNodes names the first difference between two trees in what
// the CHUNK reader looks at; "" when there is none.
func diffYAMLNodes(a, b *yaml.Node, at string) string {
	if a.Kind != b.Kind || a.Tag != b.Tag || a.Value != b.Value || a.Line != b.Line || a.Anchor != b.Anchor || a.Style != b.Style || len(a.Content) != len(b.Content) {
		return fmt.Sprintf("at %s: fast {kind %v tag %q value %q line %d style %v, %d children}, yaml {kind %v tag %q value %q line %d style %v, %d children}",
			at, a.Kind, a.Tag, a.Value, a.Line, a.Style, len(a.Content), b.Kind, b.Tag, b.Value, b.Line, b.Style, len(b.Content))
	}
	for i := range a.Content {
		if d := diffYAMLNodes(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", at, i)); d != "" {
			return d
		}
	}
	return ""
}

// TestChunkFastShapes: the shapes CHUNK replies take read alike on
// the fast path and through yaml, and the ones it leaves to yaml are
// left.
func TestChunkFastShapes(t *testing.T) {
	read := []string{
		"description: Rename some totals\nlanguage: python\noperations:\n  - path: calc.py\n    op: replace_text\n    marker: |-\n          total += 1\n          x = 2\n    payload: |\n      a\n\n        b\n\n\n",
		"operations:\n- path: a.go\n  op: delete_file\n- path: b.go\n  op: append_text\n  payload: |-\n    x\n  options:\n    indent: none\n",
		"# a comment\noperations:\n  # another\n  - path: a\n    op: replace_text\n    marker: |-\n      # not a comment\n      y\n  # a comment after\n    payload: |-\n      z\n",
		"operations:\n  -   path: a\n      op: create_file\n      payload: |-\n       x\n\n       y\nlanguage: go\n",
		"description: |-\n text\n\n  more\n\noperations:\n  - path: a\n    op: delete_file\n",
	}
	left := []string{
		"operations:\n  - path: a\n    op: delete_file\n    op: delete_file\n", // duplicate key
		"operations:\n  - path: &x a\n    op: *x\n",                            // anchor
		"description: a: b\noperations:\n",                                     // a colon in a value
		"description: Some\n  words\noperations:\n  - path: a\n",               // folded plain scalar
		"description: yes\noperations:\n  - path: a\n    op: delete_file\n",    // a boolean
		"operations:\n  - path: a\n    marker: |-\n\n      x\n",                // a leading blank line
		"operations:\n  - path: a\n    marker: |-\n      x\n        \n",        // spaces past the indentation
		"operations:\n\t- path: a\n",                                           // a tab
		"operations:\n  - path: a # c\n    op: delete_file\n",                  // a comment after a value
		"operations: [\n", // flow
		"---\noperations:\n  - path: a\n    op: delete_file\n",   // a document marker
		"operations:\n  - path: \"a\"\n    op: delete_file\n",    // quotes
		"operations:\n  - path: a\n    payload: |+\n      x\n\n", // keep
		"operations:\n  - path: a\n    payload: x\u2028y\n",      // a YAML 1.1 line break
	}
	for _, doc := range read {
		if !checkChunkFast(t, splitLines(doc)) {
			t.Errorf("left to yaml:\n%s", doc)
		}
	}
	for _, doc := range left {
		if _, ok := loadChunkFast(splitLines(doc)); ok {
			t.Errorf("read on the fast path:\n%s", doc)
		}
	}
}

// FuzzChunkFast: whatever the fast path reads, it reads as yaml does.
// The seeds are the golden replies' documents and the sweep's shape.
func FuzzChunkFast(f *testing.F) {
	for _, file := range readFiles(f, goldenReplies(FormatChunk)) {
		lines := splitLines(file.text)
		for _, d := range splitChunk(lines).docs {
			f.Add(joinLines(lines[d.start:d.end]))
		}
	}
	var b strings.Builder
	b.WriteString("description: Rename some totals\nlanguage: python\noperations:\n")
	for i := range 3 {
		fmt.Fprintf(&b, "  - path: calc.py\n    op: replace_text\n    marker: |-\n          total += %d\n    payload: |-\n          sum += %d\n", i, i)
	}
	f.Add(b.String())
	f.Fuzz(func(t *testing.T, doc string) {
		checkChunkFast(t, splitLines(doc))
	})
}

// TestChunkFastRandom: documents made of the pieces the fast path
// reads, and of pieces near them, at random indentations, read alike
// on the fast path and through yaml; most of them on the fast path.
func TestChunkFastRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	// often is usually good, now and then one of the others.
	often := func(good string, others ...string) string {
		if rng.IntN(8) > 0 {
			return good
		}
		return pick(others...)
	}
	sp := func(n int) string { return strings.Repeat(" ", n) }
	line := func() string {
		return pick("x = 1", "# c", "  y", "", "}", "- z", "a: b", "x\tt", "é", "total += 1  ", "---", "'q'", "|", "k: |-", often("", " ", "\t", "...", "\u2028"))
	}
	fast := 0
	const docs = 3000
	for range docs {
		var b strings.Builder
		b.WriteString(pick("", "# head\n", "description: Rename\n", "language: go\n"))
		b.WriteString("operations:" + pick("", " ") + "\n")
		seq := pick("", "  ", "    ")
		for range 1 + rng.IntN(3) {
			key := len(seq) + 2 + rng.IntN(2)
			b.WriteString(seq + "-" + sp(key-len(seq)-1) + "path: " + often(pick("a.go", "src/b.py", "a b"), "yes", "3", "x:y", "`c`", "a #b", "\"q\"", "Null") + "\n")
			for _, k := range []string{"op", "marker", "payload", "options"} {
				if rng.IntN(5) == 0 {
					continue
				}
				switch k {
				case "op":
					b.WriteString(sp(key) + "op: " + pick("replace_text", "delete_file", "Replace-Text") + "\n")
				case "options":
					b.WriteString(sp(key) + "options:\n" + sp(key+2*(1+rng.IntN(2))) + "indent: " + pick("none", "as-is", "auto") + "\n")
				default:
					head := often(pick("|-", "|", "text"), "|+", "|2-", "", ">-", "|- # c")
					b.WriteString(sp(key) + k + ": " + head + "\n")
					in, lines := key+1+rng.IntN(5), 1+rng.IntN(3)
					if head == "text" {
						lines = 0
					}
					for j := range lines {
						extra := 0
						if j > 0 {
							extra = rng.IntN(3)
							if rng.IntN(8) == 0 {
								extra = -1
							}
						}
						b.WriteString(sp(in+extra) + line() + "\n")
					}
				}
				if rng.IntN(6) == 0 {
					b.WriteString(sp(rng.IntN(key+3)) + pick("# note", "", "  ") + "\n")
				}
			}
		}
		if checkChunkFast(t, splitLines(b.String())) {
			fast++
		}
	}
	if fast < docs/4 {
		t.Errorf("only %d of %d documents on the fast path", fast, docs)
	}
	t.Logf("%d of %d on the fast path", fast, docs)
}
