package translate

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestHeadlessBlocks: a block whose SEARCH marker is missing is read,
// with a warning, when a fence opens straight into its SEARCH text
// right after its file name (SPEC section 4); any other end marker
// without its SEARCH marker still fails naming its line.
func TestHeadlessBlocks(t *testing.T) {
	const edit = "old line\n=======\nnew line\n>>>>>>> REPLACE\n```\n"
	for _, tt := range []struct {
		name, reply string
		want        string // the operations, "path line old>new" each; "" when it fails
		format      string
		failAt      int // the failing line
	}{
		{name: "name above, language tag", reply: "Fix it.\n\napp.py\n```python\n" + edit,
			want: "app.py 4 [old line]>[new line]", format: "diff"},
		{name: "name above, no language tag", reply: "app.py\n```\n" + edit,
			want: "app.py 2 [old line]>[new line]", format: "diff"},
		{name: "bold name", reply: "**src/app.py**\n```python\n" + edit,
			want: "src/app.py 2 [old line]>[new line]", format: "diff"},
		{name: "backticked name with a colon", reply: "`src/app.py`:\n```python\n" + edit,
			want: "src/app.py 2 [old line]>[new line]", format: "diff"},
		{name: "name in the info string", reply: "Here:\n```src/app.py\n" + edit,
			want: "src/app.py 2 [old line]>[new line]", format: "diff"},
		{name: "diff-fenced: name first inside", reply: "Fix it.\n\n```python\nsrc/app.py\n" + edit,
			want: "src/app.py 4 [old line]>[new line]", format: "diff-fenced"},
		{name: "name above repeated inside", reply: "app.py\n```python\napp.py\n" + edit,
			want: "app.py 3 [old line]>[new line]", format: "diff-fenced"},
		{name: "first of two blocks in one fence", reply: "app.py\n```python\nold line\n=======\nnew line\n>>>>>>> REPLACE\n<<<<<<< SEARCH\ntwo\n=======\n2\n>>>>>>> REPLACE\n```\n",
			want: "app.py 2 [old line]>[new line]; app.py 7 [two]>[2]", format: "diff"},
		{name: "CRLF", reply: strings.ReplaceAll("app.py\r\n```python\r\n"+edit, "\n", "\r\n"),
			want: "app.py 2 [old line]>[new line]", format: "diff"},
		{name: "indented markers, near-miss end", reply: "app.py\n```\n    old line\n  =======  \n    new line\n>>>>>>>REPLACE\n```\n",
			want: "app.py 2 [    old line]>[    new line]", format: "diff"},
		{name: "empty SEARCH text appends", reply: "app.py\n```\n=======\nnew line\n>>>>>>> REPLACE\n```\n",
			want: "app.py 2 append []>[new line]", format: "diff"},
		{name: "after a block of another fence", reply: "a.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n\nb.py\n```\n" + edit,
			want: "a.py 3 [a]>[b]; b.py 11 [old line]>[new line]", format: "diff"},

		{name: "no name: prose above", reply: "Change it like this:\n```\n" + edit, failAt: 6},
		{name: "no name: a bare word is no name", reply: "```\nold\n" + edit, failAt: 6},
		{name: "no name: blank line above", reply: "app.py\n\n```\n" + edit, failAt: 7},
		{name: "in prose", reply: "app.py\n" + strings.TrimSuffix(edit, "```\n"), failAt: 5},
		{name: "the fence closes before the end marker", reply: "app.py\n```\nold line\n=======\nnew line\n```\n>>>>>>> REPLACE\n", failAt: 7},
		{name: "two dividers", reply: "app.py\n```\nold\n=======\nmid\n=======\nnew\n>>>>>>> REPLACE\n```\n", failAt: 8},
		{name: "no divider", reply: "app.py\n```\nold\n>>>>>>> REPLACE\n```\n", failAt: 4},
		{name: "the fence opens an example first", reply: "app.py\n```\nprint(1)\n```\nold\n=======\nnew\n>>>>>>> REPLACE\n", failAt: 8},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.reply, ParseOptions{Format: "auto"})
			if tt.want == "" {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line != tt.failAt || !strings.Contains(pe.Msg, "stands outside any diff block") {
					t.Fatalf("error %v, want the stray end marker at line %d", err, tt.failAt)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, op := range r.Ops {
				s := fmt.Sprintf("%s %d %q>%q", op.Path, op.Line, op.Old, op.New)
				if op.Append {
					s = fmt.Sprintf("%s %d append %q>%q", op.Path, op.Line, op.Old, op.New)
				}
				got = append(got, strings.ReplaceAll(s, `"`, ""))
			}
			if g := strings.Join(got, "; "); g != tt.want || r.Format != tt.format {
				t.Errorf("got %s (%s), want %s (%s)", g, r.Format, tt.want, tt.format)
			}
			warned := false
			for _, w := range r.Warnings {
				warned = warned || strings.Contains(w.Msg, `has no "<<<<<<< SEARCH" line`)
			}
			if !warned {
				t.Errorf("no warning: %+v", r.Warnings)
			}
		})
	}
}
