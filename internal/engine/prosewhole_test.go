package engine

import (
	"context"
	"strings"
	"testing"
)

// TestProseCallsItWhole: under a prose line that calls the fence the
// file's new version (aider's tests/basic/test_wholefile.py shapes), a
// file of at most ten lines of substance is taken whole even when the
// fence keeps none of its lines; a longer file, or a line that merely
// names the file, keeps the plausibility rule (SPEC section 4).
func TestProseCallsItWhole(t *testing.T) {
	const accumulate = "def accumulate(collection, operation):\n    return [operation(x) for x in collection]\n"
	fence := "```\nprint('replaced entirely')\nprint('nothing kept')\n```\n"
	src := files("accumulate.py", "Original content\n", "a.txt", "before a\n", "b.txt", "before b\n",
		"ten.py", numbered(1, 10), "eleven.py", numbered(1, 11), "config.py", "placeholder = True\n")
	tests := []struct {
		name, reply string
		want        map[string]string // path -> content after; absent: unchanged
		status      []Status
	}{
		{name: "aider: Here's the modified `x` file, then an unnamed fence",
			reply: "Here's the modified `accumulate.py` file that implements the `accumulate` function as per the given instructions:\n\n```\n" +
				accumulate + "```\n\nThis implementation uses a list comprehension.\nRun it like this:\n\n```\npython {sample_file}\n```\n\n",
			want: map[string]string{"accumulate.py": accumulate}, status: []Status{Applied}},
		{name: "aider: a new version of `a.txt`, and here is `b.txt`",
			reply: "\nHere is a new version of `a.txt` for you to consider:\n\n```\nafter a\n```\n\nAnd here is `b.txt`:\n\n```\nafter b\n```\n",
			want:  map[string]string{"a.txt": "after a\n", "b.txt": "after b\n"}, status: []Status{Applied, Applied}},
		{name: "the complete, updated file", reply: "Here is the complete, updated `config.py`:\n" + fence,
			want: map[string]string{"config.py": "print('replaced entirely')\nprint('nothing kept')\n"}, status: []Status{Applied}},
		{name: "the full content of", reply: "Below is the full content of `config.py`.\n" + fence,
			want: map[string]string{"config.py": "print('replaced entirely')\nprint('nothing kept')\n"}, status: []Status{Applied}},
		{name: "ten lines of substance", reply: "Here's the updated `ten.py`:\n" + fence,
			want: map[string]string{"ten.py": "print('replaced entirely')\nprint('nothing kept')\n"}, status: []Status{Applied}},
		{name: "eleven lines of substance", reply: "Here's the updated `eleven.py`:\n" + fence, status: []Status{Skipped}},
		{name: "merely in the file", reply: "in `config.py`:\n" + fence, status: []Status{Skipped}},
		{name: "add this to the file", reply: "Add this to `config.py`:\n" + fence, status: []Status{Skipped}},
		{name: "the updated function of the file", reply: "Here's the updated `config.py` function:\n" + fence, status: []Status{Skipped}},
		{name: "the updated code in the file", reply: "Here is the updated code in `config.py`:\n" + fence, status: []Status{Skipped}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			results, err := Run(context.Background(), []Input{{Source: "r", Text: tt.reply}}, src, nil, RunOptions{Format: "auto"})
			if err != nil {
				t.Fatal(err)
			}
			r := results[0]
			if len(r.Outcomes) != len(tt.status) {
				t.Fatalf("%d outcomes (%v), want %d", len(r.Outcomes), r.Err, len(tt.status))
			}
			for i, o := range r.Outcomes {
				if o.Status != tt.status[i] || len(o.Warnings) == 0 {
					t.Errorf("edit %d: %s %v (%v), want %s with a warning", i+1, o.Status, o.Warnings, o.Err, tt.status[i])
				}
				if o.Status == Applied && o.Warnings[0] != "" && strings.Contains(tt.name, "lines of substance") &&
					!strings.Contains(o.Warnings[0], "calls the file's new version") {
					t.Errorf("edit %d: warning %q", i+1, o.Warnings[0])
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
