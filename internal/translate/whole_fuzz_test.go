package translate

import (
	"strings"
	"testing"
)

// wholeContract is what readWhole promises for any reply.
var wholeContract = readerContract{
	parse:      readWhole,
	formats:    []string{FormatWhole},
	pathBreaks: "\r\n",
}

// FuzzParseWhole checks that no reply makes the reader panic, that
// every line it names lies within the reply (an operation's and a
// failed block's on their opening fence), that operations are well
// formed, that wholeAt finds a block exactly when the reader does, and
// that the operations written back as blocks read the same. The golden
// cases' replies and the prompt's example are the seeds.
func FuzzParseWhole(f *testing.F) {
	addSeedFiles(f, goldenReplies(FormatWhole))
	if example, err := exampleOf(FormatWhole); err == nil {
		f.Add(example)
	}
	f.Add("a.py\n```python\nx\n```\n")
	f.Add("```python src/a.py\nx\n```\n```bash\nls\n```\n")
	f.Add("README.md\n```markdown\n```go\nx\n```\n")
	f.Add("  - `a.py`\n\n   ~~~\n    x\n   ~~~~\n")
	f.Add("a.py\n<source>\nx\n</source>\n")
	f.Add("a.py\n```\n<<<<<<< SEARCH\n```\n")
	f.Fuzz(func(t *testing.T, reply string) {
		lines, r, _ := wholeContract.check(t, reply)
		onFence := func(what string, line int) {
			if _, ok := openWhole(strings.TrimSpace(lines[line-1])); !ok {
				t.Fatalf("%s at line %d, %q, which opens no fence", what, line, lines[line-1])
			}
		}
		prev := 0
		for _, op := range r.Ops {
			onFence("operation", op.Line)
			if op.Line <= prev {
				t.Fatalf("operation at line %d after one at %d", op.Line, prev)
			}
			prev = op.Line
			names := op.ProseNames
			if len(names) == 0 {
				names = []string{op.Path}
			}
			for _, n := range names {
				if op.Kind != Create || op.Overwrite != (len(op.New) > 0) || op.Append || !wholeName(n, true) {
					t.Fatalf("operation %+v", op)
				}
			}
		}
		for _, fl := range r.Failed {
			onFence("failed block", fl.Line)
			if fl.Path == "" {
				t.Fatalf("failure %+v", fl)
			}
		}
		for _, s := range r.Shell {
			onFence("shell block", s.Line)
		}
		at := wholeAt(reply)
		if (at >= 0) != (len(r.Ops)+len(r.Failed) > 0) {
			t.Fatalf("wholeAt = %d with %d operations and %d failed blocks", at, len(r.Ops), len(r.Failed))
		}
		if at > 0 && (at > len(reply) || reply[at-1] != '\n') {
			t.Fatalf("wholeAt = %d, not the start of a line", at)
		}

		// Written back with fences longer than any backtick run inside,
		// the operations read the same (paths that cleaning would
		// change, and lines ending in "\r", aside).
		if len(r.Ops) == 0 {
			return
		}
		var b strings.Builder
		for _, op := range r.Ops {
			if n, ok := wholeNameLine("`" + op.Path + "`"); !ok || n != op.Path || len(op.ProseNames) > 0 {
				return
			}
			ticks := 3
			for _, l := range op.New {
				if strings.HasSuffix(l, "\r") {
					return // a "\r" before the line end would be read as CRLF
				}
				ticks = max(ticks, countPrefix(strings.TrimSpace(l), '`')+1)
			}
			fence := strings.Repeat("`", ticks)
			b.WriteString("`" + op.Path + "`\n" + fence + "\n")
			for _, l := range op.New {
				b.WriteString(l + "\n")
			}
			b.WriteString(fence + "\n\n")
		}
		checkReadsBack(t, readWhole, r.Ops, b.String())
	})
}
