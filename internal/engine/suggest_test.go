package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

func TestClosestPaths(t *testing.T) {
	paths := []string{
		"src/utils/helpers.py", "src/helper.py", "lib/parser.go", "docs/README.md",
		"pkg/api/server.go", "main.go", "a/b/c/d/x.go", "go.mod", "go.sum",
		"pkg/a/__init__.py", "pkg/b/__init__.py", "pkg/c/__init__.py", "pkg/d/__init__.py",
		"tests/test_parser.py", "gone/parser.go",
	}
	gone := map[string]bool{"gone/parser.go": true}
	tests := []struct {
		name string
		want string // comma-separated
	}{
		{"src/utils/helprs.py", "src/utils/helpers.py"},               // typo
		{"src/utils/helper.py", "src/helper.py,src/utils/helpers.py"}, // same name first
		{"src/parser.go", "lib/parser.go"},                            // wrong directory
		{"Docs/readme.md", "docs/README.md"},                          // case
		{"DOCS/README.MD", "docs/README.md"},                          // case, whole path
		{"pkg/server.go", "pkg/api/server.go"},                        // a level missing
		{"lib/internal/parser.go", "lib/parser.go"},                   // a level extra
		{"x.go", ""},           // three levels away, and short
		{"mian.go", "main.go"}, // transposition (two edits, long enough)
		{"go.mdo", ""},         // short: one edit at most
		{"go.mo", "go.mod"},    // short: one edit
		{"pkg/e/__init__.py", "pkg/a/__init__.py,pkg/b/__init__.py,pkg/c/__init__.py"}, // at most three, by path
		{"totally/unrelated.rs", ""},
		{"parser.py", ""}, // test_parser.py is five edits away
	}
	for _, tc := range tests {
		got := strings.Join(closestPaths(tc.name, paths, func(p string) bool { return !gone[p] }), ",")
		if got != tc.want {
			t.Errorf("closestPaths(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", 3, 0},
		{"abc", "", 3, 3},
		{"kitten", "sitting", 5, 3},
		{"kitten", "sitting", 2, 3}, // beyond the limit: limit+1
		{"Helper.PY", "helper.py", 0, 0},
		{"helper.py", "helpers.py", 2, 1},
		{strings.Repeat("a", 100), strings.Repeat("a", 99) + "b", 2, 1}, // longer than the stack buffer
	}
	for _, tc := range tests {
		if got := foldDistance(tc.a, tc.b, tc.limit); got != tc.want {
			t.Errorf("foldDistance(%q, %q, %d) = %d, want %d", tc.a, tc.b, tc.limit, got, tc.want)
		}
	}
	if got := partsDistance([]string{"src", "utils"}, []string{"src"}, 2); got != 1 {
		t.Errorf("partsDistance = %d, want 1", got)
	}
	// The byte count that passes most names over before a distance is
	// computed never exceeds the distance: no near name is lost to it.
	names := []string{"", "a", "helper.py", "Helpers.PY", "hlper.py", "file12.go", "file21.go", "eliF12.go", "aaab", "abbb", "x.y.z"}
	for _, tc := range tests {
		names = append(names, tc.a, tc.b)
	}
	for _, a := range names {
		var bag [256]int16
		for i := range len(a) {
			bag[lowerASCII(a[i])]++
		}
		for _, b := range names {
			full := foldDistance(a, b, len(a)+len(b))
			if got := bagDistance(&bag, len(a), b); got > full {
				t.Errorf("bagDistance(%q, %q) = %d, over the distance %d", a, b, got, full)
			}
		}
	}
}

// Suggestions go to the edits that name no file, through Resolve: not
// to other failures, and never for a file the reply removed.
func TestSuggestionsOnResolve(t *testing.T) {
	src := files("src/utils/helpers.py", "x\n", "src/old.py", "y\n")
	ops := []translate.Operation{
		sr("src/utils/helper.py", "x\n", "X\n"),
		sr("src/utils/helpers.py", "nope\n", "X\n"),
		{Kind: translate.Delete, Path: "src/old.py", Line: 1},
		sr("src/olds.py", "y\n", "Y\n"),
	}
	res, err := Resolve(src, ops, Options{Format: "diff"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range res.Outcomes {
		s := "-"
		if o.Err != nil {
			s = fmt.Sprintf("%v %v", errors.Is(o.Err, ErrNoFile), o.Err.Suggestions)
		}
		got = append(got, s)
	}
	want := []string{"true [src/utils/helpers.py]", "false []", "-", "true []"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// The base is listed once for a reply, however many of its names miss.
func TestSuggestionsListOnce(t *testing.T) {
	src := &countingSource{memSource: files("src/a.py", "x\n", "src/b.py", "y\n")}
	ops := []translate.Operation{
		sr("src/aa.py", "x\n", "X\n"),
		{Kind: translate.Rename, Path: "src/bb.py", FileOp: translate.FileOp{NewPath: "c.py"}, Line: 1},
		sr("lib/a.py", "x\n", "X\n"),
	}
	res, err := Resolve(src, ops, Options{Format: "diff"})
	if err != nil {
		t.Fatal(err)
	}
	if src.listed != 1 {
		t.Errorf("listed the base %d times, want 1", src.listed)
	}
	for i, want := range []string{"[src/a.py]", "[src/b.py]", "[src/a.py]"} {
		if got := fmt.Sprint(res.Outcomes[i].Err.Suggestions); got != want {
			t.Errorf("edit %d: %s, want %s", i+1, got, want)
		}
	}
}

// A run lists its base once, however many of its replies name a path
// that is no file.
func TestRunListsTheBaseOnce(t *testing.T) {
	src := &countingSource{memSource: files("src/a.py", "x\n", "src/b.py", "y\n")}
	in := []Input{
		{Source: "1.md", Text: srReply([3]string{"src/aa.py", "x\n", "X\n"})},
		{Source: "2.md", Text: srReply([3]string{"b.py", "y\n", "Y\n"})},
		{Source: "3.md", Text: srReply([3]string{"src/bb.py", "y\n", "Y\n"})},
	}
	out, err := Run(context.Background(), in, src, nil, RunOptions{Format: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if src.listed != 1 {
		t.Errorf("listed the base %d times, want 1", src.listed)
	}
	if got := fmt.Sprint(out[2].Outcomes[0].Err.Suggestions); got != "[src/b.py]" {
		t.Errorf("third reply: suggestions %s", got)
	}
}
