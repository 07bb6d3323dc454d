package session

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// The fixtures: one log of each kind, built small from each project's
// public types (see the reader of each kind), and the kind Open must
// tell.
var fixtures = []struct {
	file string
	kind Kind
}{
	{"aider.chat.history.md", Aider},
	{"claude-code.jsonl", ClaudeCode},
	{"codex.jsonl", Codex},
	{"codex-old.jsonl", Codex},
	{"messages-openai.json", Messages},
	{"messages-anthropic.json", Messages},
	{"gemini-stream.jsonl", Gemini},
	{"cline-task.json", Cline},
}

// TestGolden reads each fixture's turns and compares their rendering
// with testdata/<fixture>.golden.
func TestGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.file, func(t *testing.T) {
			path := filepath.Join("testdata", fx.file)
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			r, err := Open(f, fx.file)
			if err != nil {
				t.Fatal(err)
			}
			if r.Kind() != fx.kind {
				t.Fatalf("kind %s, want %s", r.Kind(), fx.kind)
			}
			var b strings.Builder
			fmt.Fprintf(&b, "kind %s\n", r.Kind())
			for {
				turn, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				renderTurn(&b, turn)
			}
			golden := path + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got := b.String(); got != string(want) {
				t.Errorf("turns differ from %s (run with -update to accept):\n%s", golden, got)
			}
		})
	}
}

// renderTurn writes what replay uses of a turn. Operations show the
// fields every reader sets (kind, format, path, root, log line) and the
// text of the edit, so that a dropped or doubled edit shows.
func renderTurn(b *strings.Builder, t *Turn) {
	fmt.Fprintf(b, "\n== turn %d (line %d)\n", t.N, t.Line)
	fmt.Fprintf(b, "request: %q\n", t.Request)
	for _, p := range t.Prose {
		fmt.Fprintf(b, "prose: %q\n", p)
	}
	for _, s := range t.Skipped {
		fmt.Fprintf(b, "skipped line %d %s: %s\n", s.Line, s.Path, s.Why)
	}
	for _, s := range t.Saved {
		fmt.Fprintf(b, "saved line %d %s (%s): %q\n", s.Line, s.Path, s.Name, s.Content)
	}
	if t.Reply == nil {
		b.WriteString("no edit\n")
		return
	}
	fmt.Fprintf(b, "format %s\n", t.Reply.Format)
	for _, op := range t.Reply.Ops {
		fmt.Fprintf(b, "op line %d %s %s %s", op.Line, op.Format, op.Kind, op.Path)
		if op.NewPath != "" {
			fmt.Fprintf(b, " -> %s", op.NewPath)
		}
		if op.Root != "" {
			fmt.Fprintf(b, " (root %s)", op.Root)
		}
		b.WriteString("\n")
		renderEdit(b, &op)
	}
	for _, f := range t.Reply.Failed {
		fmt.Fprintf(b, "failed line %d %s: %s\n", f.Line, f.Path, f.Msg)
	}
	for _, w := range t.Reply.Warnings {
		fmt.Fprintf(b, "warning line %d: %s\n", w.Line, w.Msg)
	}
	for _, s := range t.Reply.Shell {
		fmt.Fprintf(b, "shell line %d: %q\n", s.Line, s.Text)
	}
}

func renderEdit(b *strings.Builder, op *translate.Operation) {
	switch op.Kind {
	case translate.Replace:
		fmt.Fprintf(b, "  %q -> %q\n", op.OldText, op.NewText)
	case translate.Invalid:
		fmt.Fprintf(b, "  %s\n", op.Comment)
	default:
		old := append(append(append([]string{}, op.Before...), op.Old...), op.After...)
		if len(old) > 0 {
			fmt.Fprintf(b, "  - %q\n", old)
		}
		if nl := op.NewLines(); len(nl) > 0 {
			fmt.Fprintf(b, "  + %q\n", nl)
		}
	}
}
