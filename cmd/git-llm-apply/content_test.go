package main

import (
	"strings"
	"testing"
)

const contentApp = `package app

import "fmt"

func greet(name string) string {
	return "Hello " + name
}

func main() {
	fmt.Println(greet("world"))
}
`

// TestElisionRecordsNothing: a whole-file reply that ends in a
// placeholder instead of the rest of the file fails, records nothing
// and says which line, for every shape models write. Under auto the
// same reply, whose every part stands in one place of the file, is
// merged as a lazy edit instead (SPEC section 5): the rest is kept.
func TestElisionRecordsNothing(t *testing.T) {
	t.Parallel()
	for _, placeholder := range []string{
		"// keep the rest as is",
		"// (unchanged)",
		"// [unchanged]",
		"// TODO: rest",
		"// etc.",
		"// ... existing code ...",
	} {
		t.Run(placeholder, func(t *testing.T) {
			r := newRepo(t, map[string]string{"app.go": contentApp})
			before := r.snapshot()
			reply := r.reply("reply.md", "Punctuate the greeting.\n\napp.go\n```go\npackage app\n\nimport \"fmt\"\n\n"+
				"func greet(name string) string {\n\treturn \"Hello, \" + name + \"!\"\n}\n\n"+placeholder+"\n```\n")
			res := r.run("apply", "--format", "whole", reply)
			if res.code != 1 {
				t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
			}
			if !strings.Contains(res.stderr, placeholder) || !strings.Contains(res.stderr, "nothing recorded") {
				t.Errorf("the report does not name the placeholder:\n%s", res.stderr)
			}
			if b := r.branches(); b != "main" {
				t.Errorf("a branch was made: %q", b)
			}
			r.assertUntouched(before)
			r.fsck()

			res = r.run("apply", "-b", "lazy", reply)
			if res.code != 0 || !strings.Contains(res.stderr, "merged into app.go as a lazy edit") {
				t.Fatalf("auto: exit %d, want 0 and the lazy merge's note\n%s", res.code, res.stderr)
			}
			if got, want := r.show("lazy", "app.go"), strings.Replace(contentApp, `"Hello " + name`, `"Hello, " + name + "!"`, 1); got != want {
				t.Errorf("auto: app.go at the tip:\n%s\nwant:\n%s", got, want)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// TestPlaceholderInDocumentationApplies: a reply adding to a Markdown
// file an example whose code holds a placeholder records it as written.
func TestPlaceholderInDocumentationApplies(t *testing.T) {
	t.Parallel()
	const conventions = "# Conventions\n\nIndent with two spaces.\n\n## Errors\n\nReturn errors; never throw strings.\n"
	want := "# Conventions\n\nIndent with two spaces, never tabs.\n\n## Authentication\n\n" +
		"Keep each provider in its own module, behind one function:\n\n```js\nexport async function login(credentials) {\n" +
		"  // ... complex login implementation ...\n}\n```\n\n## Errors\n\nReturn errors; never throw strings.\n"
	for _, tt := range []struct{ name, reply string }{
		{"whole file", "Document the login layout.\n\nCONVENTIONS.md\n````markdown\n" + want + "````\n"},
		{"search/replace", "Document the login layout.\n\nCONVENTIONS.md\n````markdown\n<<<<<<< SEARCH\n" +
			"Indent with two spaces.\n\n## Errors\n=======\n" + strings.TrimSuffix(strings.TrimPrefix(want, "# Conventions\n\n"), "\nReturn errors; never throw strings.\n") +
			">>>>>>> REPLACE\n````\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"CONVENTIONS.md": conventions})
			before := r.snapshot()
			res := r.run("apply", "-b", "docs", r.reply("reply.md", tt.reply))
			if res.code != 0 {
				t.Fatalf("exit %d, want 0\n%s", res.code, res.stderr)
			}
			if got := r.show("docs", "CONVENTIONS.md"); got != want {
				t.Errorf("CONVENTIONS.md:\n%s\nwant:\n%s", got, want)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// TestProseNamedWholeFile: a bare fence under "Here's the updated
// `app.py`:" replaces that short existing file; a fence under prose
// naming no file, or a file that does not exist, records nothing,
// creates nothing and does not pass for a success.
func TestProseNamedWholeFile(t *testing.T) {
	t.Parallel()
	const app = "import sys\n\n\ndef main():\n    print(\"hi\")\n"
	const updated = "import sys\n\n\ndef main():\n    print(\"hello\")\n"
	t.Run("replaces the file it names", func(t *testing.T) {
		r := newRepo(t, map[string]string{"src/app.py": app})
		before := r.snapshot()
		res := r.run("apply", "-b", "hello", r.reply("reply.md", "Say hello.\n\nHere's the updated `src/app.py`:\n\n```python\n"+updated+"```\n"))
		if res.code != 0 {
			t.Fatalf("exit %d, want 0\n%s", res.code, res.stderr)
		}
		if got := r.show("hello", "src/app.py"); got != updated {
			t.Errorf("src/app.py:\n%s\nwant:\n%s", got, updated)
		}
		if !strings.Contains(res.stderr, "taken for the whole of src/app.py") {
			t.Errorf("the report does not say where the name came from:\n%s", res.stderr)
		}
		r.assertUntouched(before)
		r.fsck()
	})
	for _, tt := range []struct{ name, reply, absent string }{
		{"a fence under Run it like this", "Run it like this:\n\n```\npython src/app.py\n```\n", ""},
		{"a fence under prose naming no existing file", "Here's the new `tool.py`:\n\n```python\nprint(\"tool\")\n```\n", "tool.py"},
		// A snippet of a short file, the lines a change touches: written
		// whole, it would drop PORT and DEBUG.
		{"a snippet of a short file it names", "Read the host from the environment in `config.py`:\n\n```python\nimport os\nHOST = os.environ[\"HOST\"]\n```\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"src/app.py": app, "config.py": "import os\nHOST = \"localhost\"\nPORT = 8080\nDEBUG = False\n"})
			before := r.snapshot()
			res := r.run("apply", r.reply("reply.md", tt.reply))
			if res.code != 2 {
				t.Fatalf("exit %d, want 2 (no edit)\n%s", res.code, res.stderr)
			}
			if !strings.Contains(res.stderr, "no edit") {
				t.Errorf("the report does not say the reply holds no edit:\n%s", res.stderr)
			}
			if b := r.branches(); b != "main" {
				t.Errorf("a branch was made: %q", b)
			}
			if tt.absent != "" && strings.Contains(r.git("log", "--all", "--name-only"), tt.absent) {
				t.Errorf("%s was created", tt.absent)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}
