package translate

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// nearMissReply is a reply whose block, written with the given lines,
// sits under the file name in a fence; the block starts at line 5.
func nearMissReply(block ...string) string {
	return "Fix it.\n\napp.py\n```python\n" + strings.Join(block, "\n") + "\n```\n"
}

// Blocks of each format with their markers given, each turning
// "return 1" into "return 2" in app.py.
func nmSR(search, divider, end string) string {
	return nearMissReply(search, "    return 1", divider, "    return 2", end)
}

func nmAP(begin, header, end string) string {
	return nearMissReply(begin, header, "@@", "-    return 1", "+    return 2", end)
}

func nmFIUP(start, end string) string {
	return nearMissReply(start, "[FILE]: app.py", "[OP]: REPLACE", "[ANCHOR]", "→return 1", "[CONTENT]", "→return 2", end)
}

func nmUdx(open, patch, closePatch, closeEnv string) string {
	return nearMissReply(open, patch, "@@", "-    return 1", "+    return 2", closePatch, closeEnv)
}

func nmEV2(start string) string {
	return nearMissReply(start, "    x = 1", "-------", "    return 1", "=======", "    return 2", "-------", ">>>>>>>")
}

// nearMissCase is a reply holding near misses of a format's markers:
// it is read as that format with a warning on each warned line, or it
// fails naming failLine (a *ParseError's line, or an Invalid
// operation's) and saying failSays. Never is app.py written whole.
type nearMissCase struct {
	name     string
	reply    string
	format   string // read as this format
	warned   []int  // lines warned about as near misses
	failLine int    // fails at this line
	failSays string // a part of the failure message
}

func nearMissCases() []nearMissCase {
	const sp = `<FILE_PATCH file_path="app.py">`
	return []nearMissCase{
		// SEARCH/REPLACE: each near miss in each of the three markers.
		{name: "search without space", reply: nmSR("<<<<<<<SEARCH", "=======", ">>>>>>> REPLACE"), format: "diff", warned: []int{5}},
		{name: "search lower case", reply: nmSR("<<<<<<< search", "=======", ">>>>>>> REPLACE"), format: "diff", warned: []int{5}},
		{name: "search five, mixed case, with >", reply: nmSR("<<<<< Search>", "=======", ">>>>>>> REPLACE"), format: "diff", warned: []int{5}},
		{name: "search nine, two spaces", reply: nmSR("<<<<<<<<<  SEARCH", "=======", ">>>>>>> REPLACE"), format: "diff", warned: []int{5}},
		{name: "search four", reply: nmSR("<<<< SEARCH", "=======", ">>>>>>> REPLACE"), failLine: 5, failSays: `"<<<< SEARCH" looks like the SEARCH/REPLACE marker`},
		{name: "search ten", reply: nmSR("<<<<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE"), failLine: 5, failSays: `"<<<<<<<<<< SEARCH"`},
		{name: "search in brackets", reply: nmSR("<<<SEARCH>>>", "===", ">>>REPLACE<<<"), failLine: 5, failSays: `"<<<SEARCH>>>"`},
		{name: "divider five", reply: nmSR("<<<<<<< SEARCH", "=====", ">>>>>>> REPLACE"), format: "diff"},
		{name: "divider nine", reply: nmSR("<<<<<<< SEARCH", "=========", ">>>>>>> REPLACE"), format: "diff"},
		{name: "divider four", reply: nmSR("<<<<<<< SEARCH", "====", ">>>>>>> REPLACE"), failLine: 5, failSays: `line 7, "====", is not read as one`},
		{name: "divider ten", reply: nmSR("<<<<<<< SEARCH", "==========", ">>>>>>> REPLACE"), failLine: 5, failSays: `line 7, "==========", is not read as one`},
		{name: "end without space", reply: nmSR("<<<<<<< SEARCH", "=======", ">>>>>>>REPLACE"), format: "diff", warned: []int{9}},
		{name: "end lower case", reply: nmSR("<<<<<<< SEARCH", "=======", ">>>>>>> replace"), format: "diff", warned: []int{9}},
		{name: "end six, tab", reply: nmSR("<<<<<<< SEARCH", "=======", ">>>>>>\tReplace"), format: "diff", warned: []int{9}},
		{name: "end four", reply: nmSR("<<<<<<< SEARCH", "=======", ">>>> REPLACE"), failLine: 5, failSays: `line 9, ">>>> REPLACE", is not read as one`},
		{name: "all three near", reply: nmSR("<<<<<<<search", "========", ">>>>>>>replace"), format: "diff", warned: []int{5, 9}},
		{name: "only an end marker", reply: nearMissReply("def main():", "    return 2", ">>>>>>>REPLACE"), failLine: 7, failSays: `">>>>>>>REPLACE" (a near miss of the SEARCH/REPLACE marker ">>>>>>> REPLACE") stands outside any diff block`},
		{name: "only an exact end marker", reply: nearMissReply("def main():", "    return 2", ">>>>>>> REPLACE"), failLine: 7, failSays: `the SEARCH/REPLACE marker ">>>>>>> REPLACE" stands outside any diff block`},

		// apply-patch.
		{name: "apply-patch lower case", reply: nmAP("*** begin patch", "*** update file: app.py", "*** end patch"), format: "apply-patch", warned: []int{5, 6, 10}},
		{name: "apply-patch without space", reply: nmAP("***Begin Patch", "***Update File: app.py", "***End Patch"), format: "apply-patch", warned: []int{5, 6, 10}},
		{name: "apply-patch stars", reply: nmAP("**** Begin Patch ****", "*** Update File app.py", "*** End Patch ***"), format: "apply-patch", warned: []int{5, 6, 10}},
		{name: "apply-patch only its end", reply: nearMissReply("def main():", "    return 2", "*** end patch"), failLine: 7, failSays: `"*** end patch" (a near miss of the apply-patch marker "*** End Patch")`},

		// FIUP.
		{name: "fiup two closing brackets", reply: nmFIUP("<<<FIUP>>", "<<<END>>"), format: "fiup", warned: []int{5, 12}},
		{name: "fiup lower case, spaces", reply: nmFIUP("<<< fiup >>>", "<< end >>"), format: "fiup", warned: []int{5, 12}},
		{name: "fiup single brackets", reply: nmFIUP("<FIUP>", "<<<END>>>"), format: "fiup", warned: []int{5}},
		{name: "fiup only its end", reply: nearMissReply("def main():", "    return 2", "<<END>>"), failLine: 7, failSays: `"<<END>>" (a near miss of the FIUP marker "<<<END>>>")`},

		// udiffx: case is read; other spellings fail.
		{name: "udiffx lower case", reply: nmUdx("<file_changes>", `<file_patch file_path="app.py">`, "</file_patch>", "</file_changes>"), format: "udiffx", warned: []int{5, 6, 10, 11}},
		{name: "udiffx hyphen", reply: nmUdx("<FILE-CHANGES>", sp, "</FILE_PATCH>", "</FILE-CHANGES>"), failLine: 5, failSays: `"<FILE-CHANGES>" looks like the udiffx tag "<FILE_CHANGES>"`},
		{name: "udiffx no separator", reply: nmUdx("<FILECHANGES>", sp, "</FILE_PATCH>", "</FILECHANGES>"), failLine: 5, failSays: `"<FILECHANGES>"`},
		{name: "udiffx singular", reply: nmUdx("<FILE_CHANGE>", sp, "</FILE_PATCH>", "</FILE_CHANGE>"), failLine: 5, failSays: `"<FILE_CHANGE>"`},
		{name: "udiffx misspelt directive", reply: nmUdx("<FILE_CHANGES>", `<FILE-PATCH file_path="app.py">`, "</FILE-PATCH>", "</FILE_CHANGES>"), failLine: 6, failSays: `"<FILE-PATCH file_path=\"app.py\">" looks like the udiffx tag "<FILE_PATCH>"`},
		{name: "udiffx directive without envelope", reply: nearMissReply(sp, "@@", "-    return 1", "+    return 2", "</FILE_PATCH>"), failLine: 5, failSays: `the udiffx tag "<FILE_PATCH file_path=\"app.py\">" stands outside any udiffx block`},

		// edit-v2: its start marker with five to nine "<", any case, no
		// space, indented.
		{name: "edit six", reply: nmEV2("<<<<<< EDIT"), format: "edit-v2", warned: []int{5}},
		{name: "edit without space", reply: nmEV2("<<<<<<<EDIT"), format: "edit-v2", warned: []int{5}},
		{name: "edit lower case", reply: nmEV2("<<<<<<< edit"), format: "edit-v2", warned: []int{5}},
		{name: "edit indented", reply: nmEV2("  <<<<<<< EDIT"), format: "edit-v2", warned: []int{5}},
		{name: "edit four", reply: nmEV2("<<<< EDIT"), failLine: 5, failSays: `"<<<< EDIT" looks like the edit-v2 marker "<<<<<<< EDIT"`},
		{name: "edit ten", reply: nmEV2("<<<<<<<<<< EDIT"), failLine: 5, failSays: `"<<<<<<<<<< EDIT"`},
	}
}

// TestNearMissReplies reads every near-miss reply as the command does:
// never as a whole file; read as the format with a warning naming each
// near-miss line, or failing at the line.
func TestNearMissReplies(t *testing.T) {
	for _, tc := range nearMissCases() {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Parse(tc.reply, ParseOptions{Format: "auto"})
			if r != nil {
				for _, op := range r.Ops {
					if op.Format == FormatWhole {
						t.Fatalf("read as a whole file: %+v", op)
					}
				}
			}
			if tc.failLine > 0 {
				var pe *ParseError
				msg, line := "", 0
				switch {
				case errors.As(err, &pe):
					msg, line = pe.Msg, pe.Line
				case err == nil:
					for _, op := range r.Ops {
						if op.Kind == Invalid {
							msg, line = op.Comment, op.Line
							break
						}
					}
				}
				if line != tc.failLine || !strings.Contains(msg, tc.failSays) {
					t.Fatalf("want a failure at line %d saying %q; got line %d %q (error %v)", tc.failLine, tc.failSays, line, msg, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("error %v", err)
			}
			if !strings.HasPrefix(r.Format, tc.format) || len(r.Ops) != 1 || r.Ops[0].Kind == Invalid {
				t.Fatalf("format %q, ops %+v, want one %s edit", r.Format, r.Ops, tc.format)
			}
			var warned []int
			for _, w := range r.Warnings {
				if strings.Contains(w.Msg, " is read as the ") {
					warned = append(warned, w.Line)
				}
			}
			if !slices.Equal(warned, tc.warned) {
				t.Errorf("near-miss warnings at lines %v, want %v: %+v", warned, tc.warned, r.Warnings)
			}
		})
	}
}

// TestLookAlikesStayContent checks that what real files hold beside
// the formats' markers (git's conflict markers, Markdown rules, shell
// heredocs, doctests, the words themselves) does not keep a reply from
// being read as whole files.
func TestLookAlikesStayContent(t *testing.T) {
	for _, content := range []string{
		"<<<<<<< HEAD\nx = 1\n=======\nx = 2\n>>>>>>> feature\n",
		"<<<<<<< Updated upstream\na\n=======\nb\n>>>>>>> Stashed changes\n",
		"<<<<<<< search-ui\na\n>>>>>>> replace_all\n",
		"Title\n=======\n\nSub\n-------\n",
		"cat <<<\"$x\"\ncat <<END\nsearch\nEND\n",
		"def f():\n    \"\"\"\n    >>> search(1)\n    >>> replace\n    \"\"\"\n",
		"Search and replace the value.\nSEARCH\nEDIT\n",
		"**Begin Patch**\n** Update File: a\n***\n",
		"<file delete=\"x\"/>\n<file-new/>\n<FILE_SIZE>1</FILE_SIZE>\n",
		"<<END\n<END>\n<<<EOF\n",
	} {
		reply := "The new file.\n\nnotes.md\n```\n" + content + "```\n"
		r, err := Parse(reply, ParseOptions{Format: "auto"})
		if err != nil {
			t.Errorf("%q: %v", content, err)
			continue
		}
		if r.Format != FormatWhole || len(r.Ops) != 1 || strings.Join(r.Ops[0].New, "\n")+"\n" != content {
			t.Errorf("%q: format %q, ops %+v", content, r.Format, r.Ops)
		}
	}
}

// TestDetectNearMisses checks detection: a near miss of a start marker
// names its format, and a reply holding anything that resembles a
// marker is never whole.
func TestDetectNearMisses(t *testing.T) {
	for reply, want := range map[string]string{
		"a.py\n```\n<<<<<<<SEARCH\nx\n=======\ny\n>>>>>>>REPLACE\n```\n":    "diff",
		"a.py\n```\n<<<< SEARCH\nx\n```\n":                                  "diff",
		"a.py\n<<<<<<< edit\n-------\nx\n=======\ny\n-------\n>>>>>>>\n":    "edit-v2",
		"<<<FIUP>>\n[FILE]: a.py\n<<<END>>\n":                               "fiup",
		"***begin patch\n*** Update File: a.py\n@@\n-x\n+y\n":               "apply-patch",
		"<FILE-CHANGES>\n<FILE_DELETE file_path=\"a\"/>\n</FILE-CHANGES>\n": "udiffx",
		// a ```diff fence holding near-miss markers is that format's
		"a.py\n```diff\n<<<<<<<SEARCH\n-x\n=======\n+y\n>>>>>>>REPLACE\n```\n":              "diff",
		"```diff\n*** begin patch\n*** Update File: a.py\n@@\n-x\n+y\n*** end patch\n```\n": "apply-patch",
		// whole only when nothing resembles a marker, wherever it stands
		"a.py\n```\nx\n```\n":                          "whole",
		"a.py\n```\nx\n>>>>>>>REPLACE\n```\n":          "",
		"a.py\n```\nx\n```\n\n<<<END>>>\n":             "",
		"a.py\n```\nx\n*** End Patch\n```\n":           "",
		"a.py\n```\n</FILE_CHANGES>\nx\n```\n":         "",
		"a.py\n```\n<FILE_NEW file_path=\"b\">\n```\n": "",
	} {
		if got := strings.Join(Detect(reply), "+"); got != want {
			t.Errorf("Detect(%q) = %q, want %q", reply, got, want)
		}
	}
}

// TestNearMissesInsideBlocks checks that a near miss the reader takes
// is a marker inside a block too, as the exact marker is: it never
// becomes a line of the edit.
func TestNearMissesInsideBlocks(t *testing.T) {
	for _, tc := range []struct {
		name, reply string
		line        int
		says        string
	}{
		{"SEARCH/REPLACE end before the divider", nmSR("<<<<<<< SEARCH", ">>>>>>>REPLACE", ">>>>>>> REPLACE"),
			5, `the block has no "=======" divider: ">>>>>>>REPLACE" comes first, at line 7`},
		{"SEARCH/REPLACE start inside a block", "a.py\n<<<<<<< SEARCH\nx\n=======\ny\n<<<<<<<search\nx\n=======\ny\n>>>>>>> REPLACE\n",
			2, `the block has no ">>>>>>> REPLACE" end marker: "<<<<<<<search" comes first, at line 6`},
		{"SEARCH/REPLACE far end before the next block's divider", "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>> REPLACE\n\na.py\n<<<< SEARCH\ny = 1\n=======\ny = 2\n>>>>>>> REPLACE\n",
			2, `the block has no ">>>>>>> REPLACE" end marker: ">>>> REPLACE" comes first, at line 6`},
		{"SEARCH/REPLACE far start in the new lines", "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n<<<<<<<<<< SEARCH\ny = 1\n=======\ny = 2\n>>>>>>> REPLACE\n",
			2, `the block has no ">>>>>>> REPLACE" end marker: "<<<<<<<<<< SEARCH" comes first, at line 6`},
		{"SEARCH/REPLACE far start in the old lines", "a.py\n<<<<<<< SEARCH\nx = 1\n<<<<<<<<<< SEARCH\ny = 1\n=======\ny = 2\n>>>>>>> REPLACE\n",
			2, `the block has no "=======" divider: "<<<<<<<<<< SEARCH" comes first, at line 4`},
		{"edit-v2 start inside a block", "a.py\n<<<<<<< EDIT\n-------\nx\n=======\ny\n-------\nb.py\n<<<<<<<EDIT\n",
			2, `the next "<<<<<<< EDIT" comes first, at line 9`},
		{"fiup start inside a block", "<<<FIUP>>>\n[FILE]: a.py\n[OP]: CREATE\n[CONTENT]\nx\n<<FIUP>>\n",
			1, `<<<FIUP>>> at line 6 starts another block first`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.reply, ParseOptions{Format: "auto"})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != tc.line || !strings.Contains(pe.Msg, tc.says) {
				t.Errorf("error %v, want line %d saying %q", err, tc.line, tc.says)
			}
		})
	}
	// One warning per spelling, naming the other lines.
	r, err := Parse(nmSR("<<<<<<<SEARCH", "=======", ">>>>>>>REPLACE")+"\napp.py\n```\n<<<<<<<SEARCH\n    x = 1\n=======\n    x = 3\n>>>>>>> REPLACE\n```\n", ParseOptions{Format: "auto"})
	if err != nil || len(r.Warnings) != 2 || !strings.Contains(r.Warnings[0].Msg, "(so is line 14)") {
		t.Errorf("error %v, warnings %+v", err, r.Warnings)
	}
}

// TestNearMissUnderAnotherFormat: with --format naming another format,
// nothing is read, and the error names the line the reply meant.
func TestNearMissUnderAnotherFormat(t *testing.T) {
	reply := nmSR("<<<<<<<SEARCH", "=======", ">>>>>>>REPLACE")
	for _, format := range []string{"whole", "udiff", "fiup"} {
		r, err := Parse(reply, ParseOptions{Format: format})
		if !errors.Is(err, ErrNoEdits) || !strings.Contains(err.Error(), `reply line 5 holds "<<<<<<<SEARCH" (a near miss of the SEARCH/REPLACE marker "<<<<<<< SEARCH")`) {
			t.Errorf("--format %s: error %v", format, err)
		}
		if r != nil && len(r.Ops) > 0 {
			t.Errorf("--format %s: ops %+v", format, r.Ops)
		}
	}
}

// TestStrayMarkerWithoutBlocks: a reply with nothing but prose and a
// marker fails naming the marker's line (it did not come to be no
// edit: a block of the format was meant).
func TestStrayMarkerWithoutBlocks(t *testing.T) {
	_, err := Parse("Sure!\n>>>>>>> REPLACE\n", ParseOptions{Format: "auto"})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Format != "diff" || strings.Contains(pe.Msg, "whole files") ||
		!strings.Contains(pe.Msg, `the SEARCH/REPLACE marker ">>>>>>> REPLACE" stands outside any diff block`) {
		t.Errorf("error %v", err)
	}
}

// TestStrayMarkerBesideOtherBlocks: beside blocks of another format, a
// marker whose own format has no block (an apply-patch header without
// "*** Begin Patch", a udiffx tag without its envelope) fails as an
// edit of its own, naming its line, instead of vanishing while the
// other blocks apply; the same line held as an edit's content does not.
func TestStrayMarkerBesideOtherBlocks(t *testing.T) {
	sr := "Fix it.\n\napp.py\n```python\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n\n"
	ap := "*** Begin Patch\n*** Update File: app.py\n@@\n-    return 1\n+    return 2\n*** End Patch\n\n"
	tests := []struct {
		name, reply string
		strayLine   int // 0: none
		says        string
	}{
		{"udiffx directive without envelope", sr + "<FILE_NEW file_path=\"new.txt\">\nhello\n</FILE_NEW>\n", 12, `the udiffx tag "<FILE_NEW file_path=\"new.txt\">" stands outside any udiffx block`},
		{"apply-patch header without begin", sr + "*** Update File: x.txt\n@@\n-x\n+y\n", 12, `"*** Update File: x.txt" stands outside any apply-patch block`},
		{"apply-patch end alone", sr + "*** End Patch\n", 12, "stands outside any apply-patch block"},
		{"fiup end alone", sr + "<<<END>>>\n", 12, "stands outside any fiup block"},
		{"search/replace end beside apply-patch", ap + ">>>>>>> REPLACE\n", 8, "stands outside any diff block"},
		{"only the first of a format's strays", sr + "*** Update File: x.txt\n*** Update File: y.txt\n", 12, "x.txt"},
		{"a marker held as content", "Fix it.\n\nnotes.md\n```\n<<<<<<< SEARCH\n*** End Patch\n=======\nEnd.\n>>>>>>> REPLACE\n```\n", 0, ""},
		{"a marker the new lines write", "Fix it.\n\nnotes.md\n```\n<<<<<<< SEARCH\nEnd.\n=======\n*** End Patch\n>>>>>>> REPLACE\n```\n", 0, ""},
		{"a stray after a marker held as content", "Fix it.\n\nnotes.md\n```\n<<<<<<< SEARCH\nEnd.\n=======\n*** End Patch\n>>>>>>> REPLACE\n```\n\n*** Update File: x.txt\n@@\n-x\n+y\n",
			12, `"*** Update File: x.txt" stands outside any apply-patch block`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.reply, ParseOptions{Format: "auto"})
			if err != nil {
				t.Fatal(err)
			}
			if !oneInvalid(t, r, tt.strayLine, tt.says) {
				return
			}
			if len(r.Ops) < 2 {
				t.Errorf("the other block was lost: %+v", r.Ops)
			}
		})
	}
}

// TestStrayMarkerOfTheFormatRead: a block whose start marker the model
// left out, after a block of the same format, leaves its end marker or
// header outside any block. It fails naming that line (the reply's
// *ParseError, or an Invalid operation), instead of vanishing while the
// block before it applies; only an end marker right after the end of
// a block (doubled, or after the second divider that ended it, see
// testdata/searchreplace/divider_as_end.txtar) is left with a warning.
func TestStrayMarkerOfTheFormatRead(t *testing.T) {
	for _, tt := range []struct {
		name, reply string
		line        int // 0: no failure
		says        string
	}{
		{"SEARCH/REPLACE in the fence of a block", "Fix.\n\napp.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\nc\n=======\nd\n>>>>>>> REPLACE\n```\n",
			13, `the SEARCH/REPLACE marker ">>>>>>> REPLACE" stands outside any diff block`},
		{"SEARCH/REPLACE in prose", "Fix.\n\napp.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n\napp.py\nc\n=======\nd\n>>>>>>> REPLACE\n",
			16, `the SEARCH/REPLACE marker ">>>>>>> REPLACE" stands outside any diff block`},
		{"SEARCH/REPLACE in a fence under prose", "Fix.\n\napp.py\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n\nThen this:\n```\nc\n=======\nd\n>>>>>>> REPLACE\n```\n",
			17, `the SEARCH/REPLACE marker ">>>>>>> REPLACE" stands outside any diff block`},
		{"SEARCH/REPLACE after a block a divider ended", "a.py\n```python\n<<<<<<< SEARCH\na = 1\n=======\na = 2\n=======\n>>>>>>> REPLACE\n```\n", 0, ""},
		{"SEARCH/REPLACE end doubled", "a.py\n<<<<<<< SEARCH\na = 1\n=======\na = 2\n>>>>>>> REPLACE\n\n>>>>>>> REPLACE\n", 0, ""},
		{"fiup end doubled", "<<<FIUP>>>\n[FILE]: a.py\n[OP]: REPLACE\n[ANCHOR]\na\n[CONTENT]\nb\n<<<END>>>\n<<<END>>>\n", 0, ""},
		{"edit-v2 end doubled", "a.py\n<<<<<<< EDIT\n-------\na\n=======\nb\n-------\n>>>>>>>\n>>>>>>>\n", 0, ""},
		{"apply-patch", "Fix.\n\n*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** End Patch\n\n*** Update File: b.py\n@@\n-c\n+d\n*** End Patch\n",
			10, `the apply-patch marker "*** Update File: b.py" stands outside any apply-patch block`},
		{"apply-patch, ended twice", "Fix.\n\n*** Begin Patch\n*** Update File: a.py\n@@\n-a\n+b\n*** End Patch\n*** Update File: b.py\n@@\n-c\n+d\n",
			9, `"*** Update File: b.py" stands outside any apply-patch block`},
		{"udiffx", "Fix.\n\n<FILE_CHANGES>\n<FILE_PATCH file_path=\"a.py\">\n@@\n-a\n+b\n</FILE_PATCH>\n</FILE_CHANGES>\n\n<FILE_PATCH file_path=\"b.py\">\n@@\n-c\n+d\n</FILE_PATCH>\n",
			11, `the udiffx tag "<FILE_PATCH file_path=\"b.py\">" stands outside any udiffx block`},
		{"fiup", "Fix.\n\n<<<FIUP>>>\n[FILE]: a.py\n[OP]: REPLACE\n[ANCHOR]\na\n[CONTENT]\nb\n<<<END>>>\n\n[FILE]: b.py\n[OP]: REPLACE\n[ANCHOR]\nc\n[CONTENT]\nd\n<<<END>>>\n",
			18, `the FIUP marker "<<<END>>>" stands outside any fiup block`},
		{"edit-v2", "Fix.\n\na.py\n<<<<<<< EDIT\n-------\na\n=======\nb\n-------\n>>>>>>>\n\nb.py\n-------\nc\n=======\nd\n-------\n>>>>>>>\n",
			18, `">>>>>>>" stands outside any edit-v2 block`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			// A reader that stops at a *ParseError stops there; the
			// others report an Invalid operation beside the block.
			r, err := Parse(tt.reply, ParseOptions{Format: "auto"})
			var pe *ParseError
			if errors.As(err, &pe) {
				if tt.line == 0 || pe.Line != tt.line || !strings.Contains(pe.Msg, tt.says) {
					t.Fatalf("error %v, want a failure at line %d saying %q", err, tt.line, tt.says)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !oneInvalid(t, r, tt.line, tt.says) {
				return
			}
			if len(r.Ops) != 2 {
				t.Errorf("ops %+v: want the block read and the stray line", r.Ops)
			}
		})
	}
}

// oneInvalid requires r to hold no Invalid operation when line is 0,
// else exactly one, at that reply line, saying says; it reports
// whether there was one to look further at.
func oneInvalid(t *testing.T, r *Reply, line int, says string) bool {
	t.Helper()
	var invalid []Operation
	for _, op := range r.Ops {
		if op.Kind == Invalid {
			invalid = append(invalid, op)
		}
	}
	if line == 0 {
		if len(invalid) > 0 {
			t.Fatalf("unexpected failure %+v", invalid)
		}
		return false
	}
	if len(invalid) != 1 || invalid[0].Line != line || !strings.Contains(invalid[0].Comment, says) {
		t.Fatalf("invalid ops %+v, want one at line %d saying %q", invalid, line, says)
	}
	return true
}
