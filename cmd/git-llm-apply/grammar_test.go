package main

import (
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
)

// TestCountsAgreeWithTheirNouns: "1 edit", not "1 edits".
func TestCountsAgreeWithTheirNouns(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\nb\n"})
	one := r.reply("one.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n"))
	if res := r.run("check", one); !strings.Contains(res.stderr, "Change a. [ok, 1 edit]\n") {
		t.Errorf("one edit:\n%s", res.stderr)
	}
	two := r.reply("two.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n")+block("a.txt", "b\n", "B\n"))
	if res := r.run("check", two); !strings.Contains(res.stderr, "Change a. [ok, 2 edits]\n") {
		t.Errorf("two edits:\n%s", res.stderr)
	}
	failed := r.reply("failed.md", "Change a.\n\n"+block("a.txt", "nope\n", "A\n"))
	if res := r.run("check", failed); !strings.Contains(res.stderr, "Change a. [1 of 1 edit failed; nothing recorded]\n") {
		t.Errorf("one failed edit:\n%s", res.stderr)
	}
	partial := r.reply("partial.md", "Change a.\n\n"+block("a.txt", "a\n", "A\n")+block("a.txt", "nope\n", "x\n"))
	if res := r.run("apply", "--partial", "-b", "p", partial); !strings.Contains(res.stderr, "1 of 2 edits failed and was left out]\n") {
		t.Errorf("partial:\n%s", res.stderr)
	}
	if res := r.run("check", "--max-reply-size", "1", one); !strings.Contains(res.stderr, "(1 byte)") {
		t.Errorf("limit of one byte:\n%s", res.stderr)
	}
}

func TestHeadlineCounts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		status                 engine.ReplyStatus
		edits, failed, skipped int
		want                   string
	}{
		{engine.Checked, 1, 0, 0, "s [ok, 1 edit]"},
		{engine.Checked, 2, 0, 0, "s [ok, 2 edits]"},
		{engine.Checked, 2, 0, 1, "s [ok, 1 edit; 1 block skipped as a snippet]"},
		{engine.Checked, 3, 0, 2, "s [ok, 1 edit; 2 blocks skipped as snippets]"},
		{engine.Checked, 1, 1, 0, "s [1 of 1 edit failed]"},
		{engine.ReplyFailed, 1, 1, 0, "s [1 of 1 edit failed; nothing recorded]"},
		{engine.ReplyFailed, 2, 2, 0, "s [2 of 2 edits failed; nothing recorded]"},
		{engine.Partial, 3, 1, 0, "s [abc on b; 1 of 3 edits failed and was left out]"},
		{engine.Partial, 3, 2, 0, "s [abc on b; 2 of 3 edits failed and were left out]"},
	} {
		r := &engine.ReplyResult{Subject: "s", Status: tt.status, Commit: "abcdef0123", ShortCommit: "abc"}
		for i := range tt.edits {
			st := engine.Applied
			if i < tt.failed {
				st = engine.Failed
			} else if i < tt.failed+tt.skipped {
				st = engine.Skipped
			}
			r.Outcomes = append(r.Outcomes, engine.Outcome{Status: st})
		}
		if got := headline(r, "b", tt.failed); got != tt.want {
			t.Errorf("headline = %q, want %q", got, tt.want)
		}
	}
}

func TestInterruptedCountsReplies(t *testing.T) {
	t.Parallel()
	err := interruptedError(nil, []engine.Input{{Source: "r.md"}}, outputs{cut: "r.md"}, "")
	if want := "interrupted: 0 of 1 reply done; r.md was cut short: it is not reported"; err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}
