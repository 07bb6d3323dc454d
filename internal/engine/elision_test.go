package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

const elisionGo = `package app

import "fmt"

func greet(name string) string {
	return "Hello " + name
}

func main() {
	fmt.Println(greet("world"))
}
`

// TestElision: a placeholder fails an edit where it stands in for lines
// the edit removes, and is content where it replaces nothing.
func TestElision(t *testing.T) {
	whole := func(p string, content string) translate.Operation {
		return translate.Operation{Kind: translate.Create, Path: p, FileCreate: translate.FileCreate{Overwrite: true}, LineEdit: translate.LineEdit{New: lines(content)}, Line: 1}
	}
	greet := "package app\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\treturn \"Hello, \" + name + \"!\"\n}\n"
	tests := []struct {
		name   string
		src    memSource
		op     translate.Operation
		format string
		elided string // the placeholder the error names; "" when the edit applies
	}{
		// A whole file ending in a placeholder loses the rest of the file.
		{"whole, keep the rest as is", files("app.go", elisionGo), whole("app.go", greet+"\n// keep the rest as is\n"), "whole", "// keep the rest as is"},
		{"whole, (unchanged)", files("app.go", elisionGo), whole("app.go", greet+"\n// (unchanged)\n"), "whole", "// (unchanged)"},
		{"whole, [unchanged]", files("app.go", elisionGo), whole("app.go", greet+"\n// [unchanged]\n"), "whole", "// [unchanged]"},
		{"whole, TODO: rest", files("app.go", elisionGo), whole("app.go", greet+"\n// TODO: rest\n"), "whole", "// TODO: rest"},
		{"whole, etc.", files("app.go", elisionGo), whole("app.go", greet+"\n// etc.\n"), "whole", "// etc."},
		{"whole, a placeholder at the top", files("app.go", elisionGo),
			whole("app.go", "// ... imports ...\n\nfunc greet(name string) string {\n\treturn name\n}\n\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n"), "whole", "// ... imports ..."},
		{"whole, a brace kept between the placeholder and the code it replaces", files("app.go", elisionGo),
			whole("app.go", "package app\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\treturn name\n}\n// same as before\n}\n"), "whole", "// same as before"},
		{"whole, python", files("a.py", "import sys\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 2\n"),
			whole("a.py", "import sys\n\n\ndef f():\n    return 10\n\n\n# rest unchanged\n"), "whole", "# rest unchanged"},
		// A placeholder that replaces nothing is content.
		{"whole, a placeholder in added code", files("app.go", elisionGo),
			whole("app.go", strings.Replace(elisionGo, "func main() {", "func farewell() {\n\t// ... your code here ...\n}\n\nfunc main() {", 1)), "whole", ""},
		{"whole, a placeholder the file holds at that place", files("a.py", "# ... existing code ...\nx = 1\n"),
			whole("a.py", "# ... existing code ...\nx = 2\n"), "whole", ""},
		{"whole Markdown, an example added next to an edited paragraph", files("CONVENTIONS.md", "# Conventions\n\nUse tabs.\n\n## Errors\n\nWrap errors.\n"),
			whole("CONVENTIONS.md", "# Conventions\n\nIndent with tabs, never spaces.\n\n## Auth\n\n```js\nfunction login(user) {\n  // ... complex login implementation ...\n}\n```\n\n## Errors\n\nWrap errors.\n"), "whole", ""},
		{"whole Markdown, an example shortened", files("README.md", "# Use\n\n```python\ndef main():\n    setup()\n    run()\n```\n"),
			whole("README.md", "# Use\n\n```python\ndef main():\n    ...\n```\n"), "whole", ""},
		{"whole Markdown, a heading that reads like a placeholder", files("NOTES.md", "# Notes\n\nOld text.\n"),
			whole("NOTES.md", "# Notes\n\n# The rest\n"), "whole", ""},
		{"whole Markdown, an HTML comment instead of the sections", files("README.md", "# App\n\nIntro.\n\n## Install\n\nRun make.\n"),
			whole("README.md", "# App\n\nA better intro.\n\n<!-- rest of the README unchanged -->\n"), "whole", "<!-- rest of the README unchanged -->"},
		{"whole Markdown, an ellipsis instead of the sections", files("README.md", "# App\n\nIntro.\n\n## Install\n\nRun make.\n"),
			whole("README.md", "# App\n\nA better intro.\n\n...\n"), "whole", "..."},
		// A .txt file may be code or a list whose comments start with "#":
		// a placeholder there deletes lines as in code.
		{"whole requirements.txt, a comment instead of the rest", files("requirements.txt", "flask==2.0\nrequests==2.31\nnumpy==1.26\n"),
			whole("requirements.txt", "flask==2.1\n# ... rest of the requirements unchanged ...\n"), "whole", "# ... rest of the requirements unchanged ..."},
		{"whole CMakeLists.txt, a comment instead of the targets", files("CMakeLists.txt", "cmake_minimum_required(VERSION 3.20)\nproject(app)\nadd_executable(app main.c)\ntarget_link_libraries(app m)\n"),
			whole("CMakeLists.txt", "cmake_minimum_required(VERSION 3.25)\n# ... existing code ...\n"), "whole", "# ... existing code ..."},
		// SEARCH/REPLACE.
		{"search/replace, (unchanged) instead of the body", files("app.go", elisionGo),
			sr("app.go", "func greet(name string) string {\n\treturn \"Hello \" + name\n}\n", "func greet(name string) string {\n\t// (unchanged)\n}\n"), "diff", "// (unchanged)"},
		{"search/replace, a placeholder added apart from what is removed", files("app.go", elisionGo),
			sr("app.go", "func greet(name string) string {\n\treturn \"Hello \" + name\n}\n\nfunc main() {\n",
				"func greet(name string) string {\n\treturn \"Hi \" + name\n}\n\nfunc farewell() {\n\t// ... implementation ...\n}\n\nfunc main() {\n"), "diff", ""},
		{"search/replace, a placeholder Markdown example in a document", files("CONVENTIONS.md", "# Conventions\n\nUse tabs.\n"),
			sr("CONVENTIONS.md", "Use tabs.\n", "Indent with tabs.\n\n```js\nfunction login() {\n  // ... complex login implementation ...\n}\n```\n"), "diff", ""},
		{"search/replace in a fence of a document opened above the edit", files("GUIDE.md", "```python\ndef main():\n    setup()\n    run()\n```\n"),
			sr("GUIDE.md", "    setup()\n    run()\n", "    ...\n"), "diff", ""},
		// The block rules replace a whole block.
		{"block rule, a placeholder instead of the body", files("app.go", elisionGo),
			translate.Operation{Kind: translate.Edit, Path: "app.go", LineEdit: translate.LineEdit{Old: []string{"func main() {"}, New: lines("func main() {\n\t// etc.\n}\n"), Block: translate.CBraces}, Line: 1}, "chunk", "// etc."},
		{"block rule, a placeholder added to the body", files("app.go", elisionGo),
			translate.Operation{Kind: translate.Edit, Path: "app.go", LineEdit: translate.LineEdit{Old: []string{"func main() {"}, New: lines("func main() {\n\tfmt.Println(greet(\"world\"))\n\tfmt.Println(\"bye\")\n\t// TODO: rest\n}\n"), Block: translate.CBraces}, Line: 1}, "chunk", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(tt.src, []translate.Operation{tt.op}, Options{Format: tt.format})
			if err != nil {
				t.Fatal(err)
			}
			o := res.Outcomes[0]
			if tt.elided == "" {
				if o.Status != Applied {
					t.Fatalf("status %s (%v), want applied", o.Status, o.Err)
				}
				return
			}
			if o.Status != Failed || !errors.Is(o.Err, ErrElided) || !strings.Contains(o.Err.Error(), tt.elided) {
				t.Fatalf("status %s (%v), want it failed naming %q", o.Status, o.Err, tt.elided)
			}
			if len(res.Changes) != 0 {
				t.Errorf("changes %+v", res.Changes)
			}
		})
	}
}
