package translate

import (
	"testing"
)

var clineContract = readerContract{parse: readCline, formats: []string{FormatCline}, pathBreaks: "\r\n"}

func TestParseCline(t *testing.T) {
	call := func(body string) string {
		return "<replace_in_file>\n<path>a.py</path>\n<diff>\n" + body + "</diff>\n</replace_in_file>\n"
	}
	edit := func(line int, old, new []string) Operation {
		return Operation{Kind: Edit, Path: "a.py", LineEdit: LineEdit{Old: old, New: new}, Placement: Placement{FirstMatch: true, Ordered: true, Group: 1}, Line: line, Format: FormatCline}
	}
	clineContract.runReplyCases(t, []replyCase{
		{name: "one block", reply: "Fix it.\n\n" + call("------- SEARCH\nx = 1\n=======\nx = 2\n+++++++ REPLACE\n"),
			ops: []Operation{edit(6, []string{"x = 1"}, []string{"x = 2"})}, prose: []string{"Fix it."}},
		{name: "legacy markers and three characters", reply: call("<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n--- SEARCH>\nz\n===\n+++ REPLACE>\n"),
			ops: []Operation{edit(4, []string{"x"}, []string{"y"}), edit(9, []string{"z"}, []string{})}},
		{name: "near miss", reply: call("-------SEARCH\nx\n=======\ny\n+++++++ replace\n"),
			ops: []Operation{edit(4, []string{"x"}, []string{"y"})},
			warnings: []Warning{
				{Line: 4, Msg: `"-------SEARCH" is read as the Cline SEARCH/REPLACE marker "------- SEARCH"; write it as the format spells it`},
				{Line: 8, Msg: `"+++++++ replace" is read as the Cline SEARCH/REPLACE marker "+++++++ REPLACE"; write it as the format spells it`}}},
		{name: "empty search creates", reply: call("------- SEARCH\n=======\nnew\n+++++++ REPLACE\n"),
			ops: []Operation{{Kind: Create, Format: FormatCline, Path: "a.py", LineEdit: LineEdit{New: []string{"new"}}, Line: 4}}},
		{name: "blank search fails", reply: call("------- SEARCH\n\n=======\nnew\n+++++++ REPLACE\n"),
			failed: []Failure{{Line: 4, Path: "a.py", Msg: "the SEARCH part holds only blank lines, which say nothing of where the block goes: copy the lines to replace from the file"}}},
		{name: "no divider", reply: call("------- SEARCH\nx\n+++++++ REPLACE\n------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n"),
			ops:    []Operation{edit(7, []string{"a"}, []string{"b"})},
			failed: []Failure{{Line: 4, Path: "a.py", Msg: `the block has no "=======" divider: "+++++++ REPLACE" comes first, at line 6`}}},
		{name: "missing end marker is read to the diff's end", reply: call("------- SEARCH\nx\n=======\ny\n"),
			ops:      []Operation{edit(4, []string{"x"}, []string{"y"})},
			warnings: []Warning{{Line: 4, Msg: `the block has no end marker "+++++++ REPLACE"; its REPLACE part runs to </diff>`}}},
		{name: "no closing diff", reply: "<replace_in_file>\n<path>a.py</path>\n<diff>\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n",
			failed: []Failure{{Line: 3, Path: "a.py", Msg: "the <diff> of a.py has no </diff>: the reply may be cut short, so none of its blocks is applied"}}},
		{name: "no path", reply: "<replace_in_file>\n<diff>\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n",
			failed: []Failure{{Line: 1, Msg: "the <replace_in_file> call has no <path>: write <path>the file's path</path> first inside it"}}},
		{name: "path without its end, the content on its line", reply: "<write_to_file><path><content>x</content>\n</write_to_file>\n",
			failed: []Failure{{Line: 1, Msg: "the <path> of the <write_to_file> call has no </path>: write <path>the file's path</path>"}}},
		{name: "path without its end on lines of its own", reply: "<write_to_file>\n<path>\np.md\n<content>\nx\n</content>\n</write_to_file>\n",
			failed: []Failure{{Line: 2, Msg: "the <path> of the <write_to_file> call has no </path>: write <path>the file's path</path>"}}},
		{name: "path holding a carriage return", reply: "<write_to_file><path>a\rb</path><content>x</content></write_to_file>\n",
			failed: []Failure{{Line: 1, Msg: "the <path> of the <write_to_file> call must hold the file's path on one line"}}},
		{name: "write_to_file in a fence, indentation kept", reply: "```xml\n<write_to_file>\n<path>b.md</path>\n<content>\n    indented\nx\n\n</content>\n</write_to_file>\n```\n",
			ops: []Operation{{Kind: Create, Format: FormatCline, FileCreate: FileCreate{Overwrite: true}, Path: "b.md", LineEdit: LineEdit{New: []string{"    indented", "x"}}, Line: 2}}},
		{name: "write_to_file holding its own tag", reply: "<write_to_file>\n<path>p.md</path>\n<content>\n<content>\n</content>\n</content>\n</write_to_file>\n",
			ops: []Operation{{Kind: Create, Format: FormatCline, FileCreate: FileCreate{Overwrite: true}, Path: "p.md", LineEdit: LineEdit{New: []string{"<content>", "</content>"}}, Line: 1}}},
		{name: "write_to_file cut short", reply: "<write_to_file>\n<path>p.md</path>\n<content>\nline\n",
			failed: []Failure{{Line: 3, Path: "p.md", Msg: "the <content> of p.md has no </content>: the file may be cut short, so it is not written; send the whole file again"}}},
		{name: "inline tags", reply: "<write_to_file><path>p.txt</path><content>one</content></write_to_file>\n",
			ops: []Operation{{Kind: Create, Format: FormatCline, FileCreate: FileCreate{Overwrite: true}, Path: "p.txt", LineEdit: LineEdit{New: []string{"one"}}, Line: 1}}},
		{name: "a call after an unclosed shell fence", reply: "Run:\n```bash\nnpm test\n\n<write_to_file>\n<path>p.txt</path>\n<content>\none\n</content>\n</write_to_file>\n",
			ops:   []Operation{{Kind: Create, Format: FormatCline, FileCreate: FileCreate{Overwrite: true}, Path: "p.txt", LineEdit: LineEdit{New: []string{"one"}}, Line: 5}},
			prose: []string{"Run:"}, shell: []Shell{{Line: 2, Lang: "bash", Text: "npm test\n\n"}}},
		{name: "roo's tool under cline", reply: "<apply_diff>\n<path>a.py</path>\n</apply_diff>\n",
			failed: []Failure{{Line: 1, Msg: "<apply_diff> is a tool of the roo format, not of cline: read the reply with --format auto or --format roo"}}},
	})
	clineContract.checkNoEdits(t, "no calls\n", "------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n")
}

func TestClinePromptExample(t *testing.T) {
	r := clineContract.readPromptExample(t)
	if len(r.Ops) != 3 {
		t.Fatalf("%d operations", len(r.Ops))
	}
}
