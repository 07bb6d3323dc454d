package translate

import (
	"testing"
)

var rooContract = readerContract{parse: readRoo, formats: []string{FormatRoo}, pathBreaks: "\r\n"}

func TestParseRoo(t *testing.T) {
	call := func(body string) string {
		return "<apply_diff>\n<path>a.py</path>\n<diff>\n" + body + "</diff>\n</apply_diff>\n"
	}
	edit := func(line, hint int, old, new []string) Operation {
		return Operation{Kind: Edit, Format: FormatRoo, Path: "a.py", LineEdit: LineEdit{Old: old, New: new}, Placement: Placement{LineHint: hint, Group: 1}, Line: line}
	}
	rooContract.runReplyCases(t, []replyCase{
		{name: "start line", reply: call("<<<<<<< SEARCH\n:start_line:12\n-------\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"),
			ops: []Operation{edit(4, 12, []string{"x = 1"}, []string{"x = 2"})}},
		{name: "end line and no dashes", reply: call("<<<<<<< SEARCH>\n:start_line:3\n:end_line:3\nx\n=======\ny\n>>>>>>> REPLACE\n"),
			ops: []Operation{edit(4, 3, []string{"x"}, []string{"y"})}},
		{name: "escaped markers", reply: call("<<<<<<< SEARCH\n\\=======\n\\-------\n=======\n\\>>>>>>> theirs\n>>>>>>> REPLACE\n"),
			ops: []Operation{edit(4, 0, []string{"=======", "-------"}, []string{">>>>>>> theirs"})}},
		{name: "line numbers taken off", reply: call("<<<<<<< SEARCH\n7 | x\n8 |   y\n=======\n7 | z\n>>>>>>> REPLACE\n"),
			ops:      []Operation{edit(4, 7, []string{"x", "  y"}, []string{"z"})},
			warnings: []Warning{{Line: 4, Msg: `every line of the block starts with a line number ("12 | "); the numbers are taken off`}}},
		{name: "near misses", reply: call("<<<<<<<SEARCH\nx\n=======\ny\n>>>>>> REPLACE\n"),
			ops: []Operation{edit(4, 0, []string{"x"}, []string{"y"})},
			warnings: []Warning{
				{Line: 4, Msg: `"<<<<<<<SEARCH" is read as the SEARCH/REPLACE marker "<<<<<<< SEARCH"; write it as the format spells it`}}},
		{name: "empty search fails", reply: call("<<<<<<< SEARCH\n:start_line:1\n-------\n=======\ny\n>>>>>>> REPLACE\n"),
			failed: []Failure{{Line: 4, Path: "a.py", Msg: "the SEARCH part is empty: Roo Code's blocks must name the lines they replace; to add lines, replace a line next to them with it and the new lines"}}},
		{name: "identical parts fail", reply: call("<<<<<<< SEARCH\nx\n=======\nx\n>>>>>>> REPLACE\n"),
			failed: []Failure{{Line: 4, Path: "a.py", Msg: "the SEARCH and REPLACE parts are the same: the block changes nothing"}}},
		{name: "line marker in replace", reply: call("<<<<<<< SEARCH\nx\n=======\n:start_line:2\ny\n>>>>>>> REPLACE\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"),
			ops:    []Operation{edit(10, 0, []string{"a"}, []string{"b"})},
			failed: []Failure{{Line: 4, Path: "a.py", Msg: `":start_line:2" stands in the REPLACE part, at line 7: line markers belong right after "<<<<<<< SEARCH"`}}},
		{name: "bad start line", reply: call("<<<<<<< SEARCH\n:start_line:abc\nx\n=======\ny\n>>>>>>> REPLACE\n"),
			failed: []Failure{{Line: 4, Path: "a.py", Msg: `":start_line:abc" is no line number: write :start_line: and the line of the file where the SEARCH lines start`}}},
		{name: "no end", reply: call("<<<<<<< SEARCH\nx\n=======\ny\n"),
			failed: []Failure{{Line: 4, Path: "a.py", Msg: `the block has no end marker ">>>>>>> REPLACE": the diff ends first`}}},
		{name: "write_to_file line count", reply: "<write_to_file>\n<path>b.txt</path>\n<content>\none\ntwo\n</content>\n<line_count>2</line_count>\n</write_to_file>\n",
			ops: []Operation{{Kind: Create, Format: FormatRoo, FileCreate: FileCreate{Overwrite: true}, Path: "b.txt", LineEdit: LineEdit{New: []string{"one", "two"}}, Line: 1}}},
		{name: "write_to_file truncated", reply: "<write_to_file>\n<path>b.txt</path>\n<content>\none\n</content>\n<line_count>40</line_count>\n</write_to_file>\n",
			failed: []Failure{{Line: 6, Path: "b.txt", Msg: "the content of b.txt has 1 lines but its <line_count> says 40: the file was cut short or padded, so it is not written; send the whole file again"}}},
		{name: "multi-file args", reply: "<apply_diff>\n<args>\n<file>\n<path>a.py</path>\n<diff>\n<content><![CDATA[\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n]]></content>\n<start_line>5</start_line>\n</diff>\n</file>\n</args>\n</apply_diff>\n",
			ops: []Operation{edit(7, 5, []string{"x"}, []string{"y"})}},
	})
	rooContract.checkNoEdits(t, "no calls\n", "<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n")
}

func TestRooPromptExample(t *testing.T) {
	r := rooContract.readPromptExample(t)
	if len(r.Ops) != 3 || r.Ops[0].LineHint != 1 || r.Ops[1].LineHint != 8 {
		t.Fatalf("operations %+v", r.Ops)
	}
}

// TestDetectAgents checks that auto detection reads the blocks inside
// the agents' calls with their readers only, and gives a lone
// <write_to_file> to one of them.
func TestDetectAgents(t *testing.T) {
	roo := "<apply_diff>\n<path>a.py</path>\n<diff>\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n</diff>\n</apply_diff>\n"
	cline := "<replace_in_file>\n<path>a.py</path>\n<diff>\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n</diff>\n</replace_in_file>\n"
	write := "<write_to_file>\n<path>b.txt</path>\n<content>\nb\n</content>\n</write_to_file>\n"
	writeRoo := "<write_to_file>\n<path>b.txt</path>\n<content>\nb\n</content>\n<line_count>1</line_count>\n</write_to_file>\n"
	stray := "a.py\n```\n<<<<<<< SEARCH\nz\n=======\nw\n>>>>>>> REPLACE\n```\n"
	for _, tc := range []struct {
		name, reply, format string
		ops                 int
	}{
		{"roo", roo, "roo", 1},
		{"cline", cline, "cline", 1},
		{"write alone is cline's", write, "cline", 1},
		{"write with line count is roo's", writeRoo, "roo", 1},
		{"write beside apply_diff is roo's", roo + write, "roo", 2},
		{"write beside both is cline's", roo + cline + write, "roo+cline", 3},
		{"diff block outside", roo + stray, "roo+diff", 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse(tc.reply, ParseOptions{})
			if err != nil || r.Format != tc.format || len(r.Ops) != tc.ops {
				t.Fatalf("format %q, %d ops, error %v", r.Format, len(r.Ops), err)
			}
			for _, op := range r.Ops {
				if op.Kind == Invalid {
					t.Fatalf("invalid operation %+v", op)
				}
			}
		})
	}
	// A stray Cline marker outside any call fails naming its line.
	_, err := Parse("Here:\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n", ParseOptions{})
	if pe := asParseError(t, err); pe.Line != 2 || pe.Format != FormatCline {
		t.Fatalf("error %v", err)
	}
}
