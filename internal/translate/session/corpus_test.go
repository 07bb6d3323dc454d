package session

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The aider corpus: a 4 MB real chat history (see its NOTICE.md).
const aiderCorpus = "../../../../shared/corpus/aider-chat-history/chat-history.md"

// TestAiderCorpus reads the whole corpus as a session: every turn reads
// without error, and the counts hold what the file shows (9,030 "#### "
// lines make fewer requests, several lines each; aider reported 415
// applied edits and 59 replies it could not use).
func TestAiderCorpus(t *testing.T) {
	f, err := os.Open(filepath.FromSlash(aiderCorpus))
	if errors.Is(err, os.ErrNotExist) {
		t.Skip("the corpus is not here (../shared absent)")
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := Open(f, "chat-history.md")
	if err != nil {
		t.Fatal(err)
	}
	if r.Kind() != Aider {
		t.Fatalf("kind %s, want aider", r.Kind())
	}
	var turns, edits, ops, skipped, failed, orphan, last int
	for {
		turn, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("after turn %d: %v", last, err)
		}
		if turn.N != 0 && turn.N != last+1 {
			t.Fatalf("turn %d follows turn %d", turn.N, last)
		}
		if turn.N == 0 {
			orphan++
		} else {
			last = turn.N
			turns++
		}
		skipped += len(turn.Skipped)
		if turn.Reply != nil {
			edits++
			ops += len(turn.Reply.Ops)
			failed += len(turn.Reply.Failed)
			for _, op := range turn.Reply.Ops {
				if op.Line < turn.Line {
					t.Errorf("turn %d (line %d): an edit at line %d, above its request", turn.N, turn.Line, op.Line)
				}
			}
		}
	}
	t.Logf("turns %d, with edits %d, operations %d, skipped %d, failures %d, turns before a request %d", turns, edits, ops, skipped, failed, orphan)
	if turns < 1000 || edits < 200 || ops < 400 || skipped < 30 {
		t.Errorf("counts too low: turns %d, with edits %d, operations %d, skipped %d", turns, edits, ops, skipped)
	}
}
