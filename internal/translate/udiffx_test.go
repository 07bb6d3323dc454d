package translate

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/git-llm-apply/git-llm-apply/internal/golden"
)

// udxDump writes what readUdiffx returned, one item a line.
func udxDump(r *Reply, err error) string {
	return dumpStyle{flags: func(op Operation) []dumpFlag {
		return []dumpFlag{{op.Overwrite, "overwrite"}, {op.Recursive, "recursive"}, {op.Ordered, "ordered"},
			{op.Where == AtStart, "at-start"}, {op.Where == AtEnd, "at-end"}}
	}}.dump(r, err)
}

func TestParseUdiffx(t *testing.T) {
	udiffxContract.runDumpCases(t, udxDump, []dumpCase{{
		name: "every directive, prose around",
		reply: `Rename the helper and drop the old notes.

<FILE_CHANGES>
<FILE_NEW file_path="src/hello.rs">
pub fn hello() { println!("Hello"); }
</FILE_NEW>

<FILE_PATCH file_path="src/main.rs">
@@ -1,3 +1,3 @@
-fn main() { println!("Hello"); }
+fn main() { println!("Hello, world"); }
</FILE_PATCH>
<FILE_RENAME from_path="a.txt" to_path="docs/a.txt" />
<FILE_DELETE file_path="old" />
</FILE_CHANGES>

That is all.
`,
		want: `4 create src/hello.rs overwrite
  new|pub fn hello() { println!("Hello"); }
9 edit src/main.rs group 1 hint 1 ordered
  old|fn main() { println!("Hello"); }
  new|fn main() { println!("Hello, world"); }
13 rename a.txt -> docs/a.txt
14 delete-file old recursive
prose|Rename the helper and drop the old notes.
prose|
prose|That is all.
`,
	}, {
		name: "fenced envelope, fenced bodies",
		reply: "Fix it.\n" +
			"```xml\n" +
			"<FILE_CHANGES>\n" +
			"<FILE_NEW file_path=\"a.py\">\n" +
			"```python\n" +
			"print(1)\n" +
			"```\n" +
			"</FILE_NEW>\n" +
			"<FILE_PATCH file_path=\"b.py\">\n" +
			"```diff\n" +
			"--- a/b.py\n" +
			"+++ b/b.py\n" +
			"@@ -2,2 +2,2 @@\n" +
			" x\n" +
			"-y\n" +
			"+z\n" +
			"```\n" +
			"</FILE_PATCH>\n" +
			"</FILE_CHANGES>\n" +
			"```\n" +
			"Done.\n",
		want: `4 create a.py overwrite
  new|print(1)
13 edit b.py group 1 hint 2 ordered
  old|x
  old|y
  new|x
  new|z
prose|Fix it.
prose|Done.
`,
	}, {
		name: "attributes: quotes, order, spacing, case, several lines",
		reply: `<FILE_CHANGES>
<file_rename  to_path = 'b.txt'   from_path="a.txt"/>
<FILE_RENAME
    from_path="c.txt"
    to_path="d.txt"
/>
<FILE_DELETE file_path=gone.txt/>
<FILE_DELETE file_path=“typo.txt” >
</FILE_DELETE>
<FILE_NEW file_path="inline.txt">one line</FILE_NEW>
<FILE_NEW file_path="empty.txt" />
</FILE_CHANGES>
`,
		want: `2 rename a.txt -> b.txt
3 rename c.txt -> d.txt
7 delete-file gone.txt recursive
8 delete-file typo.txt recursive
10 create inline.txt overwrite
  new|one line
11 create empty.txt overwrite
warning 2: "<file_rename  to_path = 'b.txt'   from_path=\"a.txt\"/>" is read as the udiffx tag "<FILE_RENAME>"; write it as the format spells it
`,
	}, {
		name:  "all on one line",
		reply: `<FILE_CHANGES><FILE_DELETE file_path="a"/><FILE_DELETE file_path="b"></FILE_DELETE></FILE_CHANGES> thanks`,
		want: `1 delete-file a recursive
1 delete-file b recursive
`,
	}, {
		name:  "an envelope opening within a line",
		reply: "Mention `<FILE_CHANGES>` first. Here it is: <FILE_CHANGES>\n<FILE_DELETE file_path=\"a\" />\n</FILE_CHANGES>\n",
		want: `2 delete-file a recursive
prose|Mention ` + "`<FILE_CHANGES>`" + ` first. Here it is: 
`,
	}, {
		name: "broken directives do not swallow the ones after them",
		reply: `<FILE_CHANGES>
<FILE_NEW path="a.py">
x = 1
</FILE_NEW>
<FILE_PATCH file_path="b.py">
@@ -1 +1 @@
-a
+b
<FILE_DELETE file_path="c.py" />
<FILE_MOVE from_path="d" to_path="e" />
<FILE_RENAME from_path="f" />
<FILE_NEW file_path="g.py>
print()
</FILE_NEW>
<FILE_DELETE file_path="h.py"
<FILE_PATCH file_path="i.py">
@@ @@
 same
</FILE_PATCH>
<FILE_NEW file_path="j.py">
ok = True
</FILE_NEW>
</FILE_CHANGES>
`,
		want: `9 delete-file c.py recursive
20 create j.py overwrite
  new|ok = True
2 FAILED a.py: the <FILE_NEW> tag has no file_path attribute (it has path)
5 FAILED b.py: the <FILE_PATCH> directive has no closing </FILE_PATCH> before line 9
10 FAILED d: unknown directive <FILE_MOVE>: the directives are <FILE_NEW>, <FILE_PATCH>, <FILE_APPEND>, <FILE_RENAME> and <FILE_DELETE>
11 FAILED f: the <FILE_RENAME> tag has no to_path attribute (it has from_path)
12 FAILED : the <FILE_NEW> tag has no closing quote after file_path=
15 FAILED h.py: the <FILE_DELETE> tag has no closing ">"
16 FAILED i.py: the patch changes nothing: its hunks hold context lines only, no "-" or "+" line
warning 2: the attribute path of <FILE_NEW> is ignored
warning 17: the hunk changes no line (context only); ignored
`,
	}, {
		name: "FILE_APPEND: raw lines at the end, in any case, fenced or not; empty or unclosed fails",
		reply: `<FILE_CHANGES>
<FILE_APPEND file_path="a.txt">

+not a diff line
@@ neither
</FILE_APPEND>
<file_append file_path="b.txt">
` + "```" + `
x
` + "```" + `
</file_append>
<FILE_APPEND file_path="c.txt" />
<FILE_APPEND file_path="d.txt">
</FILE_APPEND>
<FILE_APPEND path="e.txt">
y
</FILE_APPEND>
<FILE_APPEND file_path="f.txt">
z
<FILE_DELETE file_path="g.txt" />
</FILE_CHANGES>
`,
		want: `2 edit a.txt at-end
  new|
  new|+not a diff line
  new|@@ neither
7 edit b.txt at-end
  new|x
20 delete-file g.txt recursive
12 FAILED c.txt: the <FILE_APPEND> directive holds no line to append
13 FAILED d.txt: the <FILE_APPEND> directive holds no line to append
15 FAILED e.txt: the <FILE_APPEND> tag has no file_path attribute (it has path)
18 FAILED f.txt: the <FILE_APPEND> directive has no closing </FILE_APPEND> before line 20
warning 7: "<file_append file_path=\"b.txt\">" is read as the udiffx tag "<FILE_APPEND>"; write it as the format spells it
warning 11: "</file_append>" is read as the udiffx tag "</FILE_APPEND>"; write it as the format spells it
warning 15: the attribute path of <FILE_APPEND> is ignored
`,
	}, {
		name: "missing </FILE_CHANGES>: read to the end",
		reply: `Intro.
<FILE_CHANGES>
<FILE_DELETE file_path="a" />
`,
		want: `3 delete-file a recursive
warning 2: the <FILE_CHANGES> envelope has no closing </FILE_CHANGES>; it is read to the end of the reply
prose|Intro.
`,
	}, {
		name:  "missing </FILE_CHANGES> in a fence: read to the fence",
		reply: "```\n<FILE_CHANGES>\n<FILE_DELETE file_path=\"a\" />\n```\nDelete a.\n",
		want: `3 delete-file a recursive
warning 2: the <FILE_CHANGES> envelope has no closing </FILE_CHANGES>; it is read to the fence that closes at line 4
prose|Delete a.
`,
	}, {
		name: "only the first envelope; stray text, tags and fences inside",
		reply: "<FILE_CHANGES>\n" +
			"Now the deletion:\n" +
			"```\n" +
			"<FILE_DELETE file_path=\"a\" />\n" +
			"```\n" +
			"</FILE_NEW>\n" +
			"<FILE_CHANGES>\n" +
			"</FILE_CHANGES>\n" +
			"Between.\n" +
			"<FILE_CHANGES>\n" +
			"<FILE_DELETE file_path=\"b\" />\n" +
			"</FILE_CHANGES>\n",
		want: `4 delete-file a recursive
warning 2: text between directives is ignored: "Now the deletion:"
warning 6: a stray </FILE_NEW> is ignored
warning 7: a nested <FILE_CHANGES> is ignored
warning 10: only the first <FILE_CHANGES> envelope is read (line 1); this one is ignored
prose|Between.
`,
	}, {
		name: "patch headers naming another file, shell blocks in the prose",
		reply: "Run the tests after:\n" +
			"```bash\n" +
			"go test ./...\n" +
			"```\n" +
			"<FILE_CHANGES>\n" +
			"<FILE_PATCH file_path=\"src/a.go\">\n" +
			"--- a/src/b.go\n" +
			"+++ b/src/b.go\n" +
			"@@ -1 +1 @@\n" +
			"-x\n" +
			"+y\n" +
			"</FILE_PATCH>\n" +
			"<FILE_PATCH file_path=\"c.go\">\n" +
			"--- a/lib/c.go\n" +
			"+++ b/lib/c.go\n" +
			"@@ -1 +1 @@\n" +
			"-x\n" +
			"+y\n" +
			"</FILE_PATCH>\n" +
			"</FILE_CHANGES>\n",
		want: `9 edit src/a.go group 1 hint 1 ordered
  old|x
  new|y
16 edit c.go group 2 hint 1 ordered
  old|x
  new|y
warning 7: the patch header names src/b.go; the hunks edit src/a.go, the file_path
shell 2 bash: "go test ./...\n"
prose|Run the tests after:
`,
	}, {
		// A fence open where the envelope starts wraps it, whatever its
		// language: none of its lines is a shell command or prose.
		name: "a shell fence wrapping the envelope, shell fences after it",
		reply: "Apply:\n" +
			"```sh\n" +
			"<FILE_CHANGES>\n" +
			"<FILE_DELETE file_path=\"a\" />\n" +
			"</FILE_CHANGES>\n" +
			"echo wrapped\n" +
			"```\n" +
			"Then:\n" +
			"<pre>sh\n" +
			"rm -r build\n" +
			"</pre>\n" +
			"```sh\n" +
			"make\n" +
			"```\n" +
			"Last:\n" +
			"```sh\n" +
			"make test\n",
		want: `4 delete-file a recursive
shell 12 sh: "make\n"
shell 16 sh: "make test\n"
prose|Apply:
prose|Then:
prose|Last:
`,
	}, {
		name: "a shell fence ending an unclosed envelope",
		reply: "```bash\n" +
			"<FILE_CHANGES>\n" +
			"<FILE_DELETE file_path=\"b\" />\n" +
			"```\n" +
			"After.\n" +
			"```sh\n" +
			"ls\n" +
			"```\n",
		want: `3 delete-file b recursive
warning 2: the <FILE_CHANGES> envelope has no closing </FILE_CHANGES>; it is read to the fence that closes at line 4
shell 6 sh: "ls\n"
prose|After.
`,
	}, {
		name:  "CRLF, blank lines kept inside a new file",
		reply: "<FILE_CHANGES>\r\n<FILE_NEW file_path=\"a.txt\">\r\n\r\none\r\n\r\ntwo\r\n</FILE_NEW>\r\n</FILE_CHANGES>\r\n",
		want: `2 create a.txt overwrite
  new|
  new|one
  new|
  new|two
`,
	}, {
		name: "content with markup and a fence inside",
		reply: "<FILE_CHANGES>\n" +
			"<FILE_NEW file_path=\"README.md\">\n" +
			"<div>Hi</div>\n" +
			"```sh\n" +
			"make\n" +
			"```\n" +
			"End.\n" +
			"</FILE_NEW>\n" +
			"</FILE_CHANGES>\n",
		want: `2 create README.md overwrite
  new|<div>Hi</div>
  new|` + "```sh" + `
  new|make
  new|` + "```" + `
  new|End.
`,
	}})
}

func TestParseUdiffxNoEdits(t *testing.T) {
	for _, tc := range []struct {
		name, reply, want string
	}{{
		name:  "no envelope",
		reply: "Just words.\n",
		want:  "no edit found in the reply: the reply has no <FILE_CHANGES> envelope",
	}, {
		name:  "directives without envelope",
		reply: "Here:\n<FILE_DELETE file_path=\"a\" />\n",
		want:  "no edit found in the reply: the reply has no <FILE_CHANGES> envelope (the <FILE_DELETE> tag at line 2 stands outside one: wrap the directives in <FILE_CHANGES> ... </FILE_CHANGES>)",
	}, {
		name:  "empty envelope",
		reply: "Nothing to do.\n<FILE_CHANGES>\n</FILE_CHANGES>\n",
		want:  "no edit found in the reply: the <FILE_CHANGES> envelope at line 2 holds no directive (FILE_NEW, FILE_PATCH, FILE_APPEND, FILE_RENAME, FILE_DELETE)",
	}, {
		name:  "envelope mentioned inline is no envelope",
		reply: "I would use a `<FILE_CHANGES>` block.\n",
		want:  "no edit found in the reply: the reply has no <FILE_CHANGES> envelope",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := readUdiffx(tc.reply)
			if !errors.Is(err, ErrNoEdits) {
				t.Fatalf("error %v, want ErrNoEdits", err)
			}
			if err.Error() != tc.want {
				t.Errorf("error\n%s\nwant\n%s", err, tc.want)
			}
			if r == nil || len(r.Prose) == 0 {
				t.Errorf("the prose should be returned: %+v", r)
			}
		})
	}
}

// TestParseUdiffxBodyLimits checks that a body ends where a line starts
// with another directive, so that a missing closing tag costs only its
// own directive.
func TestParseUdiffxBodyLimits(t *testing.T) {
	reply := `<FILE_CHANGES>
<FILE_NEW file_path="a.txt">
text
  <FILE_DELETE file_path="b" />
</FILE_CHANGES>
`
	r, err := readUdiffx(reply)
	if err != nil {
		t.Fatal(err)
	}
	want := `4 delete-file b recursive
2 FAILED a.txt: the <FILE_NEW> directive has no closing </FILE_NEW> before line 4
`
	if diff := cmp.Diff(want, udxDump(r, err)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestUdxStripFence(t *testing.T) {
	for _, tc := range []struct {
		in, want []string
		first    int
	}{
		{[]string{"```go", "x", "```"}, []string{"x"}, 11},
		{[]string{"", "````", "```", "x", "```", "````", ""}, []string{"```", "x", "```"}, 12},
		{[]string{"~~~", "x", "~~~"}, []string{"x"}, 11},
		{[]string{"```", "x", "``"}, []string{"```", "x", "``"}, 10},
		{[]string{"```", "x", "``` y"}, []string{"```", "x", "``` y"}, 10},
		{[]string{"````", "x", "```"}, []string{"````", "x", "```"}, 10},
		{[]string{"```"}, []string{"```"}, 10},
		{[]string{"x", "```"}, []string{"x", "```"}, 10},
	} {
		got, first := udxStripFence(tc.in, 10)
		if !cmp.Equal(got, tc.want) || first != tc.first {
			t.Errorf("udxStripFence(%q) = %q, %d; want %q, %d", tc.in, got, first, tc.want, tc.first)
		}
	}
}

// TestUdiffxPromptExample checks that the prompt's example reads
// cleanly, uses every directive, and is the reply of the golden case
// testdata/udiffx/prompt-example (which runs it through the engine).
func TestUdiffxPromptExample(t *testing.T) {
	r := udiffxContract.readPromptExample(t)
	if len(r.Prose) == 0 {
		t.Errorf("the example should hold prose: %s", udxDump(r, nil))
	}
	kinds := map[Kind]bool{}
	for _, op := range r.Ops {
		kinds[op.Kind] = true
	}
	if len(kinds) != 4 {
		t.Errorf("the example should use every directive: %s", udxDump(r, nil))
	}
}

// TestUdiffxGoldenReplies reads every reply of testdata/udiffx: each
// gives operations or failed directives, never an error, except the
// case without an envelope.
func TestUdiffxGoldenReplies(t *testing.T) {
	for _, file := range goldenReplyFiles(t, FormatUdiffx) {
		r, err := readUdiffx(file.text)
		noEdits := golden.Name(file.name) == "no-envelope"
		if noEdits != errors.Is(err, ErrNoEdits) || err == nil && len(r.Ops)+len(r.Failed) == 0 {
			t.Errorf("%s: %v", file.name, err)
		}
	}
}
