package translate

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fu is IndentUnit, short for the tables.
const fu = IndentUnit

// fiupReply joins lines into a reply, each ended by "\n".
func fiupReply(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

func TestParseFIUP(t *testing.T) {
	fiupContract.runReplyCases(t, []replyCase{{
		name: "replace, seed example 1",
		reply: fiupReply(
			"Take a list instead.",
			"",
			"```fiup",
			"<<<FIUP>>>",
			"[FILE]: src/utils.py",
			"[OP]: REPLACE",
			"[ANCHOR]",
			"def calculate_sum(a, b):",
			"→result = a + b",
			"→return result",
			"[CONTENT]",
			"def calculate_sum(numbers: list[int]) -> int:",
			"→if not numbers:",
			"→→return 0",
			"→return sum(numbers)",
			"<<<END>>>",
			"```",
			"",
			"Done.",
		),
		ops: []Operation{{
			Kind: Edit, Format: "fiup", Path: "src/utils.py", Line: 4,
			LineEdit: LineEdit{
				Old: []string{"def calculate_sum(a, b):", fu + "result = a + b", fu + "return result"},
				New: []string{"def calculate_sum(numbers: list[int]) -> int:", fu + "if not numbers:", fu + fu + "return 0", fu + "return sum(numbers)"},
			},
		}},
		prose: []string{"Take a list instead.", "", "Done."},
	}, {
		name: "insert after keeps the leading blank line, seed example 2",
		reply: fiupReply(
			"<<<FIUP>>>",
			"[FILE]: src/user.py",
			"[OP]: INSERT_AFTER",
			"[ANCHOR]",
			"→def get_name(self):",
			"→→return self.name",
			"[CONTENT]",
			"",
			"→def get_email(self):",
			"→→return self.email",
			"<<<END>>>",
		),
		ops: []Operation{{
			Kind: Edit, Format: "fiup", Path: "src/user.py", Line: 1,
			LineEdit: LineEdit{
				Before: []string{fu + "def get_name(self):", fu + fu + "return self.name"},
				New:    []string{"", fu + "def get_email(self):", fu + fu + "return self.email"},
			},
		}},
	}, {
		name: "insert before keeps the trailing blank line, seed example 3",
		reply: fiupReply(
			"<<<FIUP>>>",
			"[FILE]: main.py",
			"[OP]: INSERT_BEFORE",
			"[ANCHOR]",
			"class Application:",
			"→def __init__(self):",
			"[CONTENT]",
			"from typing import Optional",
			"",
			"<<<END>>>",
		),
		ops: []Operation{{
			Kind: Edit, Format: "fiup", Path: "main.py", Line: 1,
			LineEdit: LineEdit{
				After: []string{"class Application:", fu + "def __init__(self):"},
				New:   []string{"from typing import Optional", ""},
			},
		}},
	}, {
		name: "delete, seed example 4",
		reply: fiupReply(
			"<<<FIUP>>>",
			"[FILE]: legacy.py",
			"[OP]: DELETE",
			"[ANCHOR]",
			"def deprecated_function():",
			"→pass",
			"<<<END>>>",
		),
		ops: []Operation{{
			Kind: Edit, Format: "fiup", Path: "legacy.py", Line: 1, LineEdit: LineEdit{
				TrimBlank: true,
				Old:       []string{"def deprecated_function():", fu + "pass"},
			},
		}},
	}, {
		name: "delete with an empty content section",
		reply: fiupReply(
			"<<<FIUP>>>",
			"[FILE]: legacy.py",
			"[OP]: DELETE",
			"[ANCHOR]",
			"x = 1",
			"[CONTENT]",
			"",
			"<<<END>>>",
		),
		ops: []Operation{{Kind: Edit, Format: "fiup", Path: "legacy.py", Line: 1, LineEdit: LineEdit{TrimBlank: true, Old: []string{"x = 1"}}}},
	}, {
		name: "replace with empty content deletes",
		reply: fiupReply(
			"<<<FIUP>>>",
			"[FILE]: a.py",
			"[OP]: REPLACE",
			"[ANCHOR]",
			"x = 1",
			"[CONTENT]",
			"<<<END>>>",
		),
		ops: []Operation{{Kind: Edit, Format: "fiup", Path: "a.py", Line: 1, LineEdit: LineEdit{TrimBlank: true, Old: []string{"x = 1"}}}},
	}, {
		name: "create, seed example 5",
		reply: fiupReply(
			"<<<FIUP>>>",
			"[FILE]: src/new_module.py",
			"[OP]: CREATE",
			"[CONTENT]",
			`"""New module."""`,
			"",
			"class DataProcessor:",
			"→def __init__(self):",
			"→→self.data = []",
			"<<<END>>>",
		),
		ops: []Operation{{
			Kind: Create, Format: "fiup", Path: "src/new_module.py", Line: 1,
			LineEdit: LineEdit{New: []string{`"""New module."""`, "", "class DataProcessor:", fu + "def __init__(self):", fu + fu + "self.data = []"}},
		}},
	}, {
		name: "arrows: only leading ones indent, escaped ones are literal",
		reply: fiupReply(
			"<<<FIUP>>>",
			"[FILE]: a.py",
			"[OP]: REPLACE",
			"[ANCHOR]",
			"→print(\"a → b\")",
			"[CONTENT]",
			"→print(\"Arrow: \\→\")",
			"\\→→x",
			"→\\→y",
			"→→ z \\\\→",
			"<<<END>>>",
		),
		ops: []Operation{{
			Kind: Edit, Format: "fiup", Path: "a.py", Line: 1,
			LineEdit: LineEdit{
				Old: []string{fu + "print(\"a → b\")"},
				New: []string{fu + "print(\"Arrow: →\")", "→→x", fu + "→y", fu + fu + " z \\→"},
			},
		}},
	}, {
		name: "lenient markers: case, spaces, Markdown around the path and op",
		reply: fiupReply(
			"<<<fiup>>>",
			"  [file] : **`src/a b.py`**   ",
			"[Op]:  insert-after   ",
			"",
			"[anchor]:",
			"x = 1",
			"[Content]   ",
			"y = 2",
			" <<<END>>> ",
		),
		ops:      []Operation{{Kind: Edit, Format: "fiup", Path: "src/a b.py", Line: 1, LineEdit: LineEdit{Before: []string{"x = 1"}, New: []string{"y = 2"}}}},
		warnings: []Warning{{Line: 1, Msg: `"<<<fiup>>>" is read as the FIUP marker "<<<FIUP>>>"; write it as the format spells it`}},
	}, {
		name: "markers count only at the start of a line; content runs to END",
		reply: fiupReply(
			"<<<FIUP>>>",
			"[FILE]: doc.md",
			"[OP]: REPLACE",
			"[ANCHOR]",
			"Write [ANCHOR] then",
			" [CONTENT]",
			"[CONTENT]",
			"[FILE]: other.py",
			"[OP]: DELETE",
			"[ANCHOR]",
			"```python",
			"<<<END>>>",
		),
		ops: []Operation{{
			Kind: Edit, Format: "fiup", Path: "doc.md", Line: 1,
			LineEdit: LineEdit{
				Old: []string{"Write [ANCHOR] then", " [CONTENT]"},
				New: []string{"[FILE]: other.py", "[OP]: DELETE", "[ANCHOR]", "```python"},
			},
		}},
	}, {
		name: "several blocks per fence, several fences, bare blocks, a python fence in prose",
		reply: fiupReply(
			"Two changes to config.py. The old code was:",
			"",
			"```python",
			"DEBUG = True",
			"```",
			"",
			"```fiup",
			"<<<FIUP>>>",
			"[FILE]: config.py",
			"[OP]: REPLACE",
			"[ANCHOR]",
			"DEBUG = True",
			"[CONTENT]",
			"DEBUG = False",
			"<<<END>>>",
			"",
			"<<<FIUP>>>",
			"[FILE]: config.py",
			"[OP]: INSERT_AFTER",
			"[ANCHOR]",
			"DEBUG = False",
			"[CONTENT]",
			`LOG_LEVEL = "INFO"`,
			"<<<END>>>",
			"```",
			"And a bare one:",
			"<<<FIUP>>>",
			"[FILE]: b.py",
			"[OP]: DELETE",
			"[ANCHOR]",
			"b = 1",
			"<<<END>>>",
			"",
			"```text",
			"<<<FIUP>>>",
			"[FILE]: c.py",
			"[OP]: DELETE",
			"[ANCHOR]",
			"c = 1",
			"<<<END>>>",
			"```",
			"That is all.",
		),
		ops: []Operation{
			{Kind: Edit, Format: "fiup", Path: "config.py", Line: 8, LineEdit: LineEdit{Old: []string{"DEBUG = True"}, New: []string{"DEBUG = False"}}},
			{Kind: Edit, Format: "fiup", Path: "config.py", Line: 17, LineEdit: LineEdit{Before: []string{"DEBUG = False"}, New: []string{`LOG_LEVEL = "INFO"`}}},
			{Kind: Edit, Format: "fiup", Path: "b.py", Line: 27, LineEdit: LineEdit{TrimBlank: true, Old: []string{"b = 1"}}},
			{Kind: Edit, Format: "fiup", Path: "c.py", Line: 35, LineEdit: LineEdit{TrimBlank: true, Old: []string{"c = 1"}}},
		},
		prose: []string{"Two changes to config.py. The old code was:", "", "```python", "DEBUG = True", "```", "", "And a bare one:", "", "That is all."},
	}, {
		name:  "CRLF reply",
		reply: strings.ReplaceAll(fiupReply("<<<FIUP>>>", "[FILE]: a.py", "[OP]: REPLACE", "[ANCHOR]", "→a", "[CONTENT]", "→b", "", "<<<END>>>"), "\n", "\r\n"),
		ops:   []Operation{{Kind: Edit, Format: "fiup", Path: "a.py", Line: 1, LineEdit: LineEdit{Old: []string{fu + "a"}, New: []string{fu + "b", ""}}}},
	}})
}

func TestParseFIUPErrors(t *testing.T) {
	// ok is a complete block standing before the broken one.
	ok := []string{"Intro.", "```fiup", "<<<FIUP>>>", "[FILE]: ok.py", "[OP]: DELETE", "[ANCHOR]", "x", "<<<END>>>"}
	const first = 9 // the reply line after ok
	for _, tc := range []struct {
		name  string
		block []string
		line  int // relative to first
		msg   string
	}{
		{"unknown op", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: MODIFY", "[ANCHOR]", "x", "[CONTENT]", "y", "<<<END>>>"}, 2,
			`unknown operation "MODIFY": use one of REPLACE, INSERT_AFTER, INSERT_BEFORE, DELETE, CREATE`},
		{"missing file", []string{"<<<FIUP>>>", "[OP]: DELETE", "[ANCHOR]", "x", "<<<END>>>"}, 0,
			"the block has no [FILE]: line naming the file"},
		{"empty file", []string{"<<<FIUP>>>", "[FILE]:  ``", "[OP]: DELETE", "[ANCHOR]", "x", "<<<END>>>"}, 1,
			"[FILE]: names no file"},
		{"control character in the path", []string{"<<<FIUP>>>", "[FILE]: a\rb.py", "[OP]: DELETE", "[ANCHOR]", "x", "<<<END>>>"}, 1,
			`[FILE]: "a\rb.py" holds a control character`},
		{"missing op", []string{"<<<FIUP>>>", "[FILE]: a.py", "[ANCHOR]", "x", "<<<END>>>"}, 0,
			"the block has no [OP]: line (REPLACE, INSERT_AFTER, INSERT_BEFORE, DELETE, CREATE)"},
		{"second file", []string{"<<<FIUP>>>", "[FILE]: a.py", "[FILE]: b.py", "[OP]: DELETE", "[ANCHOR]", "x", "<<<END>>>"}, 2,
			"a second [FILE]: line in the block (the first is line 10); write one block per operation"},
		{"second op", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: DELETE", "[OP]: DELETE", "[ANCHOR]", "x", "<<<END>>>"}, 3,
			"a second [OP]: line in the block (the first is line 11); write one block per operation"},
		{"stray header line", []string{"<<<FIUP>>>", "[FILE]: a.py", "OP: DELETE", "[ANCHOR]", "x", "<<<END>>>"}, 2,
			`"OP: DELETE" is not a FIUP header line: expected [FILE]:, [OP]:, [ANCHOR] or [CONTENT]`},
		{"text after a section marker", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: DELETE", "[ANCHOR] x = 1", "<<<END>>>"}, 3,
			"text after [ANCHOR] on its line: the section starts on the next line"},
		{"anchor for create", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: CREATE", "[ANCHOR]", "x", "[CONTENT]", "y", "<<<END>>>"}, 3,
			"CREATE takes no [ANCHOR]: it writes a new file from [CONTENT] alone"},
		{"missing anchor", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: REPLACE", "[CONTENT]", "y", "<<<END>>>"}, 0,
			"REPLACE needs an [ANCHOR] section: the lines of a.py to locate"},
		{"blank anchor", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: INSERT_AFTER", "[ANCHOR]", "", "[CONTENT]", "y", "<<<END>>>"}, 3,
			"the [ANCHOR] holds no code: copy the lines of a.py to locate"},
		{"content for delete", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: DELETE", "[ANCHOR]", "x", "[CONTENT]", "y", "<<<END>>>"}, 5,
			"DELETE takes no [CONTENT]: use REPLACE to put new lines in place of the anchor"},
		{"missing content", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: REPLACE", "[ANCHOR]", "x", "<<<END>>>"}, 0,
			"REPLACE needs a [CONTENT] section"},
		{"missing content for create", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: CREATE", "<<<END>>>"}, 0,
			"CREATE needs a [CONTENT] section"},
		{"nothing to insert", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: INSERT_BEFORE", "[ANCHOR]", "x", "[CONTENT]", "<<<END>>>"}, 5,
			"the [CONTENT] of INSERT_BEFORE is empty: nothing to insert"},
		{"reply ends before END", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: REPLACE", "[ANCHOR]", "x", "[CONTENT]", "y", "```", "Done."}, 0,
			"the block has no <<<END>>>: the reply ends first, at line 17"},
		{"a new block before END", []string{"<<<FIUP>>>", "[FILE]: a.py", "[OP]: REPLACE", "[ANCHOR]", "x", "[CONTENT]", "y", "<<<FIUP>>>", "[FILE]: b.py", "[OP]: DELETE", "[ANCHOR]", "z", "<<<END>>>"}, 0,
			"the block has no <<<END>>>: <<<FIUP>>> at line 16 starts another block first"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reply := fiupReply(append(append([]string{}, ok...), tc.block...)...)
			r, err := readFIUP(reply)
			pe := asParseError(t, err)
			want := ParseError{Format: fiupFormat, Line: first + tc.line, Msg: tc.msg}
			if *pe != want {
				t.Errorf("ParseError = %+v\nwant         %+v", *pe, want)
			}
			if r == nil || len(r.Ops) != 1 || r.Ops[0].Path != "ok.py" {
				t.Errorf("want the block before the error, got %+v", r)
			}
			if diff := cmp.Diff([]string{"Intro."}, r.Prose); diff != "" {
				t.Errorf("prose (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseFIUPNoEdits(t *testing.T) {
	fiupContract.checkNoEdits(t, "", "Just prose.\n", "```fiup\n```\n", "[FILE]: a.py\n[OP]: DELETE\n")
}

func TestParseFIUPStrayEnd(t *testing.T) {
	r, err := readFIUP(fiupReply("<<<FIUP>>>", "[FILE]: a.py", "[OP]: DELETE", "[ANCHOR]", "x", "<<<END>>>", "<<<END>>>", "Bye."))
	if err != nil {
		t.Fatal(err)
	}
	want := []Warning{{Line: 7, Msg: `"<<<END>>>" stands outside any block; ignored`}}
	if diff := cmp.Diff(want, r.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Bye."}, r.Prose); diff != "" {
		t.Errorf("prose (-want +got):\n%s", diff)
	}
}

func TestFIUPDecode(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"x", "x"},
		{"→x", fu + "x"},
		{"→→→", fu + fu + fu},
		{"a → b", "a → b"},
		{`\→`, "→"},
		{`→\→→`, fu + "→→"},
		{" →x", " →x"},
		{"\t→x", "\t→x"},
	} {
		if got := fiupDecode(tc.in); got != tc.want {
			t.Errorf("fiupDecode(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFIUPPromptExample checks that the prompt's worked example reads
// without error, uses arrows and blank content edges the way the prompt
// says, and is the reply of the golden case testdata/fiup/prompt-example
// (which runs it through the engine).
func TestFIUPPromptExample(t *testing.T) {
	if r := fiupContract.readPromptExample(t); len(r.Ops) < 2 || len(r.Prose) == 0 {
		t.Errorf("the prompt's example should hold prose and several blocks: %+v", r)
	}
}

// TestFIUPGoldenReplies reads every reply of testdata/fiup: each gives
// operations or a *ParseError, never another error.
func TestFIUPGoldenReplies(t *testing.T) {
	for _, file := range goldenReplyFiles(t, fiupFormat) {
		r, err := readFIUP(file.text)
		var pe *ParseError
		if err != nil && !errors.As(err, &pe) {
			t.Errorf("%s: %v", file.name, err)
		}
		if err == nil && len(r.Ops) == 0 {
			t.Errorf("%s: no operations", file.name)
		}
	}
}
