package translate

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// chunkEdit is a CHUNK operation with the fields every op of a reply
// shares filled in.
func chunkEdit(line int, op Operation) Operation {
	op.Format, op.Line = FormatChunk, line
	return op
}

func TestParseChunkOps(t *testing.T) {
	reply := `description: "Every op"
language: C++
operations:
  - path: new.txt
    op: create_file
    payload: |-
      one
      two
  - path: old.txt
    op: delete_file
    comment: "  gone  "
  - path: a.cpp
    op: replace_text
    before: |-
      // before
    marker: |-
      int x;
    after: |-
      // after
    payload: |-
      long x;
  - path: a.cpp
    op: insert-after-text
    before: b
    marker: m
    after: a
    payload: p
  - path: a.cpp
    op: Insert_Before_Text
    before: b
    marker: m
    after: a
    payload: p
  - path: a.cpp
    op: DELETE-TEXT
    marker: |
      #include "debug.h"
  - path: a.cpp
    op: prepend_text
    payload: |
      // head
  - path: a.cpp
    op: append_text
    payload: "// tail"
  - path: a.cpp
    op: replace_c_style_block
    marker: |-
      int f()
      {
    payload: |-
      int f()
      {
          return 1;
      }
    options:
      indent: none
  - path: a.py
    op: replace_py_block
    marker: "def run(self):"
    payload: |-
      def run(self):
          pass
    options:
      indent: from_marker
`
	r, err := readChunk(reply)
	if err != nil {
		t.Fatal(err)
	}
	lang := "c++"
	want := []Operation{
		chunkEdit(4, Operation{Kind: Create, Path: "new.txt", LineEdit: LineEdit{New: []string{"one", "two"}}, FileCreate: FileCreate{Overwrite: true}, Placement: Placement{Indent: IndentAsIs}}),
		chunkEdit(9, Operation{Kind: Delete, Path: "old.txt", Comment: "gone", Placement: Placement{Indent: IndentAsIs}}),
		chunkEdit(12, Operation{Path: "a.cpp", LineEdit: LineEdit{Before: []string{"// before"}, Old: []string{"int x;"}, After: []string{"// after"}, New: []string{"long x;"}}, Placement: Placement{Indent: IndentAnchor, IndentFrom: 1}}),
		chunkEdit(22, Operation{Path: "a.cpp", LineEdit: LineEdit{Before: []string{"b", "m"}, After: []string{"a"}, New: []string{"p"}}, Placement: Placement{Indent: IndentAnchor, IndentFrom: 1}}),
		chunkEdit(28, Operation{Path: "a.cpp", LineEdit: LineEdit{Before: []string{"b"}, After: []string{"m", "a"}, New: []string{"p"}}, Placement: Placement{Indent: IndentAnchor, IndentFrom: 1}}),
		chunkEdit(34, Operation{Path: "a.cpp", LineEdit: LineEdit{Old: []string{`#include "debug.h"`}}, Placement: Placement{Indent: IndentAnchor}}),
		chunkEdit(38, Operation{Path: "a.cpp", Placement: Placement{Where: AtStart, Indent: IndentAsIs}, LineEdit: LineEdit{New: []string{"// head"}}}),
		chunkEdit(42, Operation{Path: "a.cpp", Placement: Placement{Where: AtEnd, Indent: IndentAsIs}, LineEdit: LineEdit{New: []string{"// tail"}}}),
		chunkEdit(45, Operation{Path: "a.cpp", LineEdit: LineEdit{Old: []string{"int f()", "{"}, New: []string{"int f()", "{", "    return 1;", "}"}, Block: CBraces}, Placement: Placement{Indent: IndentAsIs}}),
		chunkEdit(57, Operation{Path: "a.py", LineEdit: LineEdit{Old: []string{"def run(self):"}, New: []string{"def run(self):", "    pass"}, Block: PyIndent}, Placement: Placement{Indent: IndentAnchor}}),
	}
	for i := range want {
		want[i].Language = lang
	}
	if diff := cmp.Diff(want, r.Ops); diff != "" {
		t.Errorf("operations (-want +got):\n%s", diff)
	}
	if r.Format != FormatChunk || r.Description != "Every op" || len(r.Warnings) != 0 || len(r.Prose) != 0 {
		t.Errorf("reply %+v", r)
	}
}

func TestParseChunkScalars(t *testing.T) {
	reply := "operations:\n" +
		"- {path: a, op: create_file, payload: \"\"}\n" + // 2: empty file
		"- path: b\n  op: create_file\n  payload:\n" + // 3: null payload: empty
		"- path: c\n  op: append_text\n  payload: |+\n    x\n\n\n" + // 6: keep trailing blank lines
		"- path: d\n  op: append_text\n  payload: plain\n    folded\n" + // 11
		"- path: e\n  op: append_text\n  payload: 'it''s'\n" + // 15
		"- path: f\n  op: append_text\n  payload: 42\n" + // 18
		"- path: '`g.py`'\n  op: replace_text\n  marker: |2\n      indented\n    less\n  payload: \"a\\tb\\nc\"\n" // 21
	r, err := readChunk(reply)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, op := range r.Ops {
		got[op.Path] = append(op.Old, op.New...)
	}
	want := map[string][]string{
		"a": nil, "b": nil, "c": {"x", "", ""}, "d": {"plain folded"}, "e": {"it's"},
		"f": {"42"}, "g.py": {"  indented", "less", "a\tb", "c"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

func TestParseChunkWrapping(t *testing.T) {
	const doc = "operations:\n  - path: a.md\n    op: append_text\n    payload: |-\n      ```python\n      x\n      ```\n"
	tests := []struct {
		name  string
		reply string
		paths string // the operations' paths, in order
		line  int    // line of the first operation
		prose []string
		shell int
	}{
		{name: "bare", reply: doc, paths: "a.md", line: 2},
		{name: "yaml fence with prose", reply: "Append x.\n\n\n```yaml\n" + doc + "```\n\nDone.\n", paths: "a.md", line: 6,
			prose: []string{"Append x.", "", "Done."}},
		{name: "yml fence", reply: "```yml\n" + doc + "```\n", paths: "a.md", line: 3},
		{name: "chunk fence, four backticks", reply: "````chunk\n" + doc + "````\n", paths: "a.md", line: 3},
		{name: "unlabelled fence", reply: "Patch:\n```\n" + doc + "```", paths: "a.md", line: 4, prose: []string{"Patch:"}},
		{name: "bare after prose", reply: "Here it is:\n---\n" + doc, paths: "a.md", line: 4, prose: []string{"Here it is:"}},
		{name: "bare after a heading", reply: "Patch:\n\n# the ops\ndescription: |\n  d\n" + doc, paths: "a.md", line: 7, prose: []string{"Patch:"}},
		{name: "unclosed fence", reply: "```yaml\n" + doc, paths: "a.md", line: 3},
		{name: "config fence is prose", reply: "Config:\n```yaml\nkey: 1\n```\n```yaml\n" + doc + "```\n", paths: "a.md", line: 7,
			prose: []string{"Config:"}},
		{name: "two documents", reply: "```yaml\n" + doc + "```\nand\n```yaml\n" + strings.ReplaceAll(doc, "a.md", "b.md") + "```\n",
			paths: "a.md b.md", line: 3, prose: []string{"and"}},
		{name: "shell block", reply: "```bash\ngit rm x\n```\n```yaml\n" + doc + "```\n", paths: "a.md", line: 6, shell: 1},
		{name: "crlf", reply: strings.ReplaceAll("```yaml\n"+doc+"```\n", "\n", "\r\n"), paths: "a.md", line: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := readChunk(tt.reply)
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			for _, op := range r.Ops {
				paths = append(paths, op.Path)
				if diff := cmp.Diff([]string{"```python", "x", "```"}, op.New); diff != "" {
					t.Errorf("payload (-want +got):\n%s", diff)
				}
			}
			if got := strings.Join(paths, " "); got != tt.paths {
				t.Errorf("paths %q, want %q", got, tt.paths)
			}
			if r.Ops[0].Line != tt.line {
				t.Errorf("line %d, want %d", r.Ops[0].Line, tt.line)
			}
			if diff := cmp.Diff(tt.prose, r.Prose); diff != "" {
				t.Errorf("prose (-want +got):\n%s", diff)
			}
			if len(r.Shell) != tt.shell {
				t.Errorf("shell blocks %v", r.Shell)
			}
			if !detectChunk(tt.reply) {
				t.Error("detectChunk: false")
			}
		})
	}
}

func TestParseChunkNoEdits(t *testing.T) {
	for _, reply := range []string{
		"", "Just prose.\n", "```yaml\nkey: 1\n```\n", "```\noperations: x\n", // the last: a string, not a list
		"operations: []\n", "operations:\n", "```python\noperations: 1\n```\n",
	} {
		r, err := readChunk(reply)
		if reply == "```\noperations: x\n" {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != 2 {
				t.Errorf("%q: error %v, want one at line 2", reply, err)
			}
			continue
		}
		if !errors.Is(err, ErrNoEdits) || r == nil || len(r.Ops) != 0 {
			t.Errorf("%q: %v %+v, want ErrNoEdits", reply, err, r)
		}
		if got := detectChunk(reply); got != strings.Contains(reply, "operations:") && !strings.HasPrefix(reply, "```python") {
			t.Errorf("%q: detectChunk %v", reply, got)
		}
	}
}

func TestParseChunkErrors(t *testing.T) {
	const op = "  - path: a.py\n    op: replace_text\n    marker: x\n    payload: y\n"
	tests := []struct {
		name  string
		reply string
		line  int
		msg   string
		ops   int // operations read before the error
	}{
		{"alias", "operations:\n  - path: &p a.py\n    op: delete_file\n  - path: *p\n    op: delete_file\n", 2, "anchors (&p) are not allowed", 0},
		{"alias only", "description: x\noperations:\n  - path: a\n    op: delete_file\n    comment: *nowhere\n", 5, "unknown anchor", 0},
		{"duplicate root key", "operations:\n" + op + "operations:\n" + op, 6, `duplicate key "operations" in the document (first at line 1)`, 0},
		{"duplicate op key", "Intro.\n```yaml\noperations:\n" + op + "    marker: z\n```\n", 8, `duplicate key "marker" in operation 1 (first at line 6)`, 0},
		{"duplicate option", "operations:\n" + op + "    options:\n      indent: none\n      indent: auto\n", 8, `duplicate key "indent" in operation 1 options`, 0},
		{"unknown root field", "descripton: x\noperations:\n" + op, 1, `unknown field "descripton" in the document (known: description, language, operations)`, 0},
		{"unknown op field", "operations:\n" + op + op + "    markr: x\n", 10, `unknown field "markr" in operation 2`, 1},
		{"unknown option", "operations:\n" + op + "    options:\n      indnet: none\n", 7, `unknown field "indnet" in operation 1 options`, 0},
		{"bad op", "operations:\n" + op + "  - path: a.py\n    op: rename_file\n", 7, `unknown op "rename_file"`, 1},
		{"no op", "operations:\n  - path: a.py\n    marker: x\n", 2, "operation 1 has no op", 0},
		{"no path", "operations:\n  - op: delete_file\n", 2, "operation 1 (delete_file) has no path", 0},
		{"empty path", "operations:\n  - op: delete_file\n    path: ''\n", 3, "is not a file name", 0},
		{"no marker", "operations:\n  - op: replace-text\n    path: a\n    payload: x\n", 2, "operation 1 (replace_text) has no marker", 0},
		{"empty marker", "operations:\n  - op: delete_text\n    path: a\n    marker: |\n\n\n", 4, "the marker is empty", 0},
		{"no payload", "operations:\n  - op: insert_after_text\n    path: a\n    marker: x\n", 2, "has no payload", 0},
		{"bad indent", "operations:\n" + op + "    options:\n      indent: deep\n", 7, `unknown options.indent "deep"`, 0},
		{"options not a mapping", "operations:\n" + op + "    options: none\n", 6, "options must be a mapping", 0},
		{"marker as list", "operations:\n  - op: replace_text\n    path: a\n    marker:\n      - x\n    payload: y\n", 5, "marker must be text", 0},
		{"binary tag", "operations:\n  - op: append_text\n    path: a\n    payload: !!binary aGk=\n", 4, "YAML tag !!binary is not allowed", 0},
		{"root list", "```yaml\n- operations:\n  - path: a\n```\n", 0, "", 0}, // no top-level key: not a CHUNK reply
		{"root scalar", "operations\n---\noperations: 1\n", 0, "", 0},
		{"operations mapping", "operations:\n  path: a\n  op: delete_file\n", 2, "operations must be a list", 0},
		{"item not mapping", "operations:\n" + op + "  - delete a.py\n", 6, "operation 2 is a scalar", 1},
		{"syntax", "Patch:\n\n```yaml\noperations:\n  - path: a\n    op: replace_text\n    marker: [x\n    payload: y\n```\n", 8, "YAML: did not find expected ',' or ']'", 0},
		{"tab", "operations:\n\t- path: a\n", 2, "not tabs", 0},
		{"two documents", "operations:\n" + op + "---\noperations:\n" + op, 6, "several documents", 0},
		{"bad mapping", "operations:\n  - path: a\n    op: delete_file\n   oops: 1\n", 4, "YAML:", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := readChunk(tt.reply)
			if r == nil {
				t.Fatal("nil Reply")
			}
			if tt.msg == "" {
				if err == nil {
					t.Fatalf("no error; operations %+v", r.Ops)
				}
				return
			}
			pe := asParseError(t, err)
			if pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) || pe.Format != FormatChunk {
				t.Errorf("error %q at line %d, want %q at line %d", pe.Msg, pe.Line, tt.msg, tt.line)
			}
			if len(r.Ops) != tt.ops {
				t.Errorf("%d operations read, want %d", len(r.Ops), tt.ops)
			}
		})
	}
}

func TestParseChunkSizeBound(t *testing.T) {
	reply := "operations:\n  - path: a\n    op: append_text\n    payload: |\n" + strings.Repeat("      x\n", MaxChunkReply/8+1)
	_, err := readChunk(reply)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 1 || !strings.Contains(pe.Msg, "at most") {
		t.Fatalf("error %v, want the size bound", err)
	}
	if detectChunk(reply) {
		t.Error("detectChunk took an oversized reply")
	}
}

func TestParseChunkWarnings(t *testing.T) {
	reply := `language: COBOL
operations:
  - path: a
    op: append_text
    marker: x
    payload: y
  - path: b
    op: create_file
    before: x
    payload: ""
    options:
      indent: none
  - path: c
    op: delete_text
    marker: x
    payload: y
  - path: d
    op: delete_file
    payload: y
`
	r, err := readChunk(reply)
	if err != nil {
		t.Fatal(err)
	}
	want := []Warning{
		{1, `language "cobol" is not one whose comments are known (c++, python, or a file extension such as go); comments will not be ignored when matching`},
		{5, "operation 1: append_text does not use marker; ignored"},
		{9, "operation 2: create_file does not use before; ignored"},
		{11, "operation 2: create_file does not use options; ignored"},
		{16, "operation 3: delete_text does not use payload; ignored"},
		{19, "operation 4: delete_file does not use payload; ignored"},
	}
	if diff := cmp.Diff(want, r.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if r.Ops[0].Language != "cobol" {
		t.Errorf("language %q", r.Ops[0].Language)
	}
	for _, lang := range []string{"c++", "Python", "go", "rs"} {
		r, _ := readChunk("language: " + lang + "\noperations:\n  - path: a\n    op: delete_file\n")
		if len(r.Warnings) != 0 {
			t.Errorf("%s: %v", lang, r.Warnings)
		}
	}
}

func TestParseChunkIndent(t *testing.T) {
	for mode, want := range map[string]IndentMode{
		"": IndentAnchor, "from-marker": IndentAnchor, "marker": IndentAnchor, "AUTO": IndentAnchor,
		"none": IndentAsIs, "as-is": IndentAsIs, "as_is": IndentAsIs,
	} {
		reply := "operations:\n  - path: a\n    op: replace_text\n    marker: x\n    payload: y\n"
		if mode != "" {
			reply += "    options:\n      indent: " + mode + "\n"
		}
		r, err := readChunk(reply)
		if err != nil {
			t.Fatalf("%q: %v", mode, err)
		}
		if r.Ops[0].Indent != want {
			t.Errorf("%q: indent %v, want %v", mode, r.Ops[0].Indent, want)
		}
	}
}

func TestParseChunkDescription(t *testing.T) {
	r, err := readChunk("```yaml\ndescription: |\n  Fix the parser\n\n  It dropped lines.\noperations:\n  - {path: a, op: delete_file}\n```\n" +
		"```yaml\ndescription: Second\noperations:\n  - {path: b, op: delete_file}\n```\nSure, here you go.\n")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Fix the parser\n\nIt dropped lines.\n\nSecond"; r.Description != want {
		t.Errorf("description %q, want %q", r.Description, want)
	}
	if s, b := Describe(r); s != "Fix the parser" || b != "It dropped lines.\n\nSecond" {
		t.Errorf("Describe: %q %q", s, b)
	}
}

// TestChunkPromptExample checks that the prompt's worked example reads
// without error or warning and is the reply of the prompt-example
// golden case, which runs it through the engine.
func TestChunkPromptExample(t *testing.T) {
	if r := chunkContract.readPromptExample(t); r.Description == "" {
		t.Fatalf("the example has no description: %+v", r)
	}
}

// YAML nested beyond the parser's depth limit is refused with the reply
// line, never parsed into a deep tree.
func TestChunkDeepNesting(t *testing.T) {
	for _, payload := range []string{
		strings.Repeat("[", 1000000) + strings.Repeat("]", 1000000),
		strings.Repeat("{a: ", 20000) + "b" + strings.Repeat("}", 20000),
	} {
		_, err := readChunk("operations:\n  - path: a\n    op: append_text\n    payload: " + payload + "\n")
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != 4 || !strings.Contains(pe.Msg, "max depth") {
			t.Errorf("%.20s...: %v, want a *ParseError on line 4 about the depth", payload, err)
		}
	}
}
