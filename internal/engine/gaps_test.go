package engine

import (
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestSkippedComments: at the comments rung a comment the reply did not
// show stays where nothing replaces it, gives way to the comment the
// new lines bring to its place, and is never written twice.
func TestSkippedComments(t *testing.T) {
	tests := []struct {
		name, path, file, old, new, want string
		warn                             string // a warning holds it; "" for none
	}{
		{name: "above the change, repeated", path: "a.go",
			file: "func f() {\n\t// Try a few times.\n\tn := 3\n}\n",
			old:  "func f() {\n\tn := 3\n",
			new:  "func f() {\n\t// Try a few times.\n\tn := 5\n",
			want: "func f() {\n\t// Try a few times.\n\tn := 5\n}\n"},
		{name: "above the change, reworded", path: "a.go",
			file: "func f() {\n\t// Try a few times.\n\tn := 3\n}\n",
			old:  "func f() {\n\tn := 3\n",
			new:  "func f() {\n\t// Try five times.\n\tn := 5\n",
			want: "func f() {\n\t// Try five times.\n\tn := 5\n}\n", warn: "line 2 of a.go, which the reply did not show, gave way"},
		{name: "below the change, repeated", path: "a.py",
			file: "x = 1\n# About y.\ny = 2\n",
			old:  "x = 1\ny = 2\n",
			new:  "x = 10\n# About y.\ny = 2\n",
			want: "x = 10\n# About y.\ny = 2\n"},
		{name: "below the change, reworded", path: "a.py",
			file: "x = 1\n# About y.\ny = 2\n",
			old:  "x = 1\ny = 2\n",
			new:  "x = 10\n# All about y.\ny = 2\n",
			want: "x = 10\n# All about y.\ny = 2\n", warn: "line 2 of a.py"},
		{name: "a comment above the change leaves the one below", path: "a.py",
			file: "x = 1\n# About y.\ny = 2\n",
			old:  "x = 1\ny = 2\n",
			new:  "# Set x.\nx = 10\ny = 2\n",
			want: "# Set x.\nx = 10\n# About y.\ny = 2\n"},
		{name: "a comment instead of the removed lines replaces the one above them", path: "a.py",
			file: "a = 0\n# About x.\nx = 1\n# About y.\ny = 2\n",
			old:  "a = 0\nx = 1\ny = 2\n",
			new:  "a = 0\n# x is gone.\ny = 2\n",
			want: "a = 0\n# x is gone.\n# About y.\ny = 2\n", warn: "line 2 of a.py"},
		{name: "added where nothing is removed, repeated", path: "a.c",
			file: "{\n    /* The port. */\n    int port = 80;\n}\n",
			old:  "{\n    int port = 80;\n",
			new:  "{\n    int backlog = 16;\n    /* The port. */\n    int port = 80;\n",
			want: "{\n    int backlog = 16;\n    /* The port. */\n    int port = 80;\n}\n"},
		{name: "added where nothing is removed, reworded", path: "a.c",
			file: "{\n    /* The port. */\n    int port = 80;\n}\n",
			old:  "{\n    int port = 80;\n",
			new:  "{\n    int backlog = 16;\n    /* The HTTP port. */\n    int port = 80;\n",
			want: "{\n    int backlog = 16;\n    /* The HTTP port. */\n    int port = 80;\n}\n", warn: "line 2 of a.c"},
		{name: "added code with its own comment leaves the gap's comment", path: "a.c",
			file: "{\n    /* The port. */\n    int port = 80;\n}\n",
			old:  "{\n    int port = 80;\n",
			new:  "{\n    /* The backlog. */\n    int backlog = 16;\n    int port = 80;\n",
			want: "{\n    /* The backlog. */\n    int backlog = 16;\n    /* The port. */\n    int port = 80;\n}\n"},
		{name: "a comment block over several lines, repeated elsewhere in the gap", path: "a.js",
			file: "{\n  /*\n   * The port.\n   */\n  port = 80;\n}\n",
			old:  "{\n  port = 80;\n",
			new:  "{\n  /*\n   * The port.\n   */\n  backlog = 16;\n  port = 80;\n",
			want: "{\n  /*\n   * The port.\n   */\n  backlog = 16;\n  port = 80;\n}\n"},
		{name: "a part of a comment block is not taken for all of it", path: "a.js",
			file: "{\n  /*\n   * The port.\n   */\n  port = 80;\n}\n",
			old:  "{\n  port = 80;\n",
			new:  "{\n  /*\n   * The backlog.\n   */\n  backlog = 16;\n  port = 80;\n",
			want: "{\n  /*\n   * The backlog.\n   */\n  backlog = 16;\n  /*\n   * The port.\n   */\n  port = 80;\n}\n"},
		{name: "a comment the file has twice, brought once", path: "a.py",
			file: "a = 1\n# TODO\nb = 2\n# TODO\nc = 3\n",
			old:  "a = 1\nb = 2\nc = 3\n",
			new:  "a = 1\n# TODO\nb = 3\nc = 3\n",
			want: "a = 1\n# TODO\nb = 3\n# TODO\nc = 3\n"},
		{name: "a comment the file has twice, brought once below the change", path: "a.py",
			file: "a = 1\n# TODO\nb = 2\n# TODO\nc = 3\n",
			old:  "a = 1\nb = 2\nc = 3\n",
			new:  "a = 1\nb = 3\n# TODO\nc = 3\n",
			want: "a = 1\n# TODO\nb = 3\n# TODO\nc = 3\n"},
		{name: "between two kept lines, untouched", path: "a.go",
			file: "a()\n// Then b.\nb()\nc()\n",
			old:  "a()\nb()\nc()\n",
			new:  "a()\nb()\nc(1)\n",
			want: "a()\n// Then b.\nb()\nc(1)\n"},
		{name: "between two removed lines, gone", path: "a.go",
			file: "a()\nb()\n// Then c.\nc()\nd()\n",
			old:  "a()\nb()\nc()\nd()\n",
			new:  "a()\nx()\nd()\n",
			want: "a()\nx()\nd()\n", warn: "line 3 of a.go, which the reply did not show, stood among the replaced lines"},
		{name: "a comment the reply shows in other words stands for the file's", path: "a.py",
			file: "a = 0\n# Compute the sum.\nx = 1\ny = 2\n",
			old:  "a = 0\n# compute sum\nx = 1\ny = 2\n",
			new:  "a = 0\n# compute sum\nx = 10\ny = 2\n",
			want: "a = 0\n# Compute the sum.\nx = 10\ny = 2\n"},
		{name: "a comment the reply deletes goes", path: "a.py",
			file: "a = 0\n# Compute the sum.\nx = 1\n",
			old:  "a = 0\n# Compute the sum.\nx = 1\n",
			new:  "a = 0\nx = 10\n",
			want: "a = 0\nx = 10\n"},
		{name: "blank lines the new lines bring where the file has them", path: "a.py",
			file: "def f():\n    pass\n\n\ndef g():\n    pass\n",
			old:  "def f():\n    pass\ndef g():\n",
			new:  "def f():\n    pass\n\n\ndef h():\n    pass\n\n\ndef g():\n",
			want: "def f():\n    pass\n\n\ndef h():\n    pass\n\n\ndef g():\n    pass\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(files(tt.path, tt.file), []translate.Operation{anchored(tt.path, tt.old, tt.new)}, Options{Format: "chunk"})
			if err != nil {
				t.Fatal(err)
			}
			o := res.Outcomes[0]
			if o.Status != Applied || len(res.Changes) != 1 {
				t.Fatalf("status %s (%v), %d changes", o.Status, o.Err, len(res.Changes))
			}
			if got := string(res.Changes[0].New); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			warns := strings.Join(o.Warnings, "\n")
			if tt.warn == "" && warns != "" || !strings.Contains(warns, tt.warn) {
				t.Errorf("warnings %q, want %q", warns, tt.warn)
			}
		})
	}
}

// TestCommentsAtTheEdgesNotWrittenTwice: new lines that open (or end)
// with the comment standing right above (or below) the lines the edit
// matched, which the model may not have known lay outside them, do not
// write it a second time; other comments and code are written as the
// reply has them.
func TestCommentsAtTheEdgesNotWrittenTwice(t *testing.T) {
	jsFile := "const a = 1;\n\n/**\n * Greets.\n */\nfunction greet() {\n  return 'hi';\n}\n"
	tests := []struct {
		name, format, path, file, old, new, want string
		warn                                     string // a warning holds it; "" for none
	}{
		{name: "a doc comment above, at the comments rung", format: "chunk", path: "a.js", file: jsFile,
			old:  "function greet() {\n  return 'hi';\n",
			new:  "/**\n * Greets.\n */\nfunction greet() {\n  return 'hello';\n",
			want: "const a = 1;\n\n/**\n * Greets.\n */\nfunction greet() {\n  return 'hello';\n}\n", warn: "repeat the comment at lines 3-5 of a.js"},
		{name: "a line comment above, exact rung", format: "diff", path: "a.py",
			file: "x = 1\n# Say hello.\ndef f():\n    return 1\n",
			old:  "def f():\n    return 1\n",
			new:  "# Say hello.\ndef f():\n    return 2\n",
			want: "x = 1\n# Say hello.\ndef f():\n    return 2\n", warn: "line 2 of a.py"},
		{name: "a comment below", format: "diff", path: "a.go",
			file: "func f() {\n\tx()\n\t// Then y.\n\ty()\n}\n",
			old:  "\tx()\n",
			new:  "\tx(1)\n\t// Then y.\n",
			want: "func f() {\n\tx(1)\n\t// Then y.\n\ty()\n}\n", warn: "line 3 of a.go"},
		{name: "a comment in other words is the reply's", format: "diff", path: "a.py",
			file: "# Say hello.\ndef f():\n    return 1\n",
			old:  "def f():\n    return 1\n",
			new:  "# Say hello twice.\ndef f():\n    return 2\n",
			want: "# Say hello.\n# Say hello twice.\ndef f():\n    return 2\n"},
		{name: "code repeated above is the reply's to write", format: "diff", path: "a.py",
			file: "x = 1\ny = 2\n",
			old:  "y = 2\n",
			new:  "x = 1\ny = 3\n",
			want: "x = 1\nx = 1\ny = 3\n"},
		{name: "a comment further up is no repetition", format: "diff", path: "a.py",
			file: "# Say hello.\nx = 1\ndef f():\n    return 1\n",
			old:  "def f():\n    return 1\n",
			new:  "# Say hello.\ndef f():\n    return 2\n",
			want: "# Say hello.\nx = 1\n# Say hello.\ndef f():\n    return 2\n"},
		{name: "a kept comment line like the one above stays", format: "diff", path: "a.py",
			file: "#\n#\ny = 1\n",
			old:  "#\ny = 1\n",
			new:  "#\ny = 2\n",
			want: "#\n#\ny = 2\n"},
		{name: "a kept comment line like the one below stays", format: "udiff", path: "a.go",
			file: "x := 1\n//\n//\n",
			old:  "x := 1\n//\n",
			new:  "x := 2\n//\n",
			want: "x := 2\n//\n//\n"},
		{name: "no comment syntax, nothing is a comment", format: "diff", path: "notes",
			file: "# Title\nbody\n",
			old:  "body\n",
			new:  "# Title\nbody 2\n",
			want: "# Title\n# Title\nbody 2\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Resolve(files(tt.path, tt.file), []translate.Operation{anchored(tt.path, tt.old, tt.new)}, Options{Format: tt.format})
			if err != nil {
				t.Fatal(err)
			}
			o := res.Outcomes[0]
			if o.Status != Applied || len(res.Changes) != 1 {
				t.Fatalf("status %s (%v), %d changes", o.Status, o.Err, len(res.Changes))
			}
			if got := string(res.Changes[0].New); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			warns := strings.Join(o.Warnings, "\n")
			if tt.warn == "" && warns != "" || !strings.Contains(warns, tt.warn) {
				t.Errorf("warnings %q, want %q", warns, tt.warn)
			}
			if _, violations, err := replayUntouched(files(tt.path, tt.file), []translate.Operation{anchored(tt.path, tt.old, tt.new)}, Options{Format: tt.format}); err != nil || len(violations) > 0 {
				t.Errorf("%v %v", err, violations)
			}
		})
	}
}
