package engine

import (
	"strings"
	"testing"
)

// TestStripper feeds each case's lines in order to one stripper: block
// comments and multi-line strings (docstrings are strings) carry from
// line to line.
func TestStripper(t *testing.T) {
	cases := []struct {
		name, lang string
		in, want   []string
	}{
		{"line comment", "cpp", []string{"int x = 1; // one"}, []string{"int x = 1;"}},
		{"slashes in a string", "cpp", []string{`url = "http://a"; // host`}, []string{`url = "http://a";`}},
		{"escaped quote", "cpp", []string{`s = "a\"//b"; // c`}, []string{`s = "a\"//b";`}},
		{"block inside a line", "cpp", []string{"int /* c */ x;", "/* lead */ int y;"}, []string{"int x;", "int y;"}},
		{"block over lines", "cpp", []string{"a; /* one", "two", "three */ b;", "c;"}, []string{"a;", "", "b;", "c;"}},
		{"continuation star", "cpp", []string{" * text"}, []string{""}},
		{"raw string over lines", "go", []string{"s := `a", "// not a comment", "b` // c"}, []string{"s := `a", "// not a comment", "b`"}},
		{"hash in a python string", "py", []string{"x = '#' + b  # note"}, []string{"x = '#' + b"}},
		// A docstring is a string literal: code, kept, its # lines
		// text (SPEC section 5).
		{"docstring over lines", "py", []string{`    """Doc.`, "", "    # text", `    """`, "    return 1"}, []string{`    """Doc.`, "", "    # text", `    """`, "    return 1"}},
		{"one-line docstring", "py", []string{`    r"""Doc."""`}, []string{`    r"""Doc."""`}},
		{"docstring then a comment", "py", []string{"    '''Doc.'''  # note"}, []string{"    '''Doc.'''"}},
		{"assigned long string", "py", []string{`T = """`, "# kept", `"""  # gone`}, []string{`T = """`, "# kept", `"""`}},
		{"unknown language", "", []string{"a // b"}, []string{"a // b"}},
		{"shell keeps quotes", "sh", []string{`echo "#x" # y`}, []string{`echo "#x"`}},
		{"html comment", "html", []string{"<p><!-- x --></p>"}, []string{"<p></p>"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			st := newStripper(c.lang)
			for i, l := range c.in {
				if got := strings.TrimRight(st.strip(l), " "); got != c.want[i] {
					t.Errorf("line %d %q: got %q, want %q", i+1, l, got, c.want[i])
				}
			}
		})
	}
}

// TestCommentsRungSeesBlockComments checks that a pattern matches
// across a block comment spanning lines, and that the view follows an
// edit that opens a comment.
func TestCommentsRungSeesBlockComments(t *testing.T) {
	d := newDoc([]byte("int a;\n/* one\n   two */\nint b;\nint c;\n"))
	m := newMatcher(d, "cpp")
	if got := m.find([]string{"int a;", "int b;"}, RungComments); len(got) != 1 || got[0].first() != 0 || got[0].end() != 4 {
		t.Fatalf("find across the comment: %+v", got)
	}
	m.splice(3, 3, []string{"/*\n"}) // int b; and int c; are now inside a comment
	if got := m.find([]string{"int b;"}, RungComments); len(got) != 0 {
		t.Fatalf("a line inside a new comment was found: %+v", got)
	}
}
