package translate

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// udiffDump writes what readUdiff returned, one item a line.
func udiffDump(r *Reply, err error) string {
	return dumpStyle{quote: true, flags: func(op Operation) []dumpFlag {
		return []dumpFlag{{op.Overwrite, "overwrite"}, {op.Executable, "executable"}, {op.Where == AtStart, "at-start"},
			{op.Where == AtEnd, "at-end"}, {op.Kind == Edit && !op.Ordered, "BAD unordered"}}
	}}.dump(r, err)
}

// fenced wraps lines in a ```diff fence.
func fenced(lines ...string) string {
	return "```diff\n" + strings.Join(lines, "\n") + "\n```\n"
}

func TestParseUdiff(t *testing.T) {
	udiffContract.runDumpCases(t, udiffDump, []dumpCase{{
		name: "two files in one fence, with and without a/ b/",
		reply: "Rename the variable.\n\n" + fenced(
			"--- a/src/x.py",
			"+++ b/src/x.py",
			"@@ -1,3 +1,3 @@",
			" a = 1",
			"-b = 2",
			"+c = 2",
			"--- src/y.py",
			"+++ src/y.py",
			"@@ -10,2 +10,2 @@",
			"-print(b)",
			"+print(c)",
		) + "\nThat is all.\n",
		want: `6 edit "src/x.py" group 1 hint 1
  old|a = 1
  old|b = 2
  new|a = 1
  new|c = 2
12 edit "src/y.py" group 2 hint 10
  old|print(b)
  new|print(c)
prose|Rename the variable.
prose|
prose|That is all.
`,
	}, {
		name: "several fences, a shell block, a code sample",
		reply: "Two changes.\n\n" +
			fenced("--- a/a.txt", "+++ b/a.txt", "@@ @@", "-1", "+2") +
			"\nAn example:\n\n```python\nx = 1\n```\n\n" +
			fenced("--- a/b.txt", "+++ b/b.txt", "@@ @@", "-3", "+4") +
			"\n```bash\nmake test\n```\n",
		want: `6 edit "a.txt" group 1
  old|1
  new|2
20 edit "b.txt" group 2
  old|3
  new|4
shell 25 bash: "make test\n"
prose|Two changes.
prose|
prose|An example:
`,
	}, {
		name: "create and delete through /dev/null",
		reply: fenced(
			"--- /dev/null",
			"+++ b/docs/new.md",
			"@@ -0,0 +1,2 @@",
			"+# New",
			"+text",
			"--- a/old.md",
			"+++ /dev/null",
			"@@ -1 +0,0 @@",
			"-gone",
		),
		want: `2 create "docs/new.md"
  new|# New
  new|text
7 delete-file "old.md"
`,
	}, {
		name: "names with spaces, timestamps, remarks and quotes",
		reply: fenced(
			"--- a/my file.txt\t2024-05-01 10:00:00.000000000 +0200",
			"+++ b/my file.txt\t2024-05-01 10:05:00.000000000 +0200",
			"@@ -1 +1 @@",
			"-x",
			"+y",
			"--- notes.txt 2024-05-01 10:00:00",
			"+++ notes.txt (working copy)",
			"@@ -1 +1 @@",
			"-x",
			"+y",
			`--- "a/caf\303\251 menu.txt"`,
			`+++ "b/caf\303\251 menu.txt"`,
			"@@ -1 +1 @@",
			"-x",
			"+y",
			`--- "a/tab\there"`,
			`+++ "b/tab\there"	2024-05-01`,
			"@@ -1 +1 @@",
			"-x",
			"+y",
		),
		want: `4 edit "my file.txt" group 1 hint 1
  old|x
  new|y
9 edit "notes.txt" group 2 hint 1
  old|x
  new|y
14 edit "café menu.txt" group 3 hint 1
  old|x
  new|y
19 edit "tab\there" group 4 hint 1
  old|x
  new|y
`,
	}, {
		name: "no numbers, wrong numbers and counts, a context line without its space",
		reply: fenced(
			"--- a/f.go",
			"+++ b/f.go",
			"@@ ... @@",
			"-a",
			"+b",
			"@@ -400,1 +400,9 @@ func g() {",
			"func g() {",
			"-\treturn 1",
			"+\treturn 2",
			"}",
		),
		want: `4 edit "f.go" group 1
  old|a
  new|b
7 edit "f.go" group 1 hint 400
  old|func g() {
  old|	return 1
  old|}
  new|func g() {
  new|	return 2
  new|}
`,
	}, {
		name: "a git diff pasted without a fence: rename, mode, edit, new executable, delete",
		reply: `Move the script and make it strict.

diff --git a/tool.sh b/scripts/build.sh
old mode 100644
new mode 100755
similarity index 80%
rename from tool.sh
rename to scripts/build.sh
index 0123456..789abcd
--- a/tool.sh
+++ b/scripts/build.sh
@@ -1,2 +1,3 @@
 #!/bin/sh
+set -e
 echo "building"
diff --git a/run b/run
new file mode 100755
index 0000000..1111111
--- /dev/null
+++ b/run
@@ -0,0 +1,2 @@
+#!/bin/sh
+exec scripts/build.sh
diff --git a/old.txt b/old.txt
deleted file mode 100644
index 2222222..0000000
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-old

- The script now stops at the first error.
`,
		want: `3 rename "tool.sh" -> "scripts/build.sh"
5 chmod "scripts/build.sh" executable
12 edit "scripts/build.sh" group 1 hint 1
  old|#!/bin/sh
  old|echo "building"
  new|#!/bin/sh
  new|set -e
  new|echo "building"
16 create "run"
  new|#!/bin/sh
  new|exec scripts/build.sh
17 chmod "run" executable
24 delete-file "old.txt"
prose|Move the script and make it strict.
prose|
prose|- The script now stops at the first error.
`,
	}, {
		name: "a pure rename, a pure mode change, an empty new file",
		reply: `diff --git a/a b/b
similarity index 100%
rename from a
rename to b
diff --git a/run.sh b/run.sh
old mode 100755
new mode 100644
diff --git a/empty b/empty
new file mode 100644
index 0000000..e69de29
`,
		want: `1 rename "a" -> "b"
7 chmod "run.sh"
8 create "empty"
`,
	}, {
		name: "counts end an unfenced diff; a format-patch signature is not a line",
		reply: `diff --git a/x b/x
--- a/x
+++ b/x
@@ -1,2 +1,2 @@
-a
+b
 c
- this bullet is prose: the counts are used up
-- 
2.43.0
`,
		want: `4 edit "x" group 1 hint 1
  old|a
  old|c
  new|b
  new|c
warning 8: the @@ counts of the hunk at line 4 end the diff before this line, which is read as prose; fix the counts if it belongs to the hunk
prose|- this bullet is prose: the counts are used up
prose|-- 
prose|2.43.0
`,
	}, {
		name: "a blank line ends an unfenced diff unless another hunk follows",
		reply: `diff --git a/x b/x
--- a/x
+++ b/x
@@ -1 +1 @@
-a
+b

@@ -9 +9 @@
-c
+d

Done.
`,
		want: `4 edit "x" group 1 hint 1
  old|a
  new|b
8 edit "x" group 1 hint 9
  old|c
  new|d
prose|Done.
`,
	}, {
		name: "binary files, copies and symbolic links fail; the next file still counts",
		reply: "```diff\n" + `diff --git a/logo.png b/logo.png
index 1111111..2222222 100644
Binary files a/logo.png and b/logo.png differ
diff --git a/icon.bin b/icon.bin
index 735a958..9c943e6 100644
GIT binary patch
literal 13
UcmYdHVn|M9WMXDvWn<?601<ToumAu6

literal 5
McmYdHVn|K_00f)?ivR!s

diff --git a/a.txt b/c.txt
similarity index 100%
copy from a.txt
copy to c.txt
diff --git a/link b/link
new file mode 120000
--- /dev/null
+++ b/link
@@ -0,0 +1 @@
+target
\ No newline at end of file
diff --git a/x.txt b/x.txt
--- a/x.txt
+++ b/x.txt
@@ -1 +1 @@
-a
+b
` + "```\n",
		want: `28 edit "x.txt" group 1 hint 1
  old|a
  new|b
4 FAILED "logo.png": "Binary files a/logo.png and b/logo.png differ": binary files are never edited; change it yourself
7 FAILED "icon.bin": "GIT binary patch": binary files are never edited; change it yourself
16 FAILED "c.txt": "copy from a.txt": copies are not applied; write the copy as a new file (--- /dev/null)
19 FAILED "link": "new file mode 120000": only regular files (100644 and 100755) are written, not a symbolic link
`,
	}, {
		name: "a diff without headers takes the name above the fence, then the one before",
		reply: "src/app.py\n" + fenced("@@ -3 +3 @@", "-a", "+b") +
			"\nAnd further down:\n\n" + fenced("@@ -30 +30 @@", "-c", "+d") +
			"\n" + "```diff lib/util.py\n@@ @@\n-e\n+f\n```\n",
		want: `3 edit "src/app.py" group 1 hint 3
  old|a
  new|b
11 edit "src/app.py" group 2 hint 30
  old|c
  new|d
17 edit "lib/util.py" group 3
  old|e
  new|f
prose|And further down:
`,
	}, {
		name:  "a diff without headers or a name fails",
		reply: "Change this:\n\n" + fenced("@@ -3 +3 @@", "-a", "+b"),
		want: `4 FAILED "": the diff names no file: start it with the lines --- a/PATH and +++ b/PATH
prose|Change this:
`,
	}, {
		name:  "different names without rename lines: the +++ one is edited",
		reply: fenced("--- a/app.py.orig", "+++ b/app.py", "@@ -1 +1 @@", "-a", "+b"),
		want: `4 edit "app.py" group 1 hint 1
  old|a
  new|b
warning 2: the header names app.py.orig and app.py: the hunks edit app.py (a rename needs the lines "rename from" and "rename to" of a git diff)
`,
	}, {
		name:  "headers only, and context only",
		reply: fenced("--- a/x", "+++ b/x", "--- a/y", "+++ b/y", "@@ @@", " same"),
		want: `2 FAILED "x": the diff of x holds no hunk: write each change as an @@ line followed by context (" "), removed ("-") and added ("+") lines
4 FAILED "y": the diff of y changes nothing: its hunks hold context lines only, no "-" or "+" line
warning 6: the hunk changes no line (context only); ignored
`,
	}, {
		name:  "a fence cut off",
		reply: "Fix.\n```diff\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n+b\n",
		want: `2 FAILED "x": the diff fence opened at line 2 is never closed: the reply ends first (was it cut off?), so its last hunk may be cut too; nothing of it is applied
prose|Fix.
`,
	}, {
		name:  "a Markdown context line holding a fence does not close the diff",
		reply: fenced("--- a/README.md", "+++ b/README.md", "@@ -1,4 +1,4 @@", " ```sh", "-make", "+make all", " ```", " More."),
		want: `4 edit "README.md" group 1 hint 1
  old|` + "```sh" + `
  old|make
  old|` + "```" + `
  old|More.
  new|` + "```sh" + `
  new|make all
  new|` + "```" + `
  new|More.
`,
	}, {
		name:  "a fence indented in a list",
		reply: "1. Fix x:\n\n   ```diff\n   --- a/x\n   +++ b/x\n   @@ -1,2 +1,2 @@\n    keep\n   -a\n   +b\n   ```\n",
		want: `6 edit "x" group 1 hint 1
  old|keep
  old|a
  new|keep
  new|b
prose|1. Fix x:
`,
	}, {
		name:  "a git diff in a text fence, a change of the final newline",
		reply: "```text\n" + "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n```\n",
		want: `5 edit "x" group 1 hint 1
  old|a
  new|a
warning 5: the hunk changes whether x ends with a line break; the file keeps its own
`,
	}, {
		name:  "CRLF reply",
		reply: strings.ReplaceAll("Fix.\n\n"+fenced("--- a/x", "+++ b/x", "@@ -1 +1 @@", "-a", "+b"), "\n", "\r\n"),
		want: `6 edit "x" group 1 hint 1
  old|a
  new|b
prose|Fix.
`,
	}})
}

func TestParseUdiffNoEdits(t *testing.T) {
	for _, tc := range []struct{ name, reply string }{
		{"prose", "Nothing to change.\n"},
		{"a diff fence of plus and minus lines only", "```diff\n- old idea\n+ new idea\n```\n"},
		{"SEARCH/REPLACE in a diff fence", "app.py\n```diff\n<<<<<<< SEARCH\n-x\n=======\n+y\n>>>>>>> REPLACE\n```\n"},
		{"a udiffx envelope with a fenced patch", "<FILE_CHANGES>\n<FILE_PATCH file_path=\"a\">\n```diff\n--- a/a\n+++ b/a\n@@ @@\n-x\n+y\n```\n</FILE_PATCH>\n</FILE_CHANGES>\n"},
		{"a fenced udiffx envelope", "```xml\n<FILE_CHANGES>\n<FILE_PATCH file_path=\"a\">\n--- a/a\n+++ b/a\n@@ @@\n-x\n+y\n</FILE_PATCH>\n</FILE_CHANGES>\n```\n"},
		{"an apply-patch block", "*** Begin Patch\n*** Update File: a\n@@\n-x\n+y\n*** End Patch\n"},
		{"a fenced apply-patch block", "```\n*** Begin Patch\n*** Update File: a\n@@ def f\n-x\n+y\n*** End Patch\n```\n"},
		{"a python fence", "```python\nx = a - b\ny = +c\n```\n"},
		{"diff --git inside a line", "Run `diff --git a/x b/x` to see.\n"},
		{"a Markdown file that shows a diff", "README.md\n````markdown\nSee:\n```diff\n--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n```\n````\n"},
		{"an edit-v2 block in a diff fence", "app.py\n```diff\n<<<<<<< EDIT\n-------\n--- a\n+++ b\n@@\n=======\n-------\n>>>>>>>\n```\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := readUdiff(tc.reply)
			if !errors.Is(err, ErrNoEdits) || len(r.Ops)+len(r.Failed) != 0 {
				t.Errorf("got %v and\n%s", err, udiffDump(r, nil))
			}
			if at := udiffAt(tc.reply); at != -1 {
				t.Errorf("udiffAt = %d, want -1", at)
			}
		})
	}
}

func TestUdiffAt(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       int
	}{
		{"diff fence", "Fix.\n\n```diff\n--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n```\n", 6},
		{"patch fence, hunks only", "```patch\n@@ -1 +1 @@\n-a\n+b\n```\n", 0},
		{"unlabelled fence", "Fix.\n```\n@@ @@\n-a\n+b\n```\n", 5},
		{"unfenced git diff", "Fix.\r\n\r\ndiff --git a/x b/x\r\n--- a/x\r\n+++ b/x\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n", 8},
		{"after a SEARCH/REPLACE fence", srSample + "\n```diff\n--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n```\n", len(srSample) + 1},
		{"after a one-line udiffx envelope", "<FILE_CHANGES><FILE_DELETE file_path=\"a\" /></FILE_CHANGES>\n```diff\n@@ @@\n-a\n+b\n```\n", 59},
		{"after a udiffx envelope", udxSample + "```diff\n--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n```\n", len(udxSample)},
		{"python fence holding a diff with headers", "```python\n--- a/x.py\n+++ b/x.py\n@@ @@\n-a\n+b\n```\n", 0},
		{"shell fence holding a git diff", "```console\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n```\n", 0},
		{"shell commands only", "```bash\ngit diff\n```\n", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := udiffAt(tc.text); got != tc.want {
				t.Errorf("udiffAt = %d, want %d", got, tc.want)
			}
		})
	}
	if got := Detect("Fix.\n\n```diff\n--- a/x\n+++ b/x\n@@ @@\n-a\n+b\n```\n"); len(got) != 1 || got[0] != FormatUdiff {
		t.Errorf("Detect = %v", got)
	}
	for _, other := range []string{srSample, udxSample, fiupSample, editSample, chunkSample} {
		for _, name := range Detect(other) {
			if name == FormatUdiff {
				t.Errorf("Detect(%q) names udiff", other)
			}
		}
	}
}

func TestUdiffHeaderName(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		null     bool
	}{
		{"a/src/x.go", "src/x.go", false},
		{"src/x.go", "src/x.go", false},
		{"b/my file.txt\t", "my file.txt", false},
		{"a/x.go\t2024-01-01 00:00:00.000000000 +0100", "x.go", false},
		{"x.go 2024-01-01 00:00:00 +0100", "x.go", false},
		{"x.go  2024-01-01T10:00Z", "x.go", false},
		{"x.go (revision 12)", "x.go", false},
		{"/dev/null", "", true},
		{"/dev/null\t1970-01-01 00:00:00 +0000", "", true},
		{`"a/tab\there"`, "tab\there", false},
		{`"b/caf\303\251.txt"` + "\t2024-01-01", "café.txt", false},
		{`"a/quote\"d"`, `quote"d`, false},
		{`"a/unterminated`, "unterminated", false},
	} {
		got, null := udiffHeaderName(tc.in)
		if got != tc.want || null != tc.null {
			t.Errorf("udiffHeaderName(%q) = %q, %v; want %q, %v", tc.in, got, null, tc.want, tc.null)
		}
	}
}

func TestUdiffGitNames(t *testing.T) {
	for _, tc := range []struct{ in, old, new string }{
		{"a/x.go b/x.go", "x.go", "x.go"},
		{"a/my file b/my file", "my file", "my file"},
		{"a/b b/b", "b", "b"},
		{"a/old.go b/new.go", "old.go", "new.go"},
		{"x.go x.go", "x.go", "x.go"},
		{`"a/tab\tx" "b/tab\tx"`, "tab\tx", "tab\tx"},
		{`a/plain "b/caf\303\251"`, "plain", "café"},
		{"a/one two b/three four b/five", "", ""},
		{"", "", ""},
	} {
		o, n := udiffGitNames(tc.in)
		if o != tc.old || n != tc.new {
			t.Errorf("udiffGitNames(%q) = %q, %q; want %q, %q", tc.in, o, n, tc.old, tc.new)
		}
	}
}

// TestUdiffRealGit makes a repository with the git CLI, records a
// commit that edits, creates, deletes, renames (with an edit) and
// chmods files, some with spaces and non-ASCII in their names, and
// checks that the operations read from "git diff" of it give exactly
// the new contents: every edit's old lines stand at its line hint in
// the old file, and splicing them gives the new file.
func TestUdiffRealGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.quotePath=true"}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	write := func(name, content string, mode os.FileMode) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, mode)
	}
	var long []string
	for i := 1; i <= 40; i++ {
		long = append(long, fmt.Sprintf("line %d", i))
	}
	before := map[string]string{
		"src/main.go":     "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n",
		"long.txt":        strings.Join(long, "\n") + "\n",
		"tool.sh":         "#!/bin/sh\necho one\necho two\necho three\necho four\necho five\necho six\n",
		"my notes.txt":    "first\nsecond\n",
		"café/menu.txt":   "soup\nbread\n",
		"gone.txt":        "bye\n",
		"mode-only.sh":    "#!/bin/sh\n",
		"unchanged/a.txt": "a\n",
	}
	git("init", "-q")
	for p, c := range before {
		write(p, c, 0o644)
	}
	git("add", "-A")
	git("commit", "-qm", "base")

	long[2], long[30] = "line three", "line thirty-one"
	long = append(long[:20], long[21:]...)
	after := map[string]string{
		"src/main.go":      "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n",
		"long.txt":         strings.Join(long, "\n") + "\n",
		"scripts/build.sh": "#!/bin/sh\nset -e\necho one\necho two\necho three\necho four\necho five\necho six\n",
		"my notes.txt":     "first\nsecond and a half\n",
		"café/menu.txt":    "soup\nbread\ncheese\n",
		"new dir/new.txt":  "brand\nnew\n",
		"mode-only.sh":     "#!/bin/sh\n",
		"unchanged/a.txt":  "a\n",
	}
	os.Remove(filepath.Join(dir, "gone.txt"))
	os.Remove(filepath.Join(dir, "tool.sh"))
	for p, c := range after {
		write(p, c, 0o644)
	}
	os.Chmod(filepath.Join(dir, "scripts/build.sh"), 0o755)
	os.Chmod(filepath.Join(dir, "mode-only.sh"), 0o755)
	git("add", "-A")
	diff := git("diff", "--cached", "-M", "HEAD")
	for _, want := range []string{"rename from tool.sh", "old mode 100644", `"a/caf\303\251/menu.txt"`, "b/my notes.txt", "deleted file mode", "new file mode"} {
		if !strings.Contains(diff, want) {
			t.Fatalf("git diff lacks %q:\n%s", want, diff)
		}
	}

	for _, reply := range []string{diff, "Apply this.\n\n```diff\n" + diff + "```\n"} {
		r, err := readUdiff(reply)
		if err != nil || len(r.Failed) > 0 || len(r.Warnings) > 0 {
			t.Fatalf("readUdiff: %v\n%s", err, udiffDump(r, err))
		}
		files := map[string]string{}
		for p, c := range before {
			files[p] = c
		}
		modes := map[string]bool{}
		var edits []Operation
		flush := func() {
			if len(edits) > 0 {
				files[edits[0].Path] = spliceExact(t, files[edits[0].Path], edits)
				edits = nil
			}
		}
		for _, op := range r.Ops {
			if op.Kind != Edit || len(edits) > 0 && edits[0].Group != op.Group {
				flush()
			}
			switch op.Kind {
			case Edit:
				edits = append(edits, op)
			case Create:
				if _, ok := files[op.Path]; ok || op.Overwrite {
					t.Errorf("create of %s: it exists, or Overwrite is set", op.Path)
				}
				files[op.Path] = strings.Join(op.New, "\n") + "\n"
			case Delete:
				delete(files, op.Path)
			case Rename:
				files[op.NewPath] = files[op.Path]
				delete(files, op.Path)
			case Chmod:
				modes[op.Path] = op.Executable
			default:
				t.Errorf("operation %+v", op)
			}
		}
		flush()
		if diff := cmp.Diff(after, files); diff != "" {
			t.Errorf("files after the operations (-want +got):\n%s", diff)
		}
		if want := map[string]bool{"scripts/build.sh": true, "mode-only.sh": true}; !cmp.Equal(want, modes) {
			t.Errorf("modes %v, want %v", modes, want)
		}
	}
}

// spliceExact applies the edits of one file's diff the way git does:
// each edit's old lines must stand at its line hint in content; the
// result has them replaced by its new lines.
func spliceExact(t *testing.T, content string, edits []Operation) string {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(content, "\n"), "\n")
	var out []string
	at := 0
	for _, e := range edits {
		start := e.LineHint - 1
		if len(e.Old) == 0 {
			start++ // "@@ -a,0": the insertion goes after line a
		}
		if start < at || start+len(e.Old) > len(lines) || strings.Join(lines[start:start+len(e.Old)], "\n") != strings.Join(e.Old, "\n") {
			t.Fatalf("%s: the old lines of the edit at reply line %d do not stand at line %d", e.Path, e.Line, e.LineHint)
		}
		out = append(append(out, lines[at:start]...), e.New...)
		at = start + len(e.Old)
	}
	return strings.Join(append(out, lines[at:]...), "\n") + "\n"
}

// TestUdiffPromptExample checks that the example of the prompt reads
// without failures or warnings and is detected as udiff alone.
func TestUdiffPromptExample(t *testing.T) {
	udiffContract.readPromptExample(t)
	if names := Detect(promptExample(t, FormatUdiff)); len(names) != 1 || names[0] != FormatUdiff {
		t.Errorf("Detect = %v", names)
	}
}
