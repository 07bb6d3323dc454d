package engine

import (
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestBlankLinesPairThroughTheDiff: a white-space-only line the new
// lines hold keeps the file's bytes only when it stands, in old and in
// new, in the same run of blank lines next to a line the edit keeps
// (or the top or bottom of the edit); one among rewritten lines is the
// reply's, even where the diff of the reply's lines matched it with a
// blank line of the old ones (SPEC section 5).
func TestBlankLinesPairThroughTheDiff(t *testing.T) {
	j := func(ls ...string) string { return strings.Join(ls, "\n") + "\n" }
	sim := j("### Sim", "- **Edit mode**:", "  - one", "  ", "- **Run mode**:", "  - two")
	// A class whose blank lines carry the indentation of the code
	// around them (12 spaces in a method body, 8 between methods).
	class := j("class A:",
		"    class B:",
		"        def f(self):",
		"            a = 1",
		"            ",
		"            return a",
		"        ",
		"        def g(self):",
		"            return 2")
	tests := []struct {
		name, format, path, file, old, new, want string
		rung                                     Rung
	}{
		{"markdown list rewritten as headings", "diff", "a.md", sim, sim,
			j("### Sim", "", "#### Edit mode", "- one", "", "#### Run mode", "- two"),
			j("### Sim", "", "#### Edit mode", "- one", "", "#### Run mode", "- two"), RungExact},
		{"a method rewritten and one added", "diff", "a.py", class,
			j("        def f(self):", "            a = 1", "            ", "            return a", "        "),
			j("        def f(self):", "            b = 2", "            return b", "        ", "        def h(self):", "            return 3", "        "),
			j("class A:", "    class B:", "        def f(self):", "            b = 2", "            return b", "        ",
				"        def h(self):", "            return 3", "        ", "        def g(self):", "            return 2"), RungExact},
		{"a method rewritten, its blank line written bare", "diff", "a.py", class,
			j("        def f(self):", "            a = 1", "", "            return a", "", "        def g(self):"),
			j("        def f(self):", "            b = 2", "            return b", "", "        def h(self):", "            return 3", "", "        def g(self):"),
			j("class A:", "    class B:", "        def f(self):", "            b = 2", "            return b", "",
				"        def h(self):", "            return 3", "        ", "        def g(self):", "            return 2"), RungTrailing},
		{"kept context at the indent rung", "diff", "a.py", class,
			j("def f(self):", "    a = 1", "", "    return a"),
			j("def f(self):", "    a = 2", "", "    return a"),
			j("class A:", "    class B:", "        def f(self):", "            a = 2", "            ",
				"            return a", "        ", "        def g(self):", "            return 2"), RungIndent},
		{"rewritten at the indent rung", "diff", "a.py", class,
			j("def f(self):", "    a = 1", "", "    return a", "", "def g(self):"),
			j("def f(self):", "    x = 1", "    return x", "    ", "def h(self):", "    return 3", "", "def g(self):"),
			j("class A:", "    class B:", "        def f(self):", "            x = 1", "            return x", "    ",
				"        def h(self):", "            return 3", "        ", "        def g(self):", "            return 2"), RungIndent},
		{"crlf", "diff", "a.md", strings.ReplaceAll(sim, "\n", "\r\n"), sim,
			j("### Sim", "", "#### Edit mode", "- one", "", "#### Run mode", "- two"),
			"### Sim\r\n\r\n#### Edit mode\r\n- one\r\n\r\n#### Run mode\r\n- two\r\n", RungExact},
		{"crlf, a kept blank line", "diff", "a.py", "a = 1\r\n  \r\nb = 2\r\n",
			j("a = 1", "", "b = 2"), j("a = 3", "", "b = 2"),
			"a = 3\r\n  \r\nb = 2\r\n", RungTrailing},
		{"tabs", "diff", "a.go", j("func f() {", "\tif x {", "\t\ta()", "\t\t", "\t\tb()", "\t}", "\t", "\treturn", "}"),
			j("\tif x {", "\t\ta()", "\t\t", "\t\tb()", "\t}"),
			j("\tfor x {", "\t\tc()", "\t}", "\t", "\tif y {", "\t\td()", "\t}"),
			j("func f() {", "\tfor x {", "\t\tc()", "\t}", "\t", "\tif y {", "\t\td()", "\t}", "\t", "\treturn", "}"), RungExact},
		{"a run of blank lines between kept lines", "diff", "a.py", j("a = 1", "  ", "    ", "      ", "b = 2"),
			j("a = 1", "", "", "", "b = 2"), j("a = 1", "", "", "b = 2"),
			j("a = 1", "  ", "    ", "b = 2"), RungTrailing},
		{"a run of blank lines among rewritten ones", "diff", "a.py", j("a = 1", "x = 1", "  ", "    ", "y = 1", "b = 2"),
			j("a = 1", "x = 1", "  ", "    ", "y = 1", "b = 2"), j("a = 1", "x = 2", "", "", "y = 2", "b = 2"),
			j("a = 1", "x = 2", "", "", "y = 2", "b = 2"), RungExact},
		{"blank lines at the top and bottom of the edit", "diff", "a.py", j("a = 1", "  ", "x = 1", "    ", "b = 2"),
			j("  ", "x = 1", "    "), j("", "x = 2", "y = 2", ""),
			j("a = 1", "  ", "x = 2", "y = 2", "    ", "b = 2"), RungExact},
		{"blank lines at the edges, moved among new lines", "diff", "a.py", j("a = 1", "  ", "x = 1", "    ", "b = 2"),
			j("  ", "x = 1", "    "), j("x = 2", "", "y = 2"),
			j("a = 1", "x = 2", "", "y = 2", "b = 2"), RungExact},
		{"the comments rung", "udiff", "a.py", j("def f():", "    # one", "    a = 1", "      ", "    # two", "    b = 1", "    return a"),
			j("def f():", "    a = 1", "", "    b = 1", "    return a"),
			j("def f():", "    a = 2", "    c = 3", "    ", "    d = 4", "    return a"),
			j("def f():", "    # one", "    a = 2", "    c = 3", "    ", "    d = 4", "    return a"), RungComments},
		{"the comments rung, a kept blank line", "udiff", "a.py", j("def f():", "    # one", "    a = 1", "      ", "    # two", "    b = 1"),
			j("def f():", "    a = 1", "", "    b = 1"),
			j("def f():", "    a = 1", "", "    b = 2"),
			j("def f():", "    # one", "    a = 1", "      ", "    # two", "    b = 2"), RungComments},
		{"the whitespace rung, blank lines on either side of a deleted line", "udiff", "a.py",
			j("def f():", "    a = 1", "        ", "    b = 1", "      ", "    return a"),
			j("def f():", "  a = 1", "    b = 1", "", "    return a"),
			j("def f():", "  x = 2", "", "    y = 4", "", "    return a"),
			j("def f():", "  x = 2", "", "    y = 4", "      ", "    return a"), RungWhitespace},
		{"the whitespace rung, a new blank line among new lines", "udiff", "a.py",
			j("a = 1", "b = 1", "    ", "c = 1"),
			j("a = 1", "  b = 1", "c = 1"),
			j("a = 1", "x = 2", "", "y = 2", "c = 1"),
			j("a = 1", "x = 2", "", "y = 2", "c = 1"), RungWhitespace},
		{"the whitespace rung, a new blank line above a kept line", "udiff", "a.py",
			j("a = 1", "b = 1", "    ", "c = 1"),
			j("a = 1", "  b = 1", "c = 1"),
			j("a = 1", "x = 2", "", "c = 1"),
			j("a = 1", "x = 2", "    ", "c = 1"), RungWhitespace},
		{"the whole region replaced", "diff", "a.md", j("top", "  a", "   ", "  b", "bottom"),
			j("  a", "   ", "  b"), j("c", "", "", "d"),
			j("top", "c", "", "", "d", "bottom"), RungExact},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(files(tt.path, tt.file), []translate.Operation{anchored(tt.path, tt.old, tt.new)}, Options{Format: tt.format})
			if err != nil {
				t.Fatal(err)
			}
			o := res.Outcomes[0]
			if o.Status != Applied || len(res.Changes) != 1 {
				t.Fatalf("status %s (%v), %d changes", o.Status, o.Err, len(res.Changes))
			}
			if o.Rung != tt.rung {
				t.Errorf("rung %v, want %v", o.Rung, tt.rung)
			}
			if got := string(res.Changes[0].New); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}
