package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// memRecorder keeps the messages of the commits it was asked for,
// honouring ctx as gitops does; after, when set, runs once a commit is
// made.
type memRecorder struct {
	messages []string
	after    func()
}

func (m *memRecorder) Record(ctx context.Context, _ []patch.FileChange, message string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	m.messages = append(m.messages, message)
	if m.after != nil {
		m.after()
	}
	return fmt.Sprintf("commit%d", len(m.messages)), nil
}

// chainReplies are three replies, each changing what the one before
// wrote into a.txt.
func chainReplies() []Input {
	var in []Input
	for i, c := range []string{"a", "b", "c"} {
		next := string(rune(c[0] + 1))
		in = append(in, Input{Source: fmt.Sprintf("r%d.md", i+1),
			Text: fmt.Sprintf("Make it %s.\n\na.txt\n```\n<<<<<<< SEARCH\n%s\n=======\n%s\n>>>>>>> REPLACE\n```\n", next, c, next)})
	}
	return in
}

// A cancellation in any phase of a reply drops that reply whole: the
// replies before it keep their commits, the error names it, and
// nothing of it reaches the recorder.
func TestRunStopsInEveryPhase(t *testing.T) {
	for _, phase := range []Phase{PhaseParse, PhaseResolve, PhaseDiff, PhaseVerify, PhaseRecord} {
		ctx, cancel := context.WithCancel(context.Background())
		rec := &memRecorder{}
		var seen []string
		out, err := Run(ctx, chainReplies(), files("a.txt", "a\n"), rec, RunOptions{Progress: func(n int, p Phase) {
			seen = append(seen, fmt.Sprintf("%d:%s", n, p))
			if n == 1 && p == phase {
				cancel()
			}
		}})
		cancel()
		var ie *InterruptError
		if !errors.As(err, &ie) || ie.Cut != "r2.md" || !errors.Is(err, ErrInterrupted) || !errors.Is(err, context.Canceled) {
			t.Errorf("%s: error %v, want an interruption cutting r2.md", phase, err)
			continue
		}
		if len(out) != 1 || out[0].Source != "r1.md" || out[0].Commit != "commit1" {
			t.Errorf("%s: results %v, want r1.md recorded alone", phase, sources(out))
		}
		if len(rec.messages) != 1 || !strings.HasPrefix(rec.messages[0], "Make it b.") {
			t.Errorf("%s: recorded %q, want r1.md's commit alone", phase, rec.messages)
		}
		if last := seen[len(seen)-1]; last != "1:"+string(phase) {
			t.Errorf("%s: went on to %s after the cancellation", phase, last)
		}
	}
}

// A cancellation between two replies (here, as the first one's commit
// is made) keeps that reply and cuts none; one before the run starts
// reads nothing.
func TestRunStopsBetweenReplies(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &memRecorder{after: cancel}
	out, err := Run(ctx, chainReplies(), files("a.txt", "a\n"), rec, RunOptions{})
	var ie *InterruptError
	if !errors.As(err, &ie) || ie.Cut != "" || len(out) != 1 || out[0].Status != Recorded || len(rec.messages) != 1 {
		t.Errorf("cancelled as r1.md is recorded: %v, results %v, %d commits; want r1.md recorded and no reply cut", err, sources(out), len(rec.messages))
	}
	out, err = Run(ctx, chainReplies(), files("a.txt", "a\n"), nil, RunOptions{})
	if !errors.As(err, &ie) || ie.Cut != "" || len(out) != 0 {
		t.Errorf("cancelled before the run: %v, results %v", err, sources(out))
	}
}

func sources(rs []*ReplyResult) []string {
	var s []string
	for _, r := range rs {
		s = append(s, r.Source)
	}
	return s
}

// countdown is a context that ends at the after-th look at Err, and
// counts the looks.
type countdown struct {
	context.Context
	after, looks int64
}

func (c *countdown) Err() error {
	if n := atomic.AddInt64(&c.looks, 1); c.after > 0 && n >= c.after {
		return context.Canceled
	}
	return nil
}

// One edit of a long file is stopped inside it, not only before: the
// loops over the file's lines (here, building the index of each rung it
// climbs) look at the context as they go.
func TestResolveStopsInsideALongFile(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 200000; i++ {
		fmt.Fprintf(&b, "int v%d = %d; /* step %d */\n", i, i, i)
	}
	src := files("big.c", b.String())
	// Found at the comments rung only: every rung below it indexes the
	// whole file first.
	ops := []translate.Operation{{Kind: translate.Edit, Path: "big.c",
		LineEdit: translate.LineEdit{Old: []string{"int v199998 = 199998; // the step before last"}, New: []string{"int v199998 = 0;"}}}}
	all := &countdown{Context: context.Background()}
	res, err := ResolveContext(all, src, ops, Options{Format: "chunk"})
	if err != nil || res.Outcomes[0].Status != Applied || res.Outcomes[0].Rung != RungComments {
		t.Fatalf("uncancelled: %v %+v", err, res)
	}
	if all.looks < 4 {
		t.Fatalf("the edit looked at the context %d times; want looks within the loops over the file", all.looks)
	}
	// The first look is the one before the edit; the second is inside it.
	cut := &countdown{Context: context.Background(), after: 2}
	res, err = ResolveContext(cut, src, ops, Options{Format: "chunk"})
	if !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled at the second look: %v, %v; want context.Canceled and no result", err, res)
	}
}
