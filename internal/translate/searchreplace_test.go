package translate

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

// The -update flag rewrites golden files. Other golden tests of this
// package may define it first; then theirs is used.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/")
	}
}

// updating reports whether -update was given.
func updating() bool {
	f := flag.Lookup("update")
	if f == nil {
		return false
	}
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return false
	}
	b, _ := g.Get().(bool)
	return b
}

const searchReplaceCases = "../../testdata/searchreplace"

// goldenOptions reads "# key: value" lines of a txtar comment.
func goldenOptions(comment []byte) map[string]string {
	opts := map[string]string{}
	for _, l := range strings.Split(string(comment), "\n") {
		if k, v, ok := strings.Cut(strings.TrimPrefix(l, "#"), ":"); ok && strings.HasPrefix(l, "#") {
			opts[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return opts
}

// goldenReply returns a case's reply section, with CRLF line endings
// when its comment says "# crlf: true".
func goldenReply(a *txtar.Archive) (string, bool) {
	for _, f := range a.Files {
		if f.Name == "reply" {
			reply := string(f.Data)
			if goldenOptions(a.Comment)["crlf"] == "true" {
				reply = strings.ReplaceAll(reply, "\n", "\r\n")
			}
			return reply, true
		}
	}
	return "", false
}

// TestSearchReplaceGolden reads each testdata/searchreplace/*.txtar
// case's reply and compares a dump of the result with its want section
// (-update rewrites it).
func TestSearchReplaceGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(searchReplaceCases, "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden cases in %s: %v", searchReplaceCases, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			reply, ok := goldenReply(a)
			if !ok {
				t.Fatal("no reply section")
			}
			r, err := readSearchReplace(reply)
			got := dumpReply(r, err)
			if updating() {
				a.Files = []txtar.File{{Name: "reply", Data: []byte(strings.ReplaceAll(reply, "\r\n", "\n"))}, {Name: "want", Data: []byte(got)}}
				if err := os.WriteFile(file, txtar.Format(a), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			var want string
			for _, f := range a.Files {
				if f.Name == "want" {
					want = string(f.Data)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("readSearchReplace (-want +got):\n%s", diff)
			}
		})
	}
}

// dumpReply writes what a reader returned in the readable form of the
// golden files.
func dumpReply(r *Reply, err error) string {
	var b strings.Builder
	lines := func(label string, ls []string) {
		if len(ls) == 0 {
			fmt.Fprintf(&b, "  %s: none\n", label)
			return
		}
		fmt.Fprintf(&b, "  %s:\n", label)
		for _, l := range ls {
			fmt.Fprintf(&b, "    |%s\n", l)
		}
	}
	if r != nil {
		fmt.Fprintf(&b, "format: %s\n", r.Format)
		for i, op := range r.Ops {
			fmt.Fprintf(&b, "op %d: %s %s line %d", i+1, op.Kind, op.Path, op.Line)
			if op.Group != 0 {
				fmt.Fprintf(&b, " group %d", op.Group)
			}
			if op.FirstMatch {
				b.WriteString(" first-match")
			}
			if op.Append {
				b.WriteString(" append")
			}
			b.WriteString("\n")
			if op.Kind == Edit {
				lines("old", op.Old)
			}
			lines("new", op.New)
		}
		for i, s := range r.Shell {
			fmt.Fprintf(&b, "shell %d: line %d %s\n", i+1, s.Line, s.Lang)
			for _, l := range strings.SplitAfter(s.Text, "\n") {
				if l != "" {
					fmt.Fprintf(&b, "    |%s\n", strings.TrimSuffix(l, "\n"))
				}
			}
		}
		for _, w := range r.Warnings {
			fmt.Fprintf(&b, "warning: line %d: %s\n", w.Line, w.Msg)
		}
		if len(r.Prose) > 0 {
			b.WriteString("prose:\n")
			for _, l := range r.Prose {
				fmt.Fprintf(&b, "    |%s\n", l)
			}
		}
	}
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	return b.String()
}

func TestMarkers(t *testing.T) {
	for _, tc := range []struct {
		line                 string
		search, divider, end bool
	}{
		{line: "<<<<< SEARCH", search: true},
		{line: "<<<<<<< SEARCH", search: true},
		{line: "<<<<<<<<< SEARCH", search: true},
		{line: "<<<<<<< SEARCH>", search: true},
		{line: "<<<< SEARCH"},
		{line: "<<<<<<<<<< SEARCH"},
		{line: "<<<<<<< SEARCH >"},
		{line: "<<<<<<<SEARCH", search: true},  // a near miss, read with a warning
		{line: "<<<<<<< search", search: true}, // likewise
		{line: "<<<<<<<\tSearch", search: true},
		{line: "=====", divider: true},
		{line: "=========", divider: true},
		{line: "===="},
		{line: "=========="},
		{line: "======= x"},
		{line: ">>>>> REPLACE", end: true},
		{line: ">>>>>>>>> REPLACE", end: true},
		{line: ">>>>>>>>>> REPLACE"},
		{line: ">>>>>>> REPLACE>"},
		{line: ">>>>>>>REPLACE", end: true},
		{line: ">>>>>>>  replace", end: true},
		{line: ">>>> REPLACE"}, // too far: fails naming the line
	} {
		if got := isSearch(tc.line); got != tc.search {
			t.Errorf("isSearch(%q) = %v", tc.line, got)
		}
		if got := isDivider(tc.line); got != tc.divider {
			t.Errorf("isDivider(%q) = %v", tc.line, got)
		}
		if got := isEnd(tc.line); got != tc.end {
			t.Errorf("isEnd(%q) = %v", tc.line, got)
		}
	}
}

func TestFences(t *testing.T) {
	for _, tc := range []struct {
		line     string
		open     bool
		lang     string
		closedBy string
		shell    bool
	}{
		{line: "```", open: true, closedBy: "```"},
		{line: "```python", open: true, lang: "python", closedBy: "```"},
		{line: "````python", open: true, lang: "python", closedBy: "````"},
		{line: "```bash", open: true, lang: "bash", closedBy: "```", shell: true},
		{line: "```PowerShell", open: true, lang: "powershell", closedBy: "```", shell: true},
		{line: "```csharp", open: true, lang: "csharp", closedBy: "```"},
		{line: "<source>python", open: true, lang: "python", closedBy: "</source>"},
		{line: "<codeblock>", open: true, closedBy: "</codeblock>"},
		{line: "<code>x</code>"},
		{line: "```x```"},
		{line: "``"},
		{line: "plain"},
	} {
		f, ok := openFence(tc.line)
		if ok != tc.open {
			t.Errorf("openFence(%q) ok = %v", tc.line, ok)
			continue
		}
		if !ok {
			continue
		}
		if f.lang() != tc.lang || f.isShell() != tc.shell || !f.closes(tc.closedBy) {
			t.Errorf("openFence(%q) = %+v: lang %q shell %v, closed by %q: %v", tc.line, f, f.lang(), f.isShell(), tc.closedBy, f.closes(tc.closedBy))
		}
	}
	// A four-backtick fence is not closed by three, nor by a fence line
	// with an info string.
	f, _ := openFence("````markdown")
	for _, l := range []string{"```", "````python", "`````x"} {
		if f.closes(l) {
			t.Errorf("%+v closed by %q", f, l)
		}
	}
}

func TestSplitLines(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\r\nb\r\n", []string{"a", "b"}},
		{"a\n\nb", []string{"a", "", "b"}},
		{"\n", []string{""}},
	} {
		if got := splitLines(tc.in); !cmp.Equal(got, tc.want) {
			t.Errorf("splitLines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestParseSearchReplaceErrors(t *testing.T) {
	reply := "a.py\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n\n```\n<<<<<<< SEARCH\nz\n"
	r, err := readSearchReplace(reply)
	pe := asParseError(t, err)
	if pe.Line != 11 || pe.Format != FormatDiff {
		t.Errorf("ParseError = %+v, want line 11, format diff", pe)
	}
	if r == nil || len(r.Ops) != 1 || r.Ops[0].Path != "a.py" {
		t.Errorf("want the first block parsed before the error, got %+v", r)
	}

	if _, err := readSearchReplace("Just prose.\n"); !errors.Is(err, ErrNoEdits) {
		t.Errorf("prose only: err = %v, want ErrNoEdits", err)
	}
	if _, err := readSearchReplace(""); !errors.Is(err, ErrNoEdits) {
		t.Errorf("empty: err = %v, want ErrNoEdits", err)
	}
}

func TestElisionPieces(t *testing.T) {
	blocks := []srBlock{{
		Path:    "a.py",
		Search:  "def f():\n    ...\n    return 1\n",
		Replace: "def f():\n    ...\n    return 2\n",
		Line:    5,
	}, {
		Path:    "a.py",
		Search:  "x = 1\n...\n",
		Replace: "x = 2\n...\ny = 3\n",
		Line:    20,
	}}
	ops, warns := searchReplaceOps(blocks)
	want := []Operation{
		{Kind: Edit, Path: "a.py", LineEdit: LineEdit{Old: []string{"def f():"}, New: []string{"def f():"}}, Placement: Placement{Group: 1}, Line: 5},
		{Kind: Edit, Path: "a.py", LineEdit: LineEdit{Old: []string{"    return 1"}, New: []string{"    return 2"}}, Placement: Placement{Group: 1}, Line: 7},
		{Kind: Edit, Path: "a.py", LineEdit: LineEdit{Old: []string{"x = 1"}, New: []string{"x = 2"}}, Placement: Placement{Group: 2}, Line: 20},
		{Kind: Create, FileCreate: FileCreate{Append: true}, Path: "a.py", LineEdit: LineEdit{New: []string{"y = 3"}}, Placement: Placement{Group: 2}, Line: 22},
	}
	if diff := cmp.Diff(want, ops); diff != "" {
		t.Errorf("ops (-want +got):\n%s", diff)
	}
	if len(warns) != 0 {
		t.Errorf("warnings: %v", warns)
	}
}
