package translate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzParseWhole checks that no reply makes the reader panic, that
// every line it names lies within the reply (an operation's and a
// failed block's on their opening fence), that operations are well
// formed, that wholeAt finds a block exactly when the reader does, and
// that the operations written back as blocks read the same. The golden
// cases' replies and the prompt's example are the seeds.
func FuzzParseWhole(f *testing.F) {
	replies, _ := filepath.Glob(filepath.Join("..", "testdata", FormatWhole, "*", "reply.md"))
	for _, file := range replies {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	if example, err := PromptExample(FormatWhole); err == nil {
		f.Add(example)
	}
	f.Add("a.py\n```python\nx\n```\n")
	f.Add("```python src/a.py\nx\n```\n```bash\nls\n```\n")
	f.Add("README.md\n```markdown\n```go\nx\n```\n")
	f.Add("  - `a.py`\n\n   ~~~\n    x\n   ~~~~\n")
	f.Add("a.py\n<source>\nx\n</source>\n")
	f.Add("a.py\n```\n<<<<<<< SEARCH\n```\n")
	f.Fuzz(func(t *testing.T, reply string) {
		lines := splitLines(reply)
		inReply := func(what string, line int) {
			if line < 1 || line > len(lines) {
				t.Fatalf("%s at line %d, outside the reply's %d lines", what, line, len(lines))
			}
		}
		onFence := func(what string, line int) {
			inReply(what, line)
			if _, ok := openWhole(strings.TrimSpace(lines[line-1])); !ok {
				t.Fatalf("%s at line %d, %q, which opens no fence", what, line, lines[line-1])
			}
		}
		r, err := ParseWhole(reply)
		if r == nil {
			t.Fatal("nil Reply")
		}
		switch {
		case err == nil:
			if len(r.Ops)+len(r.Failed) == 0 {
				t.Fatal("no operations and no error")
			}
		case errors.Is(err, ErrNoEdits):
			if len(r.Ops)+len(r.Failed) != 0 {
				t.Fatalf("ErrNoEdits with %d operations", len(r.Ops))
			}
		default:
			t.Fatalf("unexpected error %T: %v", err, err)
		}
		if r.Format != FormatWhole {
			t.Fatalf("format %q", r.Format)
		}
		prev := 0
		for _, op := range r.Ops {
			onFence("operation", op.Line)
			if op.Line <= prev {
				t.Fatalf("operation at line %d after one at %d", op.Line, prev)
			}
			prev = op.Line
			if op.Kind != Create || op.Format != FormatWhole || op.Overwrite != (len(op.New) > 0) || op.Append ||
				op.Path == "" || strings.ContainsAny(op.Path, "\r\n") || !wholeName(op.Path, true) {
				t.Fatalf("operation %+v", op)
			}
			for _, l := range op.New {
				if strings.Contains(l, "\n") {
					t.Fatalf("line %q", l)
				}
			}
		}
		for _, fl := range r.Failed {
			onFence("failed block", fl.Line)
			if fl.Path == "" || fl.Msg == "" {
				t.Fatalf("failure %+v", fl)
			}
		}
		for _, s := range r.Shell {
			onFence("shell block", s.Line)
		}
		for _, w := range r.Warnings {
			inReply("warning", w.Line)
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
			if n, ok := wholeNameLine("`" + op.Path + "`"); !ok || n != op.Path {
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
		again, err := ParseWhole(b.String())
		if err != nil {
			t.Fatalf("written back: %v\n%s", err, b.String())
		}
		norm := func(ops []Operation) []Operation {
			out := make([]Operation, len(ops))
			for i, op := range ops {
				op.Line = 0
				out[i] = op
			}
			return out
		}
		if diff := cmp.Diff(norm(r.Ops), norm(again.Ops)); diff != "" {
			t.Fatalf("written back (-first +again):\n%s\n%s", diff, b.String())
		}
	})
}
