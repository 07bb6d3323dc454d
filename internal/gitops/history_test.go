package gitops

import (
	"fmt"
	"strings"
	"testing"
)

// TestHistoryReadsFlat: a long-lived Repo walking the history of a
// branch that grows by one commit a call (an MCP session: SPEC section
// 2, mcp) reads from the object store only the commits it has not read
// before, at call 10 as at call 1,000, past the point where the cache
// of commits is full: a call costs the same however long the session.
func TestHistoryReadsFlat(t *testing.T) {
	t.Parallel()
	const calls = 1000
	tr := newTestRepo(t)
	var b strings.Builder
	for k := 0; k <= calls; k++ {
		msg := fmt.Sprintf("call %d\n\nLLM-Reply: %04d\nLLM-MCP-Branch: s\n", k, k)
		fmt.Fprintf(&b, "commit refs/heads/s\nmark :%d\ncommitter C <c@example.com> %d +0000\ndata %d\n%s", k+1, 1700000000+k, len(msg), msg)
		if k > 0 {
			fmt.Fprintf(&b, "from :%d\n", k)
		}
	}
	tr.gitEnv(tr.dir, nil, b.String(), "fast-import", "--quiet")
	tips := strings.Fields(tr.git("rev-list", "--reverse", "s"))
	if len(tips) != calls+1 {
		t.Fatalf("%d commits, want %d", len(tips), calls+1)
	}
	tests := []struct {
		name string
		walk func(r *Repo, tip string) error
	}{
		{"RecordedTrailers", func(r *Repo, tip string) error { _, err := r.RecordedTrailers(tip, "LLM-Reply"); return err }},
		{"CommitsWithTrailer", func(r *Repo, tip string) error {
			_, err := r.CommitsWithTrailer(tip, "LLM-MCP-Branch", "s")
			return err
		}},
		{"both, as an apply", func(r *Repo, tip string) error {
			if _, err := r.RecordedTrailers(tip, "LLM-Reply"); err != nil {
				return err
			}
			_, err := r.CommitsWithTrailer(tip, "LLM-MCP-Branch", "s")
			return err
		}},
	}
	for _, tc := range tests {
		r := tr.open(tr.dir)
		for k := 1; k <= calls; k++ {
			before := r.history.reads
			if err := tc.walk(r, tips[k]); err != nil {
				t.Fatalf("%s, call %d: %v", tc.name, k, err)
			}
			want := 1 // the new tip
			if k == 1 {
				want = 2 // and the root below it
			}
			if got := r.history.reads - before; got != want {
				t.Errorf("%s, call %d: %d commits read, want %d", tc.name, k, got, want)
			}
		}
	}
}
