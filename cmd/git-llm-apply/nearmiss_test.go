package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// The file every near-miss reply edits, and what it is once the reply's
// edit ("return 1" to "return 2") is applied.
const (
	nearMissPy   = "import sys\n\ndef main():\n    x = 1\n    return 1\n\nif __name__ == \"__main__\":\n    sys.exit(main())\n"
	nearMissDone = "import sys\n\ndef main():\n    x = 1\n    return 2\n\nif __name__ == \"__main__\":\n    sys.exit(main())\n"
)

// nmReply puts a block's lines under the file name in a fence, the way
// a whole file is written: the block starts at reply line 5.
func nmReply(block ...string) string {
	return "Return 2 from main.\n\napp.py\n```python\n" + strings.Join(block, "\n") + "\n```\n"
}

// A block of each format with the markers given, each turning
// "return 1" into "return 2".
func nmSearchReplace(search, divider, end string) string {
	return nmReply(search, "    return 1", divider, "    return 2", end)
}

func nmApplyPatch(begin, header, end string) string {
	return nmReply(begin, header, "@@ def main():", "-    return 1", "+    return 2", end)
}

func nmFIUP(start, end string) string {
	return nmReply(start, "[FILE]: app.py", "[OP]: REPLACE", "[ANCHOR]", "→return 1", "[CONTENT]", "→return 2", end)
}

func nmUdiffx(open, patch, closePatch, closeEnv string) string {
	return nmReply(open, patch, "@@ -4,2 +4,2 @@", "     x = 1", "-    return 1", "+    return 2", closePatch, closeEnv)
}

func nmEditV2(start string) string {
	return nmReply(start, "    x = 1", "-------", "    return 1", "=======", "    return 2", "-------", "", ">>>>>>>")
}

// TestNearMissMarkersNeverWriteWholeFiles: a reply whose markers are
// near misses of a format's, under a file name in a fence, used to be
// read as the whole new file, replacing app.py by the raw block. Each
// is now applied as the format it resembles, with a warning naming
// each near-miss line, or fails naming its line with nothing recorded.
func TestNearMissMarkersNeverWriteWholeFiles(t *testing.T) {
	t.Parallel()
	const patch = `<FILE_PATCH file_path="app.py">`
	cases := []struct {
		name   string
		reply  string
		warned []int // applied, with a near-miss warning on each of these lines
		fails  int   // fails naming this reply line
		says   string
	}{
		// SEARCH/REPLACE, each kind of near miss in each marker.
		{name: "SEARCH without space", reply: nmSearchReplace("<<<<<<<SEARCH", "=======", ">>>>>>> REPLACE"), warned: []int{5}},
		{name: "SEARCH lower case", reply: nmSearchReplace("<<<<<<< search", "=======", ">>>>>>> REPLACE"), warned: []int{5}},
		{name: "SEARCH six, two spaces", reply: nmSearchReplace("<<<<<<  SEARCH", "=======", ">>>>>>> REPLACE"), warned: []int{5}},
		{name: "SEARCH four", reply: nmSearchReplace("<<<< SEARCH", "=======", ">>>>>>> REPLACE"), fails: 5, says: `"<<<< SEARCH" looks like the SEARCH/REPLACE marker`},
		{name: "SEARCH ten", reply: nmSearchReplace("<<<<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE"), fails: 5, says: `"<<<<<<<<<< SEARCH" looks like`},
		{name: "divider five", reply: nmSearchReplace("<<<<<<< SEARCH", "=====", ">>>>>>> REPLACE")},
		{name: "divider nine", reply: nmSearchReplace("<<<<<<< SEARCH", "=========", ">>>>>>> REPLACE")},
		{name: "divider four", reply: nmSearchReplace("<<<<<<< SEARCH", "====", ">>>>>>> REPLACE"), fails: 5, says: `line 7, "====", is not read as one`},
		{name: "REPLACE without space", reply: nmSearchReplace("<<<<<<< SEARCH", "=======", ">>>>>>>REPLACE"), warned: []int{9}},
		{name: "REPLACE lower case", reply: nmSearchReplace("<<<<<<< SEARCH", "=======", ">>>>>>> replace"), warned: []int{9}},
		{name: "REPLACE eight", reply: nmSearchReplace("<<<<<<< SEARCH", "=======", ">>>>>>>> Replace"), warned: []int{9}},
		{name: "REPLACE four", reply: nmSearchReplace("<<<<<<< SEARCH", "=======", ">>>> REPLACE"), fails: 5, says: `line 9, ">>>> REPLACE", is not read as one`},
		{name: "all three markers near", reply: nmSearchReplace("<<<<<<<search", "========", ">>>>>>>replace"), warned: []int{5, 9}},
		{name: "a lone end marker", reply: nmReply("def main():", "    return 2", ">>>>>>>REPLACE"), fails: 7, says: `">>>>>>>REPLACE" (a near miss of the SEARCH/REPLACE marker ">>>>>>> REPLACE") stands outside any diff block`},

		// apply-patch.
		{name: "*** begin patch", reply: nmApplyPatch("*** begin patch", "*** update file: app.py", "*** end patch"), warned: []int{5, 6, 10}},
		{name: "***Begin Patch", reply: nmApplyPatch("***Begin Patch", "***Update File: app.py", "***End Patch"), warned: []int{5, 6, 10}},
		{name: "**** Begin Patch ****", reply: nmApplyPatch("**** Begin Patch ****", "*** Update File app.py", "*** End Patch"), warned: []int{5, 6}},
		{name: "a lone *** end patch", reply: nmReply("def main():", "    return 2", "*** end patch"), fails: 7, says: `"*** end patch" (a near miss of the apply-patch marker "*** End Patch")`},

		// FIUP.
		{name: "<<<FIUP>>", reply: nmFIUP("<<<FIUP>>", "<<<END>>"), warned: []int{5, 12}},
		{name: "<<< fiup >>>", reply: nmFIUP("<<< fiup >>>", "<<<END>>>"), warned: []int{5}},
		{name: "a lone <<END>>", reply: nmReply("def main():", "    return 2", "<<END>>"), fails: 7, says: `"<<END>>" (a near miss of the FIUP marker "<<<END>>>")`},

		// udiffx: another case is read, another spelling fails.
		{name: "<file_changes>", reply: nmUdiffx("<file_changes>", `<file_patch file_path="app.py">`, "</file_patch>", "</file_changes>"), warned: []int{5, 6, 11, 12}},
		{name: "<FILE-CHANGES>", reply: nmUdiffx("<FILE-CHANGES>", patch, "</FILE_PATCH>", "</FILE-CHANGES>"), fails: 5, says: `"<FILE-CHANGES>" looks like the udiffx tag "<FILE_CHANGES>"`},
		{name: "<FILE_CHANGE>", reply: nmUdiffx("<FILE_CHANGE>", patch, "</FILE_PATCH>", "</FILE_CHANGE>"), fails: 5, says: `"<FILE_CHANGE>" looks like the udiffx tag "<FILE_CHANGES>"`},
		{name: "<FILE-PATCH>", reply: nmUdiffx("<FILE_CHANGES>", `<FILE-PATCH file_path="app.py">`, "</FILE-PATCH>", "</FILE_CHANGES>"), fails: 6, says: `looks like the udiffx tag "<FILE_PATCH>"`},
		{name: "a directive without envelope", reply: nmReply(patch, "@@", "-    return 1", "+    return 2", "</FILE_PATCH>"), fails: 5, says: `stands outside any udiffx block`},

		// edit-v2.
		{name: "<<<<<< EDIT", reply: nmEditV2("<<<<<< EDIT"), warned: []int{5}},
		{name: "<<<<<<<EDIT", reply: nmEditV2("<<<<<<<EDIT"), warned: []int{5}},
		{name: "<<<<<<< edit", reply: nmEditV2("<<<<<<< edit"), warned: []int{5}},
		{name: "<<<< EDIT", reply: nmEditV2("<<<< EDIT"), fails: 5, says: `"<<<< EDIT" looks like the edit-v2 marker "<<<<<<< EDIT"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"app.py": nearMissPy, "README": "x\n"})
			before := r.snapshot()
			res := r.run("apply", "--json", "-b", "nm", r.reply("r.md", c.reply))
			defer r.fsck()
			defer r.assertUntouched(before)
			if c.fails > 0 {
				if res.code == 0 {
					t.Fatalf("applied:\n%s\n%s", res.stderr, r.show("nm", "app.py"))
				}
				if at := fmt.Sprintf("reply line %d", c.fails); !strings.Contains(res.stderr, at) || !strings.Contains(res.stderr, c.says) {
					t.Errorf("the report does not name %s saying %q:\n%s", at, c.says, res.stderr)
				}
				if b := r.branches(); b != "main" {
					t.Errorf("branches: %q", b)
				}
				return
			}
			if res.code != 0 {
				t.Fatalf("exit %d:\n%s", res.code, res.stderr)
			}
			if got := r.show("nm", "app.py"); got != nearMissDone {
				t.Fatalf("app.py on the branch:\n%s", got)
			}
			var doc struct {
				Replies []struct{ Warnings []string }
			}
			if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil || len(doc.Replies) != 1 {
				t.Fatalf("JSON report: %v\n%s", err, res.stdout)
			}
			var warned []int
			for _, w := range doc.Replies[0].Warnings {
				var line int
				if _, err := fmt.Sscanf(w, "reply line %d:", &line); err == nil && strings.Contains(w, " is read as the ") {
					warned = append(warned, line)
					if !strings.Contains(res.stderr, "warning: "+w) {
						t.Errorf("the human report lacks %q:\n%s", w, res.stderr)
					}
				}
			}
			if fmt.Sprint(warned) != fmt.Sprint(c.warned) && len(warned)+len(c.warned) > 0 {
				t.Errorf("near-miss warnings at lines %v, want %v: %q", warned, c.warned, doc.Replies[0].Warnings)
			}
		})
	}
}

// TestLookAlikesInWholeFiles: what real files hold beside the markers
// (git's conflict markers, Markdown rules, heredocs, doctests, the
// words themselves) is still written whole.
func TestLookAlikesInWholeFiles(t *testing.T) {
	t.Parallel()
	content := "Title\n=======\n\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> feature\n\n" +
		"    cat <<<\"$x\"\n    >>> search(1)\n\nSEARCH and REPLACE\n**Begin Patch**\n<<END\n"
	r := newRepo(t, map[string]string{"notes.md": "old\n"})
	before := r.snapshot()
	res := r.run("apply", "-b", "nm", r.reply("r.md", "New notes.\n\nnotes.md\n````\n"+content+"````\n"))
	if res.code != 0 {
		t.Fatalf("exit %d:\n%s", res.code, res.stderr)
	}
	if got := r.show("nm", "notes.md"); got != content {
		t.Errorf("notes.md:\n%s", got)
	}
	r.assertUntouched(before)
	r.fsck()
}

// TestNearMissUnderFormatWhole: asked for whole files, a reply whose
// block holds near-miss markers writes nothing and names the line.
func TestNearMissUnderFormatWhole(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"app.py": nearMissPy})
	before := r.snapshot()
	res := r.run("apply", "--format", "whole", "-b", "nm", r.reply("r.md", nmSearchReplace("<<<<<<<SEARCH", "=======", ">>>>>>>REPLACE")))
	if res.code == 0 || !strings.Contains(res.stderr, `reply line 5 holds "<<<<<<<SEARCH"`) {
		t.Errorf("exit %d:\n%s", res.code, res.stderr)
	}
	if b := r.branches(); b != "main" {
		t.Errorf("branches: %q", b)
	}
	r.assertUntouched(before)
	r.fsck()
}

// TestStrayMarkerBesideOtherBlocks: a block of one format beside the
// stray marker of another (a <FILE_NEW> without its envelope, an
// apply-patch header without "*** Begin Patch") records nothing and
// names the stray line: the edit it meant is not dropped while the
// other block is recorded.
func TestStrayMarkerBesideOtherBlocks(t *testing.T) {
	t.Parallel()
	block := "Two changes.\n\napp.py\n```python\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n\n"
	for _, tt := range []struct{ name, stray, says string }{
		{"udiffx", "<FILE_NEW file_path=\"new.txt\">\nhello\n</FILE_NEW>\n", "reply line 12"},
		{"apply-patch", "*** Update File: app.py\n@@\n-x = 1\n+x = 2\n", "reply line 12"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"app.py": nearMissPy})
			before := r.snapshot()
			reply := r.reply("r.md", block+tt.stray)
			for _, cmd := range []string{"check", "apply"} {
				res := r.run(cmd, "-b", "stray", reply)
				if cmd == "check" {
					res = r.run(cmd, reply)
				}
				if res.code != 1 || !strings.Contains(res.stderr, tt.says) || !strings.Contains(res.stderr, "stands outside any") {
					t.Errorf("%s: exit %d:\n%s", cmd, res.code, res.stderr)
				}
			}
			if b := r.branches(); b != "main" {
				t.Errorf("branches: %q", b)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// TestMarkersNeverWrittenOrDropped: a SEARCH/REPLACE block whose end
// marker is too far from ">>>>>>> REPLACE" to be read, followed by a
// block whose SEARCH marker is too far as well, used to run on to the
// next divider, writing both markers and the next block's lines into
// app.py; and a stray apply-patch header after a block that writes
// "*** End Patch" as content used to vanish while that block was
// recorded, and so did a block whose start marker is missing after a
// block of its own format (without a word, for apply-patch and
// udiffx). Each records nothing and names the line.
func TestMarkersNeverWrittenOrDropped(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, reply, says string }{
		{"far end and far start", nmReply("<<<<<<< SEARCH", "    x = 1", "=======", "    x = 2", ">>>> REPLACE",
			"<<<< SEARCH", "    return 1", "=======", "    return 2", ">>>>>>> REPLACE"),
			`">>>> REPLACE" comes first, at line 9`},
		{"stray after the same marker as content", "Two changes.\n\nnotes.md\n```\n<<<<<<< SEARCH\nEnd.\n=======\n*** End Patch\n>>>>>>> REPLACE\n```\n\n" +
			"*** Update File: app.py\n@@\n-    return 1\n+    return 2\n",
			`reply line 12`},
		// A block of the format read whose start the model left out.
		{"apply-patch section after End Patch", "Two changes.\n\n*** Begin Patch\n*** Update File: notes.md\n@@\n-End.\n+The end.\n*** End Patch\n" +
			"*** Update File: app.py\n@@\n-    return 1\n+    return 2\n*** End Patch\n",
			`reply line 9`},
		{"udiffx directive after the envelope", "Two changes.\n\n<FILE_CHANGES>\n<FILE_PATCH file_path=\"notes.md\">\n@@\n-End.\n+The end.\n</FILE_PATCH>\n</FILE_CHANGES>\n" +
			"<FILE_PATCH file_path=\"app.py\">\n@@\n-    return 1\n+    return 2\n</FILE_PATCH>\n",
			`reply line 10`},
		// A block whose fence opens straight into its SEARCH text under
		// its file name is read, with a warning (SPEC section 4); one
		// in prose has no such bound and still fails.
		{"SEARCH/REPLACE block without its SEARCH marker, in prose", "Two changes.\n\nnotes.md\n```\n<<<<<<< SEARCH\nEnd.\n=======\nThe end.\n>>>>>>> REPLACE\n```\n\n" +
			"Then in app.py:\n\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n",
			`reply line 17`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"app.py": nearMissPy, "notes.md": "End.\n"})
			before := r.snapshot()
			res := r.run("apply", "-b", "nm", r.reply("r.md", tt.reply))
			if res.code == 0 {
				t.Fatalf("recorded:\n%s\napp.py:\n%s", res.stderr, r.show("nm", "app.py"))
			}
			if !strings.Contains(res.stderr, tt.says) {
				t.Errorf("the report does not say %q:\n%s", tt.says, res.stderr)
			}
			if b := r.branches(); b != "main" {
				t.Errorf("branches: %q", b)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}
