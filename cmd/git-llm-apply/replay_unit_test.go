package main

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
	"github.com/git-llm-apply/git-llm-apply/internal/translate/session"
)

// A log's turn reaches the engine with its request's first line as the
// subject, the assistant's prose as the body, the session trailer, and
// the edits the session saw fail for the report; a turn whose reply
// holds no edit is one to skip.
func TestReplayTurnInput(t *testing.T) {
	t.Parallel()
	src := &replaySource{name: "logs/s.jsonl", label: "s.jsonl"}
	reply := &translate.Reply{Format: "tool-calls", Ops: []translate.Operation{{Kind: translate.Create, Path: "a"}}}
	tests := []struct {
		name  string
		turn  session.Turn
		want  string
		empty bool
	}{
		{"request and prose", session.Turn{N: 3, Line: 40, Request: "\n  Fix the parser.  \nIt crashes on empty input.", Prose: []string{"Looking.", "Fixed."}, Reply: reply,
			Skipped: []session.Skip{{Line: 42, Path: "a", Why: "String not found"}}},
			"logs/s.jsonl#3|Fix the parser.|Looking.\n\nFixed.|LLM-Session: s.jsonl#3|40|1", false},
		{"no reply", session.Turn{N: 1, Line: 1, Request: "Hi"}, "logs/s.jsonl#1|Hi||LLM-Session: s.jsonl#1|1|0", true},
		{"a reply with no operation", session.Turn{N: 2, Line: 5, Request: "Hi", Reply: &translate.Reply{Format: "tool-calls"}}, "logs/s.jsonl#2|Hi||LLM-Session: s.jsonl#2|5|0", true},
		{"only unread blocks: not empty", session.Turn{N: 2, Line: 5, Request: "Hi", Reply: &translate.Reply{Format: "tool-calls", Failed: []translate.Failure{{Line: 6, Msg: "bad"}}}},
			"logs/s.jsonl#2|Hi||LLM-Session: s.jsonl#2|5|0", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt := src.turn(&tt.turn)
			got := strings.Join([]string{rt.in.Source, rt.in.Subject, rt.in.Body, strings.Join(rt.in.Trailers, ","),
				itoa(rt.info.Line), itoa(len(rt.info.Skipped))}, "|")
			if got != tt.want || rt.empty != tt.empty {
				t.Errorf("got %q empty %v, want %q empty %v", got, rt.empty, tt.want, tt.empty)
			}
		})
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A run whose total is not known (replay streams its turns) counts, as
// git does, without a percentage, and ends with how many there were
// (turn 185 is the 186th).
func TestMeterUnknownTotal(t *testing.T) {
	t.Setenv("GIT_PROGRESS_DELAY", "0")
	var b bytes.Buffer
	m := newMeter(streams{rawErr: &b}, commonOptions{Command: "replay", Progress: "always"}, -1)
	m.update(0, engine.PhaseParse)
	m.now = func() time.Time { return m.last.Add(redrawEvery) }
	m.update(185, engine.PhaseParse)
	m.stop(true)
	want := "Replaying turns: 0\rReplaying turns: 185\rReplaying turns: 186, done.\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

// TestSavedDiffers: a recorded file and Cline's saved content are the
// same when they differ only as Cline's editor ignores (CRLF, the
// white space ending the file), and differ from the first other line.
func TestSavedDiffers(t *testing.T) {
	for _, tc := range []struct {
		recorded, saved string
		line            int // 0: the same
	}{
		{"a\nb\n", "a\nb\n", 0},
		{"a\nb\n", "a\r\nb\r\n", 0},
		{"a\r\nb\r\n", "a\nb\n", 0},
		{"a\nb", "a\nb\n", 0},
		{"a\nb\n", "a\nb\n\n\n", 0},
		{"a\nb  \n", "a\nb\n", 0},
		{"", "\n", 0},
		{"a\nb\n", "a\nc\n", 2},
		{"a\nb\n", "a\nb\nc\n", 3},
		{"a\n\nb\n", "a\nb\n", 2},
		{"a \nb\n", "a\nb\n", 1},
		{"a\nb\n", "", 1},
	} {
		line, differs := savedDiffers(tc.recorded, tc.saved)
		if differs != (tc.line != 0) || line != tc.line {
			t.Errorf("savedDiffers(%q, %q) = %d, %v; want line %d", tc.recorded, tc.saved, line, differs, tc.line)
		}
	}
}
