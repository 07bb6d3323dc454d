package engine

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// With --partial, the edits of one tool call stand or fall together:
// the agent's tool (a MultiEdit, an apply_patch) applied all of them
// or none, so a part of a call is a state the agent never saw. The
// edits that depended on a dropped call then fail too, and the calls
// that did not fail are recorded.
func TestPartialKeepsWholeCalls(t *testing.T) {
	multi := func(path string, pairs ...string) string {
		var edits []string
		for i := 0; i+1 < len(pairs); i += 2 {
			edits = append(edits, `{"old_string":"`+pairs[i]+`","new_string":"`+pairs[i+1]+`"}`)
		}
		return `{"name":"MultiEdit","input":{"file_path":"` + path + `","edits":[` + strings.Join(edits, ",") + `]}}`
	}
	edit := func(path, old, repl string) string {
		return `{"name":"Edit","input":{"file_path":"` + path + `","old_string":"` + old + `","new_string":"` + repl + `"}}`
	}
	patch := func(body string) string {
		return `{"name":"apply_patch","input":{"input":"*** Begin Patch\n` + body + `*** End Patch"}}`
	}
	base := files("a.txt", "one\ntwo\n", "b.txt", "bee\n")
	tests := []struct {
		name    string
		calls   []string
		status  ReplyStatus
		want    map[string]string // files changed, and their content
		dropped map[int]int       // edit -> the failed edit its error names
		failed  []int             // every failed edit
	}{
		{"a MultiEdit whose second edit fails keeps nothing",
			[]string{multi("a.txt", "one", "ONE", "nine", "NINE"), edit("b.txt", "bee", "BEE")},
			Partial, map[string]string{"b.txt": "BEE\n"}, map[int]int{1: 2}, []int{1, 2}},
		{"an edit that needs the dropped call's text fails honestly",
			[]string{multi("a.txt", "one", "ONE", "nine", "NINE"), edit("a.txt", "ONE", "1"), edit("b.txt", "bee", "BEE")},
			Partial, map[string]string{"b.txt": "BEE\n"}, map[int]int{1: 2}, []int{1, 2, 3}},
		{"a call failed only because of a dropped call is dropped whole",
			// Call 2 fails while call 1 stands (one is gone); once call 1
			// is dropped its first edit would apply alone: it must not.
			[]string{multi("a.txt", "one", "ONE", "nine", "NINE"), multi("a.txt", "two", "2", "one", "1"), edit("b.txt", "bee", "BEE")},
			Partial, map[string]string{"b.txt": "BEE\n"}, map[int]int{1: 2, 3: 4, 4: 4}, []int{1, 2, 3, 4}},
		{"a Codex apply_patch of two files, one failing, keeps neither",
			[]string{patch(`*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-nothing\n+else\n`), edit("a.txt", "two", "2")},
			Partial, map[string]string{"a.txt": "one\n2\n"}, map[int]int{1: 2}, []int{1, 2}},
		{"every call whole: all recorded",
			[]string{multi("a.txt", "one", "ONE", "two", "TWO"), edit("b.txt", "bee", "BEE")},
			Recorded, map[string]string{"a.txt": "ONE\nTWO\n", "b.txt": "BEE\n"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reply := strings.Join(tt.calls, "\n") + "\n"
			out, err := Run(context.Background(), []Input{{Source: "r", Text: reply}}, base, &memRecorder{}, RunOptions{Format: translate.FormatToolCalls, Partial: true})
			if err != nil {
				t.Fatal(err)
			}
			r := out[0]
			if r.Err != nil || r.Status != tt.status {
				t.Fatalf("status %s (err %v), want %s; outcomes %+v", r.Status, r.Err, tt.status, r.Outcomes)
			}
			got := map[string]string{}
			for _, c := range r.Changes {
				got[c.Path()] = string(c.New)
			}
			if len(got) != len(tt.want) {
				t.Errorf("changed %v, want %v", got, tt.want)
			}
			for p, w := range tt.want {
				if got[p] != w {
					t.Errorf("%s = %q, want %q", p, got[p], w)
				}
			}
			var failed []int
			for _, o := range r.Outcomes {
				if o.Status != Failed {
					continue
				}
				failed = append(failed, o.N)
				n, dropped := tt.dropped[o.N]
				if dropped != errors.Is(o.Err, ErrCallFailed) {
					t.Errorf("edit %d: %v, dropped for its call: %v", o.N, o.Err, dropped)
				}
				if dropped && !strings.Contains(o.Err.Msg, msgFor(o.N, n)) {
					t.Errorf("edit %d: %q, want it to name edit %d", o.N, o.Err.Msg, n)
				}
			}
			if fmt.Sprint(failed) != fmt.Sprint(tt.failed) {
				t.Errorf("failed edits %v, want %v", failed, tt.failed)
			}
		})
	}
	// Without --partial the reply is rejected whole, as any reply.
	out, err := Run(context.Background(), []Input{{Source: "r", Text: multi("a.txt", "one", "ONE", "nine", "NINE")}}, base, &memRecorder{}, RunOptions{Format: translate.FormatToolCalls})
	if err != nil || out[0].Status != ReplyFailed || len(out[0].Changes) != 0 {
		t.Fatalf("without --partial: %v %s %d changes", err, out[0].Status, len(out[0].Changes))
	}
}

// msgFor is what the error of edit n says when edit cause's failure
// dropped it.
func msgFor(n, cause int) string {
	if n == cause {
		return "it failed while the tool calls before it stood"
	}
	return "edit " + strconv.Itoa(cause) + " of the same tool call failed"
}
