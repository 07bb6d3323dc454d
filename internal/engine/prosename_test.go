package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestProseNamedWholeFile: a bare fence under prose naming a file
// replaces that file only when it is the one existing file named and
// the fence is plausibly all of it; otherwise it is skipped, a reply of
// nothing but such snippets is a reply with no edit, and no file is
// ever created from prose.
func TestProseNamedWholeFile(t *testing.T) {
	const app = "import sys\n\n\ndef main():\n    print('hi')\n"
	long := "import os\nimport sys\n\n\n"
	for _, f := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"} {
		long += "def " + f + "():\n    return '" + f + "'\n\n\n"
	}
	src := files("src/app.py", app, "lib/long.py", long, "lib/util.py", "def util():\n    return 1\n")
	tests := []struct {
		name, reply string
		want        map[string]string // path -> content after
		status      []Status
		noEdits     bool
	}{
		{name: "the updated short file",
			reply:  "Here's the updated `src/app.py`:\n\n```python\nimport sys\n\n\ndef main():\n    print('hello')\n```\n",
			want:   map[string]string{"src/app.py": "import sys\n\n\ndef main():\n    print('hello')\n"},
			status: []Status{Applied}},
		{name: "a short name is not taken for the path ending in it",
			reply:   "Here's the updated `app.py`:\n\n```python\nimport sys\n\n\ndef main():\n    print('hello')\n```\n",
			status:  []Status{Skipped},
			noEdits: true},
		{name: "a bare word, the path written out",
			reply:  "The new version of src/app.py:\n```\nimport sys\n\n\ndef main():\n    print('hello')\n```\n",
			want:   map[string]string{"src/app.py": "import sys\n\n\ndef main():\n    print('hello')\n"},
			status: []Status{Applied}},
		{name: "a short file rewritten almost wholly",
			reply:  "Here is `lib/util.py` now:\n```python\ndef util():\n    return 2\n\n\ndef more():\n    return 3\n```\n",
			want:   map[string]string{"lib/util.py": "def util():\n    return 2\n\n\ndef more():\n    return 3\n"},
			status: []Status{Applied}},
		{name: "one existing file among names of none",
			reply:  "Here's `src/app.py`, which `helpers.py` will import:\n```python\nimport sys\n\n\ndef main():\n    print('hello')\n```\n",
			want:   map[string]string{"src/app.py": "import sys\n\n\ndef main():\n    print('hello')\n"},
			status: []Status{Applied}},
		{name: "a function of a long file is a snippet",
			reply:   "In `lib/long.py`, change it so:\n```python\ndef a():\n    return 'A'\n```\n",
			status:  []Status{Skipped},
			noEdits: true},
		{name: "a command is a snippet of a short file",
			reply:   "Then run `src/app.py` so:\n```\npython src/app.py --verbose\npython src/app.py --quiet\n```\n",
			status:  []Status{Skipped},
			noEdits: true},
		{name: "no file is created from prose",
			reply:   "Here's the new `tool.py`:\n```python\nprint('tool')\n```\n",
			status:  []Status{Skipped},
			noEdits: true},
		{name: "two existing files named",
			reply:   "Here's `src/app.py`, now using `lib/util.py`:\n```python\nimport sys\n\n\ndef main():\n    print('hello')\n```\n",
			status:  []Status{Skipped},
			noEdits: true},
		{name: "a snippet beside a named file",
			reply:  "src/app.py\n```python\nimport sys\n\n\ndef main():\n    print('hello')\n```\n\nIn `src/app.py`, the change is:\n```python\n    print('hello')\n```\n",
			want:   map[string]string{"src/app.py": "import sys\n\n\ndef main():\n    print('hello')\n"},
			status: []Status{Applied, Skipped}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results, err := Run(context.Background(), []Input{{Source: "r", Text: tt.reply}}, src, nil, RunOptions{Format: "auto"})
			if err != nil {
				t.Fatal(err)
			}
			r := results[0]
			if tt.noEdits != errors.Is(r.Err, translate.ErrNoEdits) || !tt.noEdits && r.Err != nil {
				t.Fatalf("error %v, status %s", r.Err, r.Status)
			}
			if tt.noEdits && (r.Status != ReplyFailed || !r.Failed()) {
				t.Errorf("status %s, failed %v: a reply of snippets must not pass for a success", r.Status, r.Failed())
			}
			if len(r.Outcomes) != len(tt.status) {
				t.Fatalf("%d outcomes, want %d", len(r.Outcomes), len(tt.status))
			}
			for i, o := range r.Outcomes {
				if o.Status != tt.status[i] {
					t.Errorf("edit %d: %s (%v), want %s", i+1, o.Status, o.Err, tt.status[i])
				}
				if o.Status == Skipped && len(o.Warnings) == 0 {
					t.Errorf("edit %d skipped without saying why", i+1)
				}
			}
			got := map[string]string{}
			for _, c := range r.Changes {
				got[c.Path()] = string(c.New)
			}
			if len(got) != len(tt.want) {
				t.Errorf("changed %v, want %v", keys(got), keys(tt.want))
			}
			for p, w := range tt.want {
				if got[p] != w {
					t.Errorf("%s: %q, want %q", p, got[p], w)
				}
			}
		})
	}
}

func keys(m map[string]string) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return strings.Join(ks, ", ")
}

// numbered is the lines "v<from> = <from>" to "v<to> = <to>".
func numbered(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "v%d = %d\n", i, i)
	}
	return b.String()
}

func TestPlausiblyWhole(t *testing.T) {
	tests := []struct {
		old, new string
		want     bool
	}{
		{"a = 1\nb = 2\nc = 3\nd = 4\n", "a = 1\nb = 2\nc = 30\nd = 40\n", true},                          // keeps half
		{"a = 1\nb = 2\nc = 3\nd = 4\n", "a = 10\nb = 20\nc = 30\nd = 4\n", true},                         // short, keeps one
		{"a = 1\nb = 2\nc = 3\nd = 4\n", "x = 10\ny = 20\nz = 30\nw = 40\n", false},                       // short, keeps none
		{"a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n", "a = 1\n", false},                                         // short, much shorter
		{"import os\nHOST = 'a'\nPORT = 1\nDEBUG = 0\n", "import os\nHOST = os.environ['HOST']\n", false}, // short, a snippet of it
		{"import os\nHOST = 'a'\nPORT = 1\n", "import os\nHOST = os.environ['HOST']\nPORT = 2\n", true},   // short, rewritten whole
		{"", "anything at all\n", true},                                                                   // empty
		{"}\n\n}\n", "x = 1\n", true},                                                                     // nothing of substance
		{strings.Repeat("line = 1\n", 20) + "end = 2\n", "line = 1\nline = 1\nend = 2\n", false},          // long, keeps little
		{numbered(1, 20), numbered(1, 12), false},                                                         // long, its first half and more
		{numbered(1, 20), numbered(1, 16) + "x = 0\n", true},                                              // long, a few lines dropped
	}
	for _, tt := range tests {
		if _, _, got := plausiblyWhole(lines(tt.old), lines(tt.new)); got != tt.want {
			t.Errorf("plausiblyWhole(%q, %q) = %v, want %v", tt.old, tt.new, got, tt.want)
		}
	}
}
