package engine

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// A reply read ahead (apply reads its first one to name the branch)
// and handed to Run as Reply and ReadErr comes out as the same reply
// read by Run: the same status, error, format, description and edits.
func TestReplyReadAheadIsTheReplyRead(t *testing.T) {
	replies := map[string]string{
		"applies":   "Make it b.\n\na.txt\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n",
		"fails":     "Make it c.\n\na.txt\n```\n<<<<<<< SEARCH\nnot there\n=======\nc\n>>>>>>> REPLACE\n```\n",
		"no edit":   "Nothing to change here.\n",
		"empty":     "",
		"malformed": "[{\"name\": \"Edit\", \"input\": {\"file_path\": \"a.txt\"",
	}
	for name, text := range replies {
		t.Run(name, func(t *testing.T) {
			run := func(in Input) *ReplyResult {
				out, err := Run(context.Background(), []Input{in}, files("a.txt", "a\n"), nil, RunOptions{Format: "auto"})
				if err != nil || len(out) != 1 {
					t.Fatalf("Run: %v, %d results", err, len(out))
				}
				return out[0]
			}
			read := run(Input{Source: "r.md", Text: text})
			ahead := Input{Source: "r.md", Text: text}
			ahead.Reply, ahead.ReadErr = translate.Parse(text, translate.ParseOptions{Format: "auto"})
			got := run(ahead)
			if got.Status != read.Status || fmt.Sprint(got.Err) != fmt.Sprint(read.Err) || errors.Is(got.Err, translate.ErrNoEdits) != errors.Is(read.Err, translate.ErrNoEdits) ||
				got.Format != read.Format || got.Subject != read.Subject || string(got.Patch) != string(read.Patch) || len(got.Outcomes) != len(read.Outcomes) {
				t.Errorf("read ahead: %s %v %q %q, %d edits; read by Run: %s %v %q %q, %d edits",
					got.Status, got.Err, got.Format, got.Subject, len(got.Outcomes), read.Status, read.Err, read.Format, read.Subject, len(read.Outcomes))
			}
		})
	}
}
