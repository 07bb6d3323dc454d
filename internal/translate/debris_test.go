package translate

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestFindDebris(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Debris
	}{
		{"empty", "", nil},
		{"clean code", "package a\n\n// F does f.\nfunc F() int {\n\treturn 1 // the value\n}\n", nil},

		// The markers of each format, alone on their line.
		{"search", "a\n<<<<<<< SEARCH\nb\n", []Debris{{2, "SEARCH/REPLACE marker `<<<<<<< SEARCH`"}}},
		{"search five", "<<<<< SEARCH\n", []Debris{{1, "SEARCH/REPLACE marker `<<<<< SEARCH`"}}},
		{"search nine", "<<<<<<<<< SEARCH\n", []Debris{{1, "SEARCH/REPLACE marker `<<<<<<<<< SEARCH`"}}},
		{"search with >", "<<<<<<< SEARCH>\n", []Debris{{1, "SEARCH/REPLACE marker `<<<<<<< SEARCH>`"}}},
		{"replace", "x\n>>>>>>> REPLACE\n", []Debris{{2, "SEARCH/REPLACE marker `>>>>>>> REPLACE`"}}},
		{"indented", "\t  <<<<<<< SEARCH  \n    >>>>>>> REPLACE\t\n", []Debris{
			{1, "SEARCH/REPLACE marker `<<<<<<< SEARCH`"}, {2, "SEARCH/REPLACE marker `>>>>>>> REPLACE`"}}},
		{"whole block", "a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n", []Debris{
			{3, "SEARCH/REPLACE marker `<<<<<<< SEARCH`"}, {7, "SEARCH/REPLACE marker `>>>>>>> REPLACE`"}}},
		{"edit-v2", "<<<<<<< EDIT\nx\n-------\n=======\n-------\n>>>>>>>\n", []Debris{{1, "edit-v2 marker `<<<<<<< EDIT`"}}},
		{"fiup", "<<<FIUP>>>\n[FILE]: a.py\n<<<END>>>\n", []Debris{{1, "FIUP marker `<<<FIUP>>>`"}, {3, "FIUP marker `<<<END>>>`"}}},
		{"fiup any case", "  <<<fiup>>>\n<<<End>>>\n", []Debris{{1, "near-miss FIUP marker `<<<fiup>>>`"}, {2, "near-miss FIUP marker `<<<End>>>`"}}},
		{"udiffx", "<FILE_CHANGES>\n<FILE_PATCH file_path=\"a.go\">\n@@\n</FILE_PATCH>\n<FILE_NEW file_path=\"b\">\n</FILE_NEW>\n" +
			"<FILE_RENAME from_path=\"c\" to_path=\"d\" />\n<FILE_DELETE file_path=\"e\"/>\n</FILE_CHANGES>\n", []Debris{
			{1, "udiffx tag `<FILE_CHANGES>`"},
			{2, "udiffx tag `<FILE_PATCH file_path=\"a.go\">`"},
			{4, "udiffx tag `</FILE_PATCH>`"},
			{5, "udiffx tag `<FILE_NEW file_path=\"b\">`"},
			{6, "udiffx tag `</FILE_NEW>`"},
			{7, "udiffx tag `<FILE_RENAME from_path=\"c\" to_path=\"d\" />`"},
			{8, "udiffx tag `<FILE_DELETE file_path=\"e\"/>`"},
			{9, "udiffx tag `</FILE_CHANGES>`"}}},
		{"udiffx lower case", "<file_changes>\n", []Debris{{1, "near-miss udiffx tag `<file_changes>`"}}},
		{"apply-patch", "*** Begin Patch\n*** Update File: a.py\n*** Move to: d.py\n@@\n*** Add File: b.py\n+x\n*** Delete File: c.py\n*** End Patch\n", []Debris{
			{1, "apply-patch marker `*** Begin Patch`"},
			{2, "apply-patch marker `*** Update File: a.py`"},
			{3, "apply-patch marker `*** Move to: d.py`"},
			{5, "apply-patch marker `*** Add File: b.py`"},
			{7, "apply-patch marker `*** Delete File: c.py`"},
			{8, "apply-patch marker `*** End Patch`"}}},
		{"long line cut", "*** Update File: " + strings.Repeat("dir/", 20) + "a.py\n", []Debris{
			{1, "apply-patch marker `*** Update File: dir/dir/dir/dir/dir/dir/dir/dir/dir/dir/dir…`"}}},

		// The agents' tool calls (issue 14).
		{"cline", "<replace_in_file>\n<path>a.py</path>\n<diff>\n------- SEARCH\nx\n=======\ny\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n", []Debris{
			{1, "agent tool-call tag `<replace_in_file>`"},
			{4, "Cline SEARCH/REPLACE marker `------- SEARCH`"},
			{8, "Cline SEARCH/REPLACE marker `+++++++ REPLACE`"},
			{10, "agent tool-call tag `</replace_in_file>`"}}},
		{"cline three characters", "--- SEARCH\n+++ REPLACE>\n", []Debris{
			{1, "Cline SEARCH/REPLACE marker `--- SEARCH`"}, {2, "Cline SEARCH/REPLACE marker `+++ REPLACE>`"}}},
		{"cline near miss", "-------SEARCH\n", []Debris{{1, "near-miss Cline SEARCH/REPLACE marker `-------SEARCH`"}}},
		{"roo", "<apply_diff>\n<<<<<<< SEARCH\n:start_line:12\n-------\nx\n=======\ny\n>>>>>>> REPLACE\n</apply_diff>\n", []Debris{
			{1, "agent tool-call tag `<apply_diff>`"},
			{2, "SEARCH/REPLACE marker `<<<<<<< SEARCH`"},
			{3, "Roo Code line marker `:start_line:12`"},
			{8, "SEARCH/REPLACE marker `>>>>>>> REPLACE`"},
			{9, "agent tool-call tag `</apply_diff>`"}}},
		{"write_to_file near miss", "<Write-To-File>\n", []Debris{{1, "near-miss agent tool-call tag `<Write-To-File>`"}}},
		{"pasted tool call", "<function_calls>\n<invoke name=\"str_replace_based_edit_tool\">\n<parameter name=\"command\">str_replace</parameter>\n</invoke>\n</function_calls>\n", []Debris{
			{1, "pasted tool-call tag `<function_calls>`"},
			{2, "pasted tool-call tag `<invoke name=\"str_replace_based_edit_tool\">`"},
			{3, "pasted tool-call tag `<parameter name=\"command\">str_replace</parameter>`"},
			{5, "pasted tool-call tag `</function_calls>`"}}},
		{"not tool calls", "<invoke name=\"a\" partnerLink=\"p\" operation=\"o\">\n<parameter name=\"Title\" class=\"java.lang.String\"/>\n<parameter name=\"x\"/>\n</invoke>\n" +
			"--- a/x.py\n+++ b/x.py\n-- SEARCH\n:start_line: here\n:start_line:\n<path>a</path>\n<diff>\n<content>\n", nil},

		// Near misses of the markers (SPEC section 7): the readers read
		// them or refuse them, so they are debris too.
		{"four angle brackets", "<<<< SEARCH\n>>>> REPLACE\n", []Debris{
			{1, "near-miss SEARCH/REPLACE marker `<<<< SEARCH`"}, {2, "near-miss SEARCH/REPLACE marker `>>>> REPLACE`"}}},
		{"ten angle brackets", "<<<<<<<<<< SEARCH\n", []Debris{{1, "near-miss SEARCH/REPLACE marker `<<<<<<<<<< SEARCH`"}}},
		{"lower case search", "<<<<<<< search\n>>>>>>> replace\n", []Debris{
			{1, "near-miss SEARCH/REPLACE marker `<<<<<<< search`"}, {2, "near-miss SEARCH/REPLACE marker `>>>>>>> replace`"}}},
		{"no space", "<<<<<<<SEARCH\n>>>>>>>REPLACE\n<<<<<<<EDIT\n", []Debris{
			{1, "near-miss SEARCH/REPLACE marker `<<<<<<<SEARCH`"}, {2, "near-miss SEARCH/REPLACE marker `>>>>>>>REPLACE`"},
			{3, "near-miss edit-v2 marker `<<<<<<<EDIT`"}}},
		{"edit-v2 five to nine", "<<<<< EDIT\n<<<<<<<<< edit\n", []Debris{
			{1, "near-miss edit-v2 marker `<<<<< EDIT`"}, {2, "near-miss edit-v2 marker `<<<<<<<<< edit`"}}},
		{"fiup brackets", "<<<FIUP>>\n<< END >>\n<FIUP>\n", []Debris{
			{1, "near-miss FIUP marker `<<<FIUP>>`"}, {2, "near-miss FIUP marker `<< END >>`"}, {3, "near-miss FIUP marker `<FIUP>`"}}},
		{"udiffx misspelt", "<FILE-CHANGES>\n< FILE_PATCH file_path=\"a\">\n</FILECHANGES>\n", []Debris{
			{1, "near-miss udiffx tag `<FILE-CHANGES>`"}, {2, "near-miss udiffx tag `< FILE_PATCH file_path=\"a\">`"},
			{3, "near-miss udiffx tag `</FILECHANGES>`"}}},
		{"apply-patch near", "*** Begin Patch ***\n*** Update File\n*** begin patch\n***End Patch\n**** Add File: a\n", []Debris{
			{1, "near-miss apply-patch marker `*** Begin Patch ***`"}, {2, "near-miss apply-patch marker `*** Update File`"},
			{3, "near-miss apply-patch marker `*** begin patch`"}, {4, "near-miss apply-patch marker `***End Patch`"},
			{5, "near-miss apply-patch marker `**** Add File: a`"}}},

		// Not debris: what real files hold.
		{"merge conflict", "<<<<<<< HEAD\na\n=======\nb\n>>>>>>> feature\n", nil},
		{"stash conflict", "<<<<<<< Updated upstream\na\n=======\nb\n>>>>>>> Stashed changes\n", nil},
		{"conflict of a branch named like a keyword", "<<<<<<< search-ui\n>>>>>>> replace_all\n", nil},
		{"bare end and separators", ">>>>>>>\n-------\n=======\n", nil},
		{"heredocs and prompts", "cat <<<EOF\n<<END\n<END>\n>>> replace(a, b)\n<<< $x\n", nil},
		{"xml", "<file delete=\"x\">\n<file-new>\n<FILE_SIZE>\n", nil},
		{"Markdown bold and rules", "**Begin Patch**\n** Begin Patch\n***\n*** End of File\n", nil},
		{"the words in prose", "Search and replace the value.\nSEARCH\nEDIT the file.\n", nil},
		{"text after marker", "<<<<<<< SEARCH here\n>>>>>>> REPLACE it\n<<<FIUP>>> x\n", nil},
		{"in a string", "s := \"<<<<<<< SEARCH\"\nx = '*** Begin Patch'\n", nil},
		{"in prose", "Write <<<<<<< SEARCH before the old lines and <FILE_CHANGES> around.\n", nil},
		{"in a comment", "// <<<<<<< SEARCH\n# *** Begin Patch\n", nil},
		{"other tags", "<FILE_NEWS>\n<FILE_>\n<FILE>\n<FILES_CHANGES>\n", nil},

		{"chunk yaml", "operations:\n  - op: replace\n    path: a.py\n    marker: x\n", nil},
		{"python ellipsis", "class P(Protocol):\n    def f(self) -> int:\n        ...\n", nil},
		{"doctest", ">>> for i in x:\n...     print(i)\n", nil},

		// Placeholders.
		{"placeholder between code", "def f():\n    x = 1\n    # ... existing code ...\n    return x\n", []Debris{
			{3, "elision placeholder `# ... existing code ...`"}}},
		{"bare ellipsis comment", "if err != nil {\n\t// ...\n}\n", []Debris{{2, "elision placeholder `// ...`"}}},
		{"phrase without ellipsis", "x = 1\n// rest of the file unchanged\n", []Debris{{2, "elision placeholder `// rest of the file unchanged`"}}},
		{"block comment", "f();\n/* ... */\ng();\n", []Debris{{2, "elision placeholder `/* ... */`"}}},
		{"html", "<ul>\n  <!-- ... existing items ... -->\n</ul>\n", []Debris{{2, "elision placeholder `<!-- ... existing items ... -->`"}}},
		{"strong after a comment", "// Set up.\n// ... existing code ...\nx := 1\n", []Debris{{2, "elision placeholder `// ... existing code ...`"}}},
		{"example in a doc comment", "// For example:\n//\n//\tx := f()\n//\t...\n//\treturn x\nfunc F() {}\n", nil},
		{"pseudo-code in a comment", "//   for {\n//     ... body of loop ...\n//   }\n", nil},
		{"sentence wrapped", "// The first part is copied and\n// the rest of the file unchanged.\nx := 1\n", nil},
		{"comment follows", "x := 1\n// ...\n// Compute the total.\n", nil},
		{"other comment kind next", "x = 1\n# ...\n// y\n", []Debris{{2, "elision placeholder `# ...`"}}},
		{"placeholder at end", "x = 1\n# ...", []Debris{{2, "elision placeholder `# ...`"}}},
		{"prose in ellipses", "x = 1\n# ... but not again ...\n", nil},
		{"comment of real code", "x = 1\n// the value is unchanged if err is nil\n# Rest of the file is generated\n", nil},

		// Line ends.
		{"crlf", "a\r\n<<<<<<< SEARCH\r\nb\r\n=======\r\n>>>>>>> REPLACE\r\n\tx = 1\r\n\t// ... existing code ...\r\n", []Debris{
			{2, "SEARCH/REPLACE marker `<<<<<<< SEARCH`"}, {5, "SEARCH/REPLACE marker `>>>>>>> REPLACE`"},
			{7, "elision placeholder `// ... existing code ...`"}}},
		{"crlf near miss", "<<<<<<< HEAD\r\n=======\r\n>>>>>>> x\r\n", nil},
		{"byte order mark", "\ufeff<<<FIUP>>>\n", []Debris{{1, "FIUP marker `<<<FIUP>>>`"}}},
		{"no final newline", "a\n*** End Patch", []Debris{{2, "apply-patch marker `*** End Patch`"}}},
		{"blank lines count", "\n\n\n<<<<<<< EDIT\n", []Debris{{4, "edit-v2 marker `<<<<<<< EDIT`"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, FindDebris(tt.text)); diff != "" {
				t.Errorf("FindDebris(%q) (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// largeText is about size bytes of source code with comments, and
// some debris at its end.
func largeText(size int) string {
	const unit = `// Package x does things.
package x

import "fmt"

// F prints what it is given, unless the value is unchanged.
func F(v int) error {
	/* A block comment
	 * with a continuation line. */
	if v == 0 {
		return fmt.Errorf("zero: %d", v) // a trailing comment
	}
	# a hash comment, as in Python or shell
	-- and one as in SQL
	<div class="x">text</div>
	return nil
}

`
	var b strings.Builder
	b.Grow(size + len(unit))
	for b.Len() < size {
		b.WriteString(unit)
	}
	b.WriteString("<<<<<<< SEARCH\n\t// ... existing code ...\n")
	return b.String()
}

// TestFindDebrisLargeText checks that a 10 MB text is read through to
// its end; BenchmarkFindDebris measures how fast.
func TestFindDebrisLargeText(t *testing.T) {
	text := largeText(10 << 20)
	if got := FindDebris(text); len(got) != 2 {
		t.Errorf("found %v, want the two lines at the end", got)
	}
}

func BenchmarkFindDebris(b *testing.B) {
	text := largeText(10 << 20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		FindDebris(text)
	}
}

// FuzzFindDebris: any text, no panic, findings in line order and within
// the text's lines.
func FuzzFindDebris(f *testing.F) {
	f.Add("x := 1\n<<<<<<< SEARCH\n// ... existing code ...\n")
	f.Add("\r\n*** Begin Patch\r\n<FILE_CHANGES>")
	f.Add("\ufeff<<<FIUP>>>\n# rest of the file unchanged")
	f.Fuzz(func(t *testing.T, text string) {
		lines := strings.Count(text, "\n") + 1
		last := 0
		for _, d := range FindDebris(text) {
			if d.Line < 1 || d.Line > lines || d.Line < last || d.What == "" {
				t.Fatalf("finding %+v in a text of %d lines (previous line %d)", d, lines, last)
			}
			last = d.Line
		}
	})
}
