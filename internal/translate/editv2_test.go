package translate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ev2Edit is an edit-v2 Edit operation as readEditV2 builds it.
func ev2Edit(path string, line int, before, old, new, after []string) Operation {
	return Operation{Kind: Edit, Format: FormatEditV2, Path: path, LineEdit: LineEdit{Before: before, Old: old, New: new, After: after}, Line: line}
}

func ev2Create(path string, line int, new ...string) Operation {
	return Operation{Kind: Create, Format: FormatEditV2, Path: path, LineEdit: LineEdit{New: new}, Line: line}
}

func ev2Lines(l ...string) []string { return l }

func TestParseEditV2(t *testing.T) {
	editV2Contract.runReplyCases(t, []replyCase{{
		name: "seed modify, unfenced",
		reply: `Multiply instead.

src/utils.py
<<<<<<< EDIT
def calculate(a, b):
-------
    return a + b
=======
    return a * b
-------

def other_function():
>>>>>>>
`,
		ops:   []Operation{ev2Edit("src/utils.py", 4, ev2Lines("def calculate(a, b):"), ev2Lines("    return a + b"), ev2Lines("    return a * b"), ev2Lines("", "def other_function():"))},
		prose: ev2Lines("Multiply instead."),
	}, {
		name:  "seed create, fenced, path first inside the fence",
		reply: "```python\nsrc/new_file.py\n<<<<<<< EDIT\n-------\n=======\n\"\"\"New module.\"\"\"\n\ndef hello():\n    print(\"Hello!\")\n-------\n>>>>>>>\n```\n",
		ops:   []Operation{ev2Create("src/new_file.py", 3, `"""New module."""`, "", "def hello():", `    print("Hello!")`)},
	}, {
		name:  "insert, delete: empty old lines, empty new lines",
		reply: "a.py\n<<<<<<< EDIT\nx\n-------\n=======\ny\n-------\nz\n>>>>>>>\na.py\n<<<<<<< EDIT\nx\n-------\ny\n=======\n-------\nz\n>>>>>>>\n",
		ops: []Operation{
			ev2Edit("a.py", 2, ev2Lines("x"), nil, ev2Lines("y"), ev2Lines("z")),
			ev2Edit("a.py", 11, ev2Lines("x"), ev2Lines("y"), nil, ev2Lines("z")),
		},
	}, {
		name:  "append and insert at start: one empty anchor",
		reply: "a.py\n<<<<<<< EDIT\nlast\n-------\n=======\nmore\n-------\n>>>>>>>\n\na.py\n<<<<<<< EDIT\n-------\n=======\n\"\"\"Doc.\"\"\"\n\n-------\nimport os\n>>>>>>>\n",
		ops: []Operation{
			ev2Edit("a.py", 2, ev2Lines("last"), nil, ev2Lines("more"), nil),
			ev2Edit("a.py", 11, nil, nil, ev2Lines(`"""Doc."""`, ""), ev2Lines("import os")),
		},
	}, {
		name: "one fence wraps several blocks",
		reply: "Two files.\n\n```\n" +
			"a.py\n<<<<<<< EDIT\n-------\nx = 1\n=======\nx = 2\n-------\n>>>>>>>\n\n" +
			"b/c.go\n<<<<<<< EDIT\n-------\nvar y = 1\n=======\nvar y = 2\n-------\n>>>>>>>\n```\nDone.\n",
		ops: []Operation{
			ev2Edit("a.py", 5, nil, ev2Lines("x = 1"), ev2Lines("x = 2"), nil),
			ev2Edit("b/c.go", 14, nil, ev2Lines("var y = 1"), ev2Lines("var y = 2"), nil),
		},
		prose: ev2Lines("Two files.", "", "Done."),
	}, {
		// The text of a fence that wraps a block is prose; its fence
		// lines and blank lines are not.
		name:  "text inside a fence that wraps a block",
		reply: "One file.\n```\na.py\n<<<<<<< EDIT\n-------\nx = 1\n=======\nx = 2\n-------\n>>>>>>>\n\nThen b.\n```\n",
		ops:   []Operation{ev2Edit("a.py", 4, nil, ev2Lines("x = 1"), ev2Lines("x = 2"), nil)},
		prose: ev2Lines("One file.", "Then b."),
	}, {
		name:  "path above the fence, cleaned of Markdown",
		reply: "### **`src/a.py`**:\n```python\n<<<<<<< EDIT\n-------\nold\n=======\nnew\n-------\n>>>>>>>\n```\n",
		ops:   []Operation{ev2Edit("src/a.py", 3, nil, ev2Lines("old"), ev2Lines("new"), nil)},
	}, {
		name:  "path as the fence's info string",
		reply: "```src/a.py\n<<<<<<< EDIT\n-------\nold\n=======\nnew\n-------\n>>>>>>>\n```\n",
		ops:   []Operation{ev2Edit("src/a.py", 2, nil, ev2Lines("old"), ev2Lines("new"), nil)},
	}, {
		name:  "path cleaning: backticks, bold, heading, colon",
		reply: "`a.py`\n<<<<<<< EDIT\n-------\n1\n=======\n2\n-------\n>>>>>>>\n**b.py**\n<<<<<<< EDIT\n-------\n1\n=======\n2\n-------\n>>>>>>>\n# c.py\n<<<<<<< EDIT\n-------\n1\n=======\n2\n-------\n>>>>>>>\nd.py:\n<<<<<<< EDIT\n-------\n1\n=======\n2\n-------\n>>>>>>>\n",
		ops: []Operation{
			ev2Edit("a.py", 2, nil, ev2Lines("1"), ev2Lines("2"), nil),
			ev2Edit("b.py", 10, nil, ev2Lines("1"), ev2Lines("2"), nil),
			ev2Edit("c.py", 18, nil, ev2Lines("1"), ev2Lines("2"), nil),
			ev2Edit("d.py", 26, nil, ev2Lines("1"), ev2Lines("2"), nil),
		},
	}, {
		name:  "content that looks like markers or fences is content",
		reply: "README.md\n<<<<<<< EDIT\n```sh\n-------\n    -------\n------\n========\n  =======\n=======\n```\n>>>>>>> main\n-------\n```\n>>>>>>>\n",
		ops:   []Operation{ev2Edit("README.md", 2, ev2Lines("```sh"), ev2Lines("    -------", "------", "========", "  ======="), ev2Lines("```", ">>>>>>> main"), ev2Lines("```"))},
	}, {
		name:  "markers with trailing white space, CRLF reply",
		reply: "a.py\r\n<<<<<<< EDIT \r\nx\r\n-------\t\r\ny \r\n=======  \r\nz\r\n------- \r\n>>>>>>> \r\n",
		ops:   []Operation{ev2Edit("a.py", 2, ev2Lines("x"), ev2Lines("y "), ev2Lines("z"), nil)},
	}, {
		name:  "trailing white space and blank lines of content are kept",
		reply: "a.py\n<<<<<<< EDIT\n\n-------\n  x  \n=======\n\n\n-------\n\n>>>>>>>\n",
		ops:   []Operation{ev2Edit("a.py", 2, ev2Lines(""), ev2Lines("  x  "), ev2Lines("", ""), ev2Lines(""))},
	}, {
		name: "shell fences are reported, other fences are prose",
		reply: "Remove the old module.\n\n```bash\ngit rm old.py\n```\n\nIt was:\n\n```python\nx = 1\n```\n\n" +
			"```bash\nrun.sh\n<<<<<<< EDIT\n-------\nold\n=======\nnew\n-------\n>>>>>>>\n```\n",
		ops:   []Operation{ev2Edit("run.sh", 15, nil, ev2Lines("old"), ev2Lines("new"), nil)},
		shell: []Shell{{Line: 3, Lang: "bash", Text: "git rm old.py\n"}},
		prose: ev2Lines("Remove the old module.", "", "It was:", "", "```python", "x = 1", "```"),
	}, {
		// A start marker names its format: its near misses start blocks,
		// with a warning per spelling.
		name: "near-miss start markers are read with a warning",
		reply: "Edits:\na.py\n<<<<<<<< EDIT\n-------\n1\n=======\n2\n-------\n>>>>>>>\n" +
			"b.py\n  <<<<<<< EDIT\n-------\n3\n=======\n4\n-------\n>>>>>>>\n" +
			"c.py\n<<<<<<<edit\n-------\n5\n=======\n6\n-------\n>>>>>>>\n" +
			"d.py\n<<<<<<<edit\n-------\n7\n=======\n8\n-------\n>>>>>>>\n",
		ops: []Operation{
			ev2Edit("a.py", 3, nil, ev2Lines("1"), ev2Lines("2"), nil),
			ev2Edit("b.py", 11, nil, ev2Lines("3"), ev2Lines("4"), nil),
			ev2Edit("c.py", 19, nil, ev2Lines("5"), ev2Lines("6"), nil),
			ev2Edit("d.py", 27, nil, ev2Lines("7"), ev2Lines("8"), nil),
		},
		prose: ev2Lines("Edits:"),
		warnings: []Warning{
			{Line: 3, Msg: `"<<<<<<<< EDIT" is read as the edit-v2 marker "<<<<<<< EDIT"; write it as the format spells it`},
			{Line: 11, Msg: `"  <<<<<<< EDIT" is read as the edit-v2 marker "<<<<<<< EDIT"; write it as the format spells it`},
			{Line: 19, Msg: `"<<<<<<<edit" is read as the edit-v2 marker "<<<<<<< EDIT" (so is line 27); write it as the format spells it`},
		},
	}})
}

func TestParseEditV2Errors(t *testing.T) {
	const ok = "a.py\n<<<<<<< EDIT\n-------\n1\n=======\n2\n-------\n>>>>>>>\n"
	tests := []struct {
		name  string
		reply string
		line  int
		msg   string // a part of the message
		ops   int    // blocks parsed before the error
		prose []string
	}{
		{name: "missing path at reply start", reply: "<<<<<<< EDIT\n-------\n=======\nx\n-------\n>>>>>>>\n",
			line: 1, msg: "missing file path: write the file's path alone on the line right before \"<<<<<<< EDIT\"; the block starts the reply"},
		{name: "prose is not a path", reply: "Here is the change:\n<<<<<<< EDIT\n-------\n=======\nx\n-------\n>>>>>>>\n",
			line: 2, msg: `line 1, "Here is the change:", is not a file path`, prose: ev2Lines("Here is the change:")},
		{name: "blank line between path and block", reply: "a.py\n\n<<<<<<< EDIT\n-------\n=======\nx\n-------\n>>>>>>>\n",
			line: 3, msg: "line 2 is blank", prose: ev2Lines("a.py")},
		{name: "second block reuses no path", reply: ok + "<<<<<<< EDIT\n-------\n=======\nx\n-------\n>>>>>>>\n",
			line: 9, ops: 1, msg: "line 8 ends the block before (each block needs its own path line)"},
		{name: "fence names no file", reply: "Change it:\n```python\n<<<<<<< EDIT\n-------\n=======\nx\n-------\n>>>>>>>\n```\n",
			line: 3, msg: `line 2 opens a fence, and line 1 above it, "Change it:", is not a file path`, prose: ev2Lines("Change it:")},
		{name: "no end before the next block", reply: ok + "b.py\n<<<<<<< EDIT\n-------\n=======\nx\n-------\nc.py\n<<<<<<< EDIT\n",
			line: 10, ops: 1, msg: `the block has no ">>>>>>>" end marker: the next "<<<<<<< EDIT" comes first, at line 16`},
		{name: "no end before the reply ends", reply: "a.py\n<<<<<<< EDIT\n-------\n=======\nx\n-------\n",
			line: 2, msg: `the block has no ">>>>>>>" end marker: the reply ends first, at line 6`},
		{name: "near-miss end marker named", reply: "a.py\n<<<<<<< EDIT\n-------\n=======\nx\n-------\n>>>>>>> REPLACE\n",
			line: 2, msg: `(line 7, ">>>>>>> REPLACE", is not read as a marker: markers have exactly seven characters and start the line)`},
		{name: "no separators at all", reply: "a.py\n<<<<<<< EDIT\nx\n>>>>>>>\n",
			line: 2, msg: `the block has no first ------- (after the leading anchor) line: ">>>>>>>" comes first, at line 4`},
		{name: "SEARCH/REPLACE-shaped block", reply: "a.py\n<<<<<<< EDIT\nx\n=======\ny\n>>>>>>>\n",
			line: 2, msg: `line 4 is "=======" where the block needs its first ------- (after the leading anchor) line`},
		{name: "no second dash separator", reply: "a.py\n<<<<<<< EDIT\nx\n-------\ny\n=======\nz\n>>>>>>>\n",
			line: 2, msg: `no second ------- (after the new lines) line: ">>>>>>>" comes first, at line 8`},
		{name: "short separator named", reply: "a.py\n<<<<<<< EDIT\nx\n-------\ny\n======\nz\n-------\n>>>>>>>\n",
			line: 2, msg: `line 8 is "-------" where the block needs its ======= (after the old lines) line`},
		{name: "two dashes in a row", reply: "a.py\n<<<<<<< EDIT\n-------\n-------\n=======\n>>>>>>>\n",
			line: 2, msg: `line 4 is "-------" where the block needs its ======= (after the old lines) line`},
		{name: "fourth separator", reply: "a.py\n<<<<<<< EDIT\n-------\n=======\nx\n-------\nReturns\n-------\n>>>>>>>\n",
			line: 2, msg: `line 8, "-------", is a fourth separator`},
		{name: "stray end marker", reply: ok + "\nb.py\n-------\nc\n=======\nd\n-------\n>>>>>>>\n",
			line: 16, ops: 1, msg: `the edit-v2 marker ">>>>>>>" stands outside any edit-v2 block`,
			prose: ev2Lines("b.py", "-------", "c", "=======", "d", "-------")},
		{name: "an edit that does nothing", reply: "Nothing.\n\n" + ok + "b.py\n<<<<<<< EDIT\n-------\n=======\n-------\n>>>>>>>\nAfter.\n",
			line: 12, ops: 1, msg: "the block changes nothing", prose: ev2Lines("Nothing.")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := readEditV2(tt.reply)
			pe := asParseError(t, err)
			if pe.Format != FormatEditV2 || pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("error = %+v\nwant line %d and a message holding %q", pe, tt.line, tt.msg)
			}
			if r == nil || r.Format != FormatEditV2 || len(r.Ops) != tt.ops {
				t.Fatalf("reply = %+v, want %d operations parsed before the error", r, tt.ops)
			}
			if diff := cmp.Diff(tt.prose, r.Prose); diff != "" {
				t.Errorf("prose (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseEditV2NoEdits(t *testing.T) {
	editV2Contract.checkNoEdits(t, "", "Just prose.\n", "```bash\ngit rm a.py\n```\n", "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n")
	r, _ := readEditV2("Delete it.\n\n```sh\ngit rm a.py\n```\n")
	if want := []Shell{{Line: 3, Lang: "sh", Text: "git rm a.py\n"}}; !cmp.Equal(r.Shell, want) || !cmp.Equal(r.Prose, ev2Lines("Delete it.")) {
		t.Errorf("shell %+v, prose %q", r.Shell, r.Prose)
	}
}

func TestEditV2Markers(t *testing.T) {
	for _, tc := range []struct {
		line, marker string
		want         bool
	}{
		{"<<<<<<< EDIT", ev2Start, true},
		{"<<<<<<< EDIT \t", ev2Start, true},
		{" <<<<<<< EDIT", ev2Start, false},
		{"<<<<<< EDIT", ev2Start, false},
		{"<<<<<<<< EDIT", ev2Start, false},
		{"<<<<<<< EDIT x", ev2Start, false},
		{"<<<<<<<EDIT", ev2Start, false},
		{"-------", ev2Sep, true},
		{"------- ", ev2Sep, true},
		{"------", ev2Sep, false},
		{"--------", ev2Sep, false},
		{"    -------", ev2Sep, false},
		{"=======", ev2Mid, true},
		{"========", ev2Mid, false},
		{">>>>>>>", ev2End, true},
		{">>>>>>> ", ev2End, true},
		{">>>>>>>>", ev2End, false},
		{">>>>>>> REPLACE", ev2End, false},
	} {
		if got := ev2Is(tc.line, tc.marker); got != tc.want {
			t.Errorf("ev2Is(%q, %q) = %v", tc.line, tc.marker, got)
		}
	}
}

// TestEditV2PromptExample reads the prompt's worked example: it must
// parse cleanly, and the golden case that runs it through the engine
// must hold the same reply.
func TestEditV2PromptExample(t *testing.T) {
	if r := editV2Contract.readPromptExample(t); len(r.Prose) == 0 {
		t.Errorf("the prompt's example has no prose")
	}
}
