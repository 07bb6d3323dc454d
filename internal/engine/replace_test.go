package engine

import (
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestBlankLinesKeepTheirOwnBytes: a white-space-only line the reply
// adds next to a blank line it keeps is written as the reply has it,
// and the kept one keeps the file's bytes, whichever of the two the
// diff of the reply's lines happened to pair.
func TestBlankLinesKeepTheirOwnBytes(t *testing.T) {
	const file = "class A:\n    def f(self):\n        a = 1\n            \n        return a\n"
	tests := []struct {
		name, format, file, old, new, want string
	}{
		{"added above a kept blank line", "udiff", file,
			"    def f(self):\n        a = 1\n\n        return a\n",
			"    def f(self):\n        a = 1\n        \n\n        return a\n",
			"class A:\n    def f(self):\n        a = 1\n        \n            \n        return a\n"},
		{"added below a kept blank line", "udiff", file,
			"    def f(self):\n        a = 1\n\n        return a\n",
			"    def f(self):\n        a = 1\n\n        \n        return a\n",
			"class A:\n    def f(self):\n        a = 1\n            \n        \n        return a\n"},
		{"added with a line of code above a kept blank line", "udiff", file,
			"        a = 1\n\n        return a\n",
			"        a = 1\n        \n        b = 2\n\n        return a\n",
			"class A:\n    def f(self):\n        a = 1\n        \n        b = 2\n            \n        return a\n"},
		{"added between two kept blank lines", "apply-patch", "x = 1\n  \n      \ny = 2\n",
			"x = 1\n\n\ny = 2\n",
			"x = 1\n\n    \n\ny = 2\n",
			"x = 1\n  \n    \n      \ny = 2\n"},
		{"tabs, search/replace", "diff", "func f() {\n\ta := 1\n\t\t\n\treturn a\n}\n",
			"\ta := 1\n\n\treturn a\n",
			"\ta := 1\n\t\n\n\treturn a\n",
			"func f() {\n\ta := 1\n\t\n\t\t\n\treturn a\n}\n"},
		{"a line that changes stays changed", "udiff", file,
			"        a = 1\n\n        return a\n",
			"        a = 2\n        \n\n        return a\n",
			"class A:\n    def f(self):\n        a = 2\n        \n            \n        return a\n"},
		{"blank lines a rung skips", "udiffx", "def f():\n    a = 1\n            \n    return a\n",
			"def f():\n  a = 1\n\n    return a\n",
			"def f():\n  a = 1\n        \n\n    return a\n",
			"def f():\n    a = 1\n        \n            \n    return a\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(files("a.py", tt.file), []translate.Operation{anchored("a.py", tt.old, tt.new)}, Options{Format: tt.format})
			if err != nil {
				t.Fatal(err)
			}
			if o := res.Outcomes[0]; o.Status != Applied || len(res.Changes) != 1 {
				t.Fatalf("status %s (%v), %d changes", o.Status, o.Err, len(res.Changes))
			}
			if got := string(res.Changes[0].New); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestBestPairing(t *testing.T) {
	tests := []struct {
		a, b  string
		pairs [][2]int
		equal int
	}{
		{"x", "yx", [][2]int{{0, 1}}, 1},
		{"x", "xy", [][2]int{{0, 0}}, 1},
		{"xz", "xyz", [][2]int{{0, 0}, {1, 2}}, 2},
		{"yx", "x", [][2]int{{1, 0}}, 1},
		{"ab", "cd", [][2]int{{0, 0}, {1, 1}}, 0},
		{"a", "bcd", [][2]int{{0, 0}}, 0},
	}
	for _, tt := range tests {
		pairs, equal := bestPairing(len(tt.a), len(tt.b), func(i, j int) bool { return tt.a[i] == tt.b[j] })
		if equal != tt.equal || len(pairs) != len(tt.pairs) {
			t.Errorf("%q %q: %v %d, want %v %d", tt.a, tt.b, pairs, equal, tt.pairs, tt.equal)
			continue
		}
		for i := range pairs {
			if pairs[i] != tt.pairs[i] {
				t.Errorf("%q %q: %v, want %v", tt.a, tt.b, pairs, tt.pairs)
				break
			}
		}
	}
}
