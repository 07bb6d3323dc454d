package translate

import "testing"

func TestCleanFileName(t *testing.T) {
	for _, tc := range []struct {
		line, want string // want "" means: not a file name
	}{
		// Plain names and paths.
		{"a.py", "a.py"},
		{"  src/app/main.go  ", "src/app/main.go"},
		{"mathweb/flask/app.py", "mathweb/flask/app.py"},
		{".gitignore", ".gitignore"},
		{"bin/run", "bin/run"},
		{"Makefile", "Makefile"},
		{"Dockerfile:", "Dockerfile"},
		{`src\mycli\dev\__init__.py`, `src\mycli\dev\__init__.py`},
		{"app/(group)/[slug]/page.tsx", "app/(group)/[slug]/page.tsx"},

		// Markdown around the name.
		{"**a.py**", "a.py"},
		{"`a.py`", "a.py"},
		{"# a.py:", "a.py"},
		{"## `a.py`", "a.py"},
		{"a.py:", "a.py"},
		{"`a.py`:", "a.py"},
		{"**a.py**:", "a.py"},
		{"**`a.py`**", "a.py"},
		{"*a.py*", "a.py"},
		{"* a.py", "a.py"},
		{`"a.py"`, "a.py"},
		{"'a.py'", "a.py"},
		{"`a.py", "a.py"},
		{`my\_module.py`, `my\_module.py`}, // the engine tells an escape from a separator
		{`**src\Models\_Layout.cshtml**`, `src\Models\_Layout.cshtml`},
		{"**src/new.py** (new file)", "src/new.py"},
		{"`a.py` (new)", "a.py"},

		// Spaces: only clearly a path, or quoted.
		{"docs/My Notes.md", "docs/My Notes.md"},
		{"`My Notes.md`", "My Notes.md"},
		{`"docs/a b.txt"`, "docs/a b.txt"},
		{"Update src/a.py", ""},
		{"src/a.py and src/b.py", ""},
		{"src/a.py is new", ""},
		{"Here is the change:", ""},
		{"Now update the caller to use it:", ""},
		{"To make this change we need to modify `mathweb/flask/app.py`:", ""},
		{"**Update the parser**", ""},
		{"`some words here`", ""},
		{"See docs/a b.md, then run.", ""},

		// Single words that are not names.
		{"Changes:", ""},
		{"Example:", ""},
		{"Done.", ""},
		{"e.g.", ""},
		{"v1.2", "v1.2"},
		{"3.14", ""},
		{"foo()", ""},
		{"https://example.com/a.py", ""},

		// Never names.
		{"", ""},
		{"   ", ""},
		{"...", ""},
		{"**...**", ""},
		{"```", ""},
		{"```python", ""},
		{"````", ""},
		{"<source>python", ""},
		{"</source>", ""},
		{"<<<<<<< SEARCH", ""},
		{"=======", ""},
		{">>>>>>> REPLACE", ""},
		{"#", ""},
		{"**", ""},
		{"a|b.py", ""},
		{"<a.py>", ""},
	} {
		got, ok := cleanFileName(tc.line)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("cleanFileName(%q) = %q, %v; want %q", tc.line, got, ok, tc.want)
		}
	}
}

func TestFenceName(t *testing.T) {
	for _, tc := range []struct{ line, want string }{
		{"```src/a.py", "src/a.py"},
		{"````a.py", "a.py"},
		{"```Makefile", ""},
		{"```python", ""},
		{"```python3.11", ""},
		{"```", ""},
		{"```python title=a.py", ""},
		{"<source>lib/a.rb", "lib/a.rb"},
	} {
		f, ok := openFence(tc.line)
		if !ok {
			t.Fatalf("openFence(%q) failed", tc.line)
		}
		if got := fenceName(f); got != tc.want {
			t.Errorf("fenceName(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

func TestHasExtension(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want bool
	}{
		{"a.py", true},
		{"dir.d/file", false},
		{".env", true},
		{"v1.2", false},
		{"a.tar.gz", true},
		{"a.", false},
		{"a", false},
		{`x\y.cs`, true},
	} {
		if got := hasExtension(tc.s); got != tc.want {
			t.Errorf("hasExtension(%q) = %v", tc.s, got)
		}
	}
}
