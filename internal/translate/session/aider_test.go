package session

import (
	"io"
	"strings"
	"testing"
)

// readAll reads every turn of a log.
func readAll(t *testing.T, log string) []*Turn {
	t.Helper()
	r, err := Open(strings.NewReader(log), "log")
	if err != nil {
		t.Fatal(err)
	}
	var turns []*Turn
	for {
		turn, err := r.Next()
		if err == io.EOF {
			return turns
		}
		if err != nil {
			t.Fatal(err)
		}
		turns = append(turns, turn)
	}
}

// TestAiderHeadingInReply: aider writes every line of a request as
// "#### " and two spaces (aider/io.py user_input); a reply's own
// Markdown heading has no two spaces and is part of the reply, not a
// new request that would cut the reply in two and drop its first half.
func TestAiderHeadingInReply(t *testing.T) {
	log := "# aider chat started at 2024-08-01 10:00:00\n\n" +
		"#### fix both  \n\n" +
		"a.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n\n" +
		"#### And the other file\n\n" +
		"b.py\n```python\n<<<<<<< SEARCH\ny = 1\n=======\ny = 2\n>>>>>>> REPLACE\n```\n\n" +
		"> Applied edit to a.py  \n> Applied edit to b.py  \n"
	turns := readAll(t, log)
	if len(turns) != 1 {
		t.Fatalf("%d turns, want 1", len(turns))
	}
	tr := turns[0]
	if tr.Request != "fix both" || tr.Reply == nil || len(tr.Reply.Ops) != 2 || len(tr.Skipped) != 0 {
		t.Fatalf("turn %+v, reply %+v", tr, tr.Reply)
	}
}
