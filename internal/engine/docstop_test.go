package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/poll"
)

// Finding a file's lines looks at the context every poll.Step bytes
// (SPEC section 2): ended, the doc is not made, and the resolution
// unwinds (stopped); live, the doc is newDoc's.
func TestDocIndexStops(t *testing.T) {
	text := []byte(strings.Repeat("a line\r\n", 2*poll.Step/8+3))
	live := newDocStop(context.Background(), text)
	if plain := newDoc(text); live.total != plain.total || live.eol != plain.eol || live.longest != plain.longest {
		t.Errorf("newDocStop: %d lines %q; newDoc: %d lines %q", live.total, live.eol, plain.total, plain.eol)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var err error
	func() {
		defer recoverStopped(&err)
		newDocStop(ctx, text)
	}()
	if !errors.Is(err, context.Canceled) {
		t.Errorf("newDocStop with an ended context: %v", err)
	}
}
