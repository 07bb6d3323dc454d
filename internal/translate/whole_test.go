package translate

import (
	"strings"
	"testing"
)

// wholeOp is a whole-file operation as readWhole builds it.
func wholeOp(path string, line int, content ...string) Operation {
	return Operation{Kind: Create, Format: FormatWhole, Path: path, LineEdit: LineEdit{New: content}, FileCreate: FileCreate{Overwrite: len(content) > 0}, Line: line}
}

func TestParseWhole(t *testing.T) {
	wholeContract.runReplyCases(t, []replyCase{{
		name:  "name on the line before, prose around",
		reply: "Add a greeting.\n\nsrc/app.py\n```python\ndef hi():\n    return 1\n```\n\nDone.\n",
		ops:   []Operation{wholeOp("src/app.py", 4, "def hi():", "    return 1")},
		prose: []string{"Add a greeting.", "", "Done."},
	}, {
		name: "every style of name line",
		reply: "**src/a.py**\n```\na\n```\n`src/b.py`\n```\nb\n```\n# src/c.py\n```\nc\n```\nFile: src/d.py\n```\nd\n```\n" +
			"src/e.py:\n```\ne\n```\n**File:** `src/f.py`\n```\nf\n```\n1. `src/g.py`\n```\ng\n```\n- src/h.py (new file)\n```\nh\n```\n" +
			"### Makefile\n```make\nall:\n```\n",
		ops: []Operation{
			wholeOp("src/a.py", 2, "a"), wholeOp("src/b.py", 6, "b"), wholeOp("src/c.py", 10, "c"), wholeOp("src/d.py", 14, "d"),
			wholeOp("src/e.py", 18, "e"), wholeOp("src/f.py", 22, "f"), wholeOp("src/g.py", 26, "g"), wholeOp("src/h.py", 30, "h"),
			wholeOp("Makefile", 34, "all:"),
		},
	}, {
		name:  "a blank line between name and fence",
		reply: "## `src/app.py`\n\n```python\nx = 1\n```\n",
		ops:   []Operation{wholeOp("src/app.py", 3, "x = 1")},
	}, {
		name: "name in the info string",
		reply: "```python src/a.py\na\n```\n```src/b.py\nb\n```\n```python:src/c.py\nc\n```\n" +
			"```python title=\"src/d.py\"\nd\n```\n```js path=src/e.js\ne\n```\n```{.python file=src/f.py}\nf\n```\n",
		ops: []Operation{
			wholeOp("src/a.py", 1, "a"), wholeOp("src/b.py", 4, "b"), wholeOp("src/c.py", 7, "c"),
			wholeOp("src/d.py", 10, "d"), wholeOp("src/e.js", 13, "e"), wholeOp("src/f.py", 16, "f"),
		},
	}, {
		name:     "the info string wins over the line above",
		reply:    "src/a.py\n```python src/b.py\nb\n```\n",
		ops:      []Operation{wholeOp("src/b.py", 2, "b")},
		prose:    []string{"src/a.py"},
		warnings: []Warning{{1, "the fence at line 2 names src/b.py in its info string, which wins over src/a.py"}},
	}, {
		name:  "tildes, and backticks in a tilde info string",
		reply: "notes.md\n~~~markdown `x`\n```go\nfunc f() {}\n```\n~~~\n",
		ops:   []Operation{wholeOp("notes.md", 2, "```go", "func f() {}", "```")},
	}, {
		name:  "a longer fence holds a shorter one",
		reply: "README.md\n````markdown\n# T\n\n```\nrun\n```\n````\n",
		ops:   []Operation{wholeOp("README.md", 2, "# T", "", "```", "run", "```")},
	}, {
		name:  "a fence with an info string nests inside one of the same length",
		reply: "README.md\n```markdown\n# T\n```python\nx = 1\n```\nMore.\n```\nAfter.\n",
		ops:   []Operation{wholeOp("README.md", 2, "# T", "```python", "x = 1", "```", "More.")},
		prose: []string{"After."},
	}, {
		name:  "an indented fence loses its indentation inside",
		reply: "1. `src/app.py`:\n   ```python\n   def f():\n       return 1\n  x\n   ```\n",
		ops:   []Operation{wholeOp("src/app.py", 2, "def f():", "    return 1", "x")},
	}, {
		name:  "several files, an empty one",
		reply: "a.py\n```\nA\n```\n\npkg/__init__.py\n```python\n```\n",
		ops:   []Operation{wholeOp("a.py", 2, "A"), wholeOp("pkg/__init__.py", 7)},
	}, {
		name:  "unnamed shell fences are shell blocks, unnamed snippets prose",
		reply: "Run it:\n```bash\npython app.py\n```\n```console\n$ ls\n```\nFor example:\n```python\nf(1)\n```\napp.py\n```python\nprint(1)\n```\n",
		ops:   []Operation{wholeOp("app.py", 13, "print(1)")},
		prose: []string{"Run it:", "For example:", "```python", "f(1)", "```"},
		shell: []Shell{{Line: 2, Lang: "bash", Text: "python app.py\n"}, {Line: 5, Lang: "console", Text: "$ ls\n"}},
	}, {
		name:  "a named shell fence is a script",
		reply: "scripts/run.sh\n```bash\n#!/bin/sh\necho hi\n```\n",
		ops:   []Operation{wholeOp("scripts/run.sh", 2, "#!/bin/sh", "echo hi")},
	}, {
		name:     "a shell fence under a name that is no script's runs commands",
		reply:    "app.py\n```bash\npython app.py\n```\n",
		prose:    []string{"app.py"},
		shell:    []Shell{{Line: 2, Lang: "bash", Text: "python app.py\n"}},
		warnings: []Warning{{2, "the bash fence under app.py (line 1) is read as shell commands, not as the whole of that file"}},
		noEdits:  true,
	}, {
		name:    "headings and prose are no names",
		reply:   "### Usage\n```python\nf()\n```\n### Node.js\n```js\nx\n```\nInput/Output\n```\ny\n```\nRun it like this:\n```\nz\n```\n12:15:src/a.py\n```\nw\n```\n```12:15:src/a.py\nv\n```\n",
		prose:   strings.Split("### Usage\n```python\nf()\n```\n### Node.js\n```js\nx\n```\nInput/Output\n```\ny\n```\nRun it like this:\n```\nz\n```\n12:15:src/a.py\n```\nw\n```\n```12:15:src/a.py\nv\n```", "\n"),
		noEdits: true,
	}, {
		name:   "a fence never closed fails alone",
		reply:  "a.py\n```\nA\n```\nb.py\n```python\nB\n",
		ops:    []Operation{wholeOp("a.py", 2, "A")},
		failed: []Failure{{Line: 6, Path: "b.py", Msg: "the fence that opens b.py at line 6 is never closed: the reply ends first, at line 7 (was it cut off?); nothing of b.py is written"}},
	}, {
		name:  "a nested fence left open",
		reply: "a.py\n```python\nA\nb.py\n```python\nB\n```\n",
		failed: []Failure{{Line: 2, Path: "a.py", Msg: "the fence that opens a.py at line 2 is never closed: the reply ends first, at line 7 (was it cut off?); nothing of a.py is written. " +
			"Line 5 opens a fence inside the file, which takes the next bare fence as its own end: " +
			"if it starts another file, close this one before it; if the file holds fences, write it inside a longer fence (````)"}},
	}, {
		name:     "another format's markers",
		reply:    "app.py\n```python\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n",
		warnings: []Warning{{2, `the block for app.py is not read as a whole file: line 3 holds the SEARCH/REPLACE marker "<<<<<<< SEARCH"`}},
		noEdits:  true,
	}, {
		name:     "a unified diff is no file, unless it is a patch file",
		reply:    "app.py\n```diff\n-x\n+y\n```\nfix.patch\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-x\n+y\n```\n",
		ops:      []Operation{wholeOp("fix.patch", 7, "--- a/x", "+++ b/x", "@@ -1 +1 @@", "-x", "+y")},
		warnings: []Warning{{2, "the block for app.py is not read as a whole file: line 2 holds a diff fence"}},
	}, {
		name:     "a unified diff in a fence of code, indented",
		reply:    "app.py\n  ```\n  --- a/app.py\n  +++ b/app.py\n  @@ -1 +1 @@\n  -x\n  +y\n  ```\n",
		warnings: []Warning{{2, "the block for app.py is not read as a whole file: line 3 holds a unified diff"}},
		noEdits:  true,
	}, {
		name:     "the same file twice",
		reply:    "a.py\n```\n1\n```\na.py\n```\n2\n```\n",
		ops:      []Operation{wholeOp("a.py", 2, "1"), wholeOp("a.py", 6, "2")},
		warnings: []Warning{{6, "a.py is written whole twice, at lines 2 and 6: the later block wins"}},
	}, {
		name:  "CRLF reply",
		reply: "Fix.\r\n\r\na.py\r\n```\r\nx\r\n\r\n```\r\n",
		ops:   []Operation{wholeOp("a.py", 4, "x", "")},
		prose: []string{"Fix."},
	}, {
		name:    "no fence",
		reply:   "Nothing to do.\n",
		prose:   []string{"Nothing to do."},
		noEdits: true,
	}})
}

func TestWholeAt(t *testing.T) {
	tests := []struct {
		name, reply string
		want        int // -1, or the offset of the marked "|"
	}{
		{"name line", "Intro.\n|src/a.py\n```python\nx\n```\n", 0},
		{"info string", "Intro.\n\n|```python src/a.py\nx\n```\n", 0},
		{"after a snippet and a shell block", "```\nf()\n```\n```bash\nls\n```\n|a.py\n```\nx\n```\n", 0},
		{"unclosed counts", "|a.py\n```\nx\n", 0},
		{"CRLF", "Hi.\r\n|a.py\r\n```\r\nx\r\n```\r\n", 0},
		{"unnamed only", "```python\nx\n```\n", -1},
		{"shell only", "```bash\nrm -rf build\n```\n", -1},
		{"heading", "### Usage\n```\nx\n```\n", -1},
		{"markers", "a.py\n```\n<<<<<<< SEARCH\n```\n", -1},
		{"empty", "", -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			reply := tt.reply
			if i := strings.IndexByte(reply, '|'); i >= 0 {
				want, reply = i, reply[:i]+reply[i+1:]
			}
			if got := wholeAt(reply); got != want {
				t.Errorf("wholeAt = %d, want %d", got, want)
			}
		})
	}
}

// TestDetectWhole checks that whole is detected only when no other
// format is.
func TestDetectWhole(t *testing.T) {
	for reply, want := range map[string]string{
		"a.py\n```\nx\n```\n": "whole",
		"a.py\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n": "diff",
		"```python\nx\n```\n": "",
	} {
		if got := strings.Join(Detect(reply), "+"); got != want {
			t.Errorf("Detect(%q) = %q, want %q", reply, got, want)
		}
	}
}

// TestParseWholeProseNames: a bare fence under a prose line that names
// files becomes a whole file of unknown path, holding those names for
// the engine to check; a fence under prose naming none stays prose.
func TestParseWholeProseNames(t *testing.T) {
	prosed := func(line int, names []string, content ...string) Operation {
		return Operation{Kind: Create, Format: FormatWhole, FileCreate: FileCreate{ProseNames: names, Overwrite: true}, LineEdit: LineEdit{New: content}, Line: line}
	}
	// called: the prose line calls the fence the new version of name.
	called := func(op Operation, name string) Operation {
		op.ProseWhole = name
		return op
	}
	wholeContract.runReplyCases(t, []replyCase{{
		name:  "here is the updated file",
		reply: "Here's the updated `app.py`:\n```python\nx = 2\n```\n",
		ops:   []Operation{called(prosed(2, []string{"app.py"}, "x = 2"), "app.py")},
		prose: []string{"Here's the updated `app.py`:"},
	}, {
		name:  "a blank line between, a bare name, a path",
		reply: "The new version of src/app.py:\n\n```\nx = 2\n```\n",
		ops:   []Operation{called(prosed(3, []string{"src/app.py"}, "x = 2"), "src/app.py")},
		prose: []string{"The new version of src/app.py:"},
	}, {
		name:  "several names, in order",
		reply: "Change `a.py` so that it imports **b.py** and `c/d.go`:\n```python\nimport b\n```\n",
		ops:   []Operation{prosed(2, []string{"a.py", "c/d.go", "b.py"}, "import b")},
		prose: []string{"Change `a.py` so that it imports **b.py** and `c/d.go`:"},
	}, {
		name:    "no file in the prose",
		reply:   "Run it like this:\n```\npython app\n```\nSee https://example.com/a.py and Node.js, e.g. v1.2:\n```\nx\n```\n",
		prose:   strings.Split("Run it like this:\n```\npython app\n```\nSee https://example.com/a.py and Node.js, e.g. v1.2:\n```\nx\n```", "\n"),
		noEdits: true,
	}, {
		name:    "a shell fence stays a suggestion",
		reply:   "Then run `app.py`:\n```bash\npython app.py\n```\n",
		prose:   []string{"Then run `app.py`:"},
		shell:   []Shell{{Line: 2, Lang: "bash", Text: "python app.py\n"}},
		noEdits: true,
	}, {
		name:    "an empty fence is nothing",
		reply:   "Here's `app.py`:\n```\n```\n",
		prose:   []string{"Here's `app.py`:", "```", "```"},
		noEdits: true,
	}, {
		name:    "a fence left open under prose is prose",
		reply:   "Here's `app.py`:\n```\nx = 2\n",
		prose:   []string{"Here's `app.py`:", "```", "x = 2"},
		noEdits: true,
	}, {
		name:  "a named fence keeps its name",
		reply: "Here's the updated `app.py`:\n\nsrc/app.py\n```python\nx = 2\n```\n",
		ops:   []Operation{wholeOp("src/app.py", 4, "x = 2")},
		prose: []string{"Here's the updated `app.py`:"},
	}})
}
