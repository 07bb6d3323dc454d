package engine

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

func TestLimitsCheckReply(t *testing.T) {
	l := Limits{ReplySize: 100, LineLength: 10}
	for _, c := range []struct {
		name, text, want string
	}{
		{"fits", "0123456789\nabc\n", ""},
		{"no final newline", "abc\n0123456789", ""},
		{"line too long", "abc\nabc\n0123456789X\n", "reply line 3 is 11 bytes long"},
		{"last line too long", "abc\n0123456789X", "reply line 2 is 11 bytes long"},
		{"too large", strings.Repeat("abc\n", 26), "the reply is 104 bytes, more than --max-reply-size (100 bytes)"},
	} {
		err := l.checkReply(c.text)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (!errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want ErrTooLarge saying %q", c.name, err, c.want)
		}
	}
	if err := (Limits{}).checkReply(strings.Repeat("x", 1<<20)); err != nil {
		t.Errorf("zero limits refused: %v", err)
	}
}

func TestLimitsCheckFile(t *testing.T) {
	l := Limits{FileSize: 50, LineLength: 10}
	for _, c := range []struct {
		name, data, want string
	}{
		{"fits", "short\nlines\n", ""},
		{"long line", "ok\n0123456789ABC\n", "line 2 of f.txt is 13 bytes long, more than --max-line-length (10 bytes)"},
		{"last line without newline", "ok\n0123456789ABC", "line 2 of f.txt is 13 bytes long"},
		{"terminators do not count", "0123456789\r\n0123456789\n", ""},
		{"too large", strings.Repeat("x\n", 30), "f.txt is 60 bytes, more than --max-file-size (50 bytes)"},
	} {
		got := l.checkSize("f.txt", int64(len(c.data)))
		if got == "" {
			got = l.checkLines("f.txt", newDoc([]byte(c.data)))
		}
		if !strings.Contains(got, c.want) || (c.want == "") != (got == "") {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 1023: "1023 bytes", 1024: "1 KiB", 1536: "1.5 KiB",
		64 << 20: "64 MiB", 100 << 20: "100 MiB", 3 << 30: "3 GiB", 1<<40 + 1<<39: "1.5 TiB",
	} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

// A file over a limit is refused for every operation that would read
// or write it, and the rest of the reply still applies.
func TestResolveRefusesFilesOverLimits(t *testing.T) {
	big := strings.Repeat("line\n", 100)
	src := files("big.txt", big, "small.txt", "a\nb\n", "dir/big.txt", big, "image.png", "\x89PNG\x00"+strings.Repeat("x", 60))
	ops := []translate.Operation{
		{Kind: translate.Edit, Path: "big.txt", LineEdit: translate.LineEdit{Old: []string{"line"}, New: []string{"x"}}, Placement: translate.Placement{FirstMatch: true}},
		{Kind: translate.Delete, Path: "big.txt"},
		{Kind: translate.Rename, Path: "big.txt", FileOp: translate.FileOp{NewPath: "moved.txt"}},
		{Kind: translate.Rename, Path: "small.txt", FileOp: translate.FileOp{NewPath: "big.txt"}, FileCreate: translate.FileCreate{Overwrite: true}},
		{Kind: translate.Delete, Path: "dir", FileOp: translate.FileOp{Recursive: true}},
		{Kind: translate.Chmod, Path: "big.txt", FileOp: translate.FileOp{Executable: true}},
		{Kind: translate.Edit, Path: "small.txt", LineEdit: translate.LineEdit{Old: []string{"a"}, New: []string{"A"}}},
		// A binary file has no lines to be too long.
		{Kind: translate.Delete, Path: "image.png"},
	}
	res, err := Resolve(src, ops, Options{Format: "diff", Limits: Limits{FileSize: 100, LineLength: 20}})
	if err != nil {
		t.Fatal(err)
	}
	for i, o := range res.Outcomes[:6] {
		if o.Status != Failed || !errors.Is(o.Err, ErrTooLarge) || !strings.Contains(o.Err.Msg, "big.txt is 500 bytes, more than --max-file-size (100 bytes)") {
			t.Errorf("op %d: %v %+v", i+1, o.Status, o.Err)
		}
	}
	for _, o := range res.Outcomes[6:] {
		if o.Status != Applied {
			t.Errorf("%s: %v %+v", o.Path, o.Status, o.Err)
		}
	}
	if len(res.Changes) != 2 {
		t.Errorf("changes: %+v", res.Changes)
	}
}

// Run refuses a reply over a limit before reading its edits.
func TestRunRefusesRepliesOverLimits(t *testing.T) {
	src := files("a.txt", "a\n")
	reply := "Two edits.\n\na.txt\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n\na.txt\n```\n<<<<<<< SEARCH\nb\n=======\nc\n>>>>>>> REPLACE\n```\n"
	for _, c := range []struct {
		limits Limits
		want   string
	}{
		{Limits{Edits: 1}, "the reply holds 2 operations, more than --max-edits (1)"},
		{Limits{ReplySize: 10}, "more than --max-reply-size (10 bytes)"},
		{Limits{LineLength: 5}, "reply line 1 is 10 bytes long"},
	} {
		out, err := Run(context.Background(), []Input{{Source: "r.md", Text: reply}}, src, nil, RunOptions{Format: "auto", Limits: c.limits})
		if err != nil {
			t.Fatal(err)
		}
		if r := out[0]; !errors.Is(r.Err, ErrTooLarge) || !strings.Contains(r.Err.Error(), c.want) || r.Status != ReplyFailed {
			t.Errorf("%+v: %v (%s), want %q", c.limits, r.Err, r.Status, c.want)
		}
	}
	out, err := Run(context.Background(), []Input{{Source: "r.md", Text: reply}}, src, nil, RunOptions{Format: "auto", Limits: DefaultLimits})
	if err != nil || out[0].Err != nil || out[0].Status != Checked {
		t.Errorf("within the default limits: %v %+v", err, out[0])
	}
}
