package golden

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestRoundTrip writes cases whose bytes txtar cannot hold as they are
// and reads them back unchanged.
func TestRoundTrip(t *testing.T) {
	cases := map[string]*Case{
		"plain": {Reply: "edit\n", In: map[string]File{"a.py": {"x = 1\n", false}}, Out: map[string]File{"a.py": {"x = 2\n", false}}, Report: "status: checked\n"},
		"bytes": {
			Comment: "CRLF, lone CR, BOM, NUL, invalid UTF-8, empty and unterminated files.\n",
			Reply:   "no final newline",
			Options: "format: auto",
			In: map[string]File{
				"crlf.txt":   {"a\r\nb\r\n", false},
				"cr.log":     {"step 1\rstep 2\r", false},
				"bom.cs":     {"\ufeffusing System;\n", false},
				"logo.png":   {"PNG\x00\x01\x02", false},
				"bad.txt":    {"\xff\xfe stray\n", false},
				"empty":      {"", false},
				"my dir/é":   {"x", true},
				"deploy.sh":  {"#!/bin/sh\n", true},
				"nl-only.md": {"\n", false},
			},
			Report: "",
		},
		"markers": {
			Reply: "-- in/a.py --\nnot a section\n",
			In: map[string]File{
				"a.txt":    {"text\n-- out/a.txt --\nmore\n", false},
				"crlf.txt": {"-- x --\r\n", false},
				"last.txt": {"first\n-- x --", false},
				"quoted":   {">already\n-- y --\n", true},
			},
			Out:    map[string]File{"a.txt": {"-- --\n--  --\n-- x\n", false}},
			Report: "message:\n  | -- report.txt --\n",
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			data, err := c.Format()
			if err != nil {
				t.Fatal(err)
			}
			back, err := Parse(data)
			if err != nil {
				t.Fatalf("%v\n%s", err, data)
			}
			if !back.Equal(c) {
				t.Errorf("read back as %+v\nfrom:\n%s", back, data)
			}
			again, err := back.Format()
			if err != nil || string(again) != string(data) {
				t.Errorf("written again differently (%v):\n%s", err, again)
			}
		})
	}
}

// TestFormatLayout pins the layout the package comment describes.
func TestFormatLayout(t *testing.T) {
	c := &Case{
		Comment: "A script loses its last newline.\n",
		Reply:   "the reply\n",
		Options: "format: auto\n",
		In:      map[string]File{"run.sh": {"echo hi", true}, "a.txt": {"a\n", false}},
		Out:     map[string]File{"run.sh": {"echo hi\n", true}},
		Report:  "status: checked\n",
	}
	want := `A script loses its last newline.
-- reply.md --
the reply
-- options --
format: auto
-- mode --
100755 in/run.sh
100755 out/run.sh
noeol in/run.sh
-- in/a.txt --
a
-- in/run.sh --
echo hi
-- out/run.sh --
echo hi
-- report.txt --
status: checked
`
	got, err := c.Format()
	if err != nil || string(got) != want {
		t.Errorf("got (%v):\n%s\nwant:\n%s", err, got, want)
	}
}

// TestRefused checks that what cannot be written back exactly, and
// archives the layout does not know, are errors.
func TestRefused(t *testing.T) {
	for _, c := range []*Case{
		{In: map[string]File{"trail.txt ": {"x\n", false}}},
		{In: map[string]File{"a\nb": {"x\n", false}}},
		{Comment: "-- reply.md --\n"},
	} {
		if data, err := c.Format(); err == nil {
			t.Errorf("%+v written as:\n%s", c, data)
		}
	}
	for _, data := range []string{
		"-- reply.md --\n-- want.diff --\n",
		"-- reply.md --\n-- reply.md --\n",
		"-- reply.md --\n-- mode --\n100755 reply.md\n",
		"-- reply.md --\n-- mode --\nnoeol in/a.txt\n",
		"-- reply.md --\n-- mode --\n644 reply.md\n",
		"-- reply.md --\n-- mode --\nnoeol reply.md\n",
		"-- reply.md --\n>x\ny\n-- mode --\nquote reply.md\n",
	} {
		if c, err := Parse([]byte(data)); err == nil {
			t.Errorf("%q read as %+v", data, c)
		}
	}
}

// TestOnlyTests checks that no package but a test imports golden: it
// reads testdata written for tests, not anything a user has.
func TestOnlyTests(t *testing.T) {
	const self = "github.com/git-llm-apply/git-llm-apply/internal/golden"
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == self {
				t.Errorf("%s imports %s", p, self)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
