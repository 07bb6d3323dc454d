package engine

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// sliceNext hands out inputs one at a time, as a session reader does,
// and counts how many it gave.
func sliceNext(inputs []Input, given *int) func() (Input, error) {
	return func() (Input, error) {
		if *given == len(inputs) {
			return Input{}, io.EOF
		}
		*given++
		return inputs[*given-1], nil
	}
}

// RunEach gives each result as soon as it is made, every input seeing
// the changes of those before it, and leaves Run's results as they
// were: Run is RunEach over a slice.
func TestRunEachMatchesRun(t *testing.T) {
	rec := &memRecorder{}
	want, err := Run(context.Background(), chainReplies(), files("a.txt", "a\n"), rec, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rec2 := &memRecorder{}
	given := 0
	var got []*ReplyResult
	err = RunEach(context.Background(), sliceNext(chainReplies(), &given), files("a.txt", "a\n"), rec2, RunOptions{}, func(r *ReplyResult) error {
		if given != len(got)+1 {
			t.Errorf("result %d handed on after %d inputs were read: want one at a time", len(got)+1, given)
		}
		got = append(got, r)
		r.Changes, r.Patch = nil, nil // the caller may drop them: the next input must not need them
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || strings.Join(rec.messages, "|") != strings.Join(rec2.messages, "|") {
		t.Fatalf("RunEach recorded %q, Run %q", rec2.messages, rec.messages)
	}
	for i := range got {
		if got[i].Status != Recorded || got[i].Commit != want[i].Commit {
			t.Errorf("result %d: %s %s, want %s %s", i, got[i].Status, got[i].Commit, want[i].Status, want[i].Commit)
		}
	}
}

// An error of next or each stops the run there and comes back as it is;
// what was handed on before stands.
func TestRunEachStops(t *testing.T) {
	stop := errors.New("stop here")
	rec := &memRecorder{}
	given, n := 0, 0
	err := RunEach(context.Background(), sliceNext(chainReplies(), &given), files("a.txt", "a\n"), rec, RunOptions{}, func(*ReplyResult) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || len(rec.messages) != 2 || given != 2 {
		t.Errorf("each stopping at the second: %v, %d commits, %d inputs read; want its error, 2 commits, 2 read", err, len(rec.messages), given)
	}
	bad := errors.New("log line 7: bad JSON")
	calls := 0
	err = RunEach(context.Background(), func() (Input, error) {
		calls++
		if calls == 2 {
			return Input{}, bad
		}
		return chainReplies()[0], nil
	}, files("a.txt", "a\n"), nil, RunOptions{}, func(*ReplyResult) error { return nil })
	if !errors.Is(err, bad) {
		t.Errorf("next failing: %v, want its error", err)
	}
}

// An input that carries its reply already read is not parsed again;
// its own subject, body and trailers make the message, and -m wins
// over the subject and body but keeps the trailers.
func TestRunReadReply(t *testing.T) {
	reply := &translate.Reply{Format: "tool-calls", Prose: []string{"Prose the reply says."}, Ops: []translate.Operation{
		{Kind: translate.Edit, Path: "a.txt", LineEdit: translate.LineEdit{Old: []string{"a"}, New: []string{"b"}}, Line: 3, Format: "tool-calls"},
	}}
	tests := []struct {
		name, message string
		in            Input
		want          string
		status        ReplyStatus
	}{
		{"subject, body and trailers", "", Input{Source: "s#1", Text: "not a reply at all", Reply: reply, Subject: "Make it b", Body: "I changed a to b.",
			Trailers: []string{"LLM-Session: s.jsonl#1"}},
			"Make it b\n\nI changed a to b.\n\nLLM-Edit-Format: tool-calls\nLLM-Reply: a2d110f2fd5f0ade\nLLM-Session: s.jsonl#1\n", Recorded},
		{"no subject: the reply's description", "", Input{Source: "s#1", Reply: reply},
			"Prose the reply says.\n\nLLM-Edit-Format: tool-calls\nLLM-Reply: a2d110f2fd5f0ade\n", Recorded},
		{"-m wins", "Mine", Input{Source: "s#1", Reply: reply, Subject: "Make it b", Body: "I changed a to b.", Trailers: []string{"LLM-Session: s.jsonl#1"}},
			"Mine\n\nLLM-Edit-Format: tool-calls\nLLM-Reply: a2d110f2fd5f0ade\nLLM-Session: s.jsonl#1\n", Recorded},
		{"trailer cleaned to one line", "", Input{Source: "s#1", Reply: reply, Subject: "S", Trailers: []string{"LLM-Session: a\nb\x1b#2", " "}},
			"S\n\nLLM-Edit-Format: tool-calls\nLLM-Reply: a2d110f2fd5f0ade\nLLM-Session: a b#2\n", Recorded},
		{"a reply with no operation", "", Input{Source: "s#1", Reply: &translate.Reply{Format: "tool-calls"}, Subject: "S"}, "", ReplyFailed},
		{"a block its reader could not read fails, not dropped", "", Input{Source: "s#1", Subject: "S", Reply: &translate.Reply{Format: "tool-calls", Ops: reply.Ops,
			Failed: []translate.Failure{{Path: "a.txt", Line: 9, Msg: "malformed call"}}}}, "", ReplyFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &memRecorder{}
			out, err := Run(context.Background(), []Input{tt.in}, files("a.txt", "a\n"), rec, RunOptions{Message: tt.message})
			if err != nil {
				t.Fatal(err)
			}
			if out[0].Status != tt.status || out[0].Message != tt.want {
				t.Errorf("got %s %q (err %v), want %s %q", out[0].Status, out[0].Message, out[0].Err, tt.status, tt.want)
			}
			if tt.status == ReplyFailed && out[0].Err == nil && (len(out[0].Outcomes) != 2 || out[0].Outcomes[1].Status != Failed || out[0].Outcomes[1].Op.Line != 9) {
				t.Errorf("outcomes %+v, want the unread block failed as edit 2", out[0].Outcomes)
			}
			if tt.status == ReplyFailed && out[0].Err != nil && !errors.Is(out[0].Err, translate.ErrNoEdits) {
				t.Errorf("error %v, want ErrNoEdits", out[0].Err)
			}
		})
	}
}
