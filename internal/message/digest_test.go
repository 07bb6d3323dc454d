package message

import (
	"fmt"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestReplyDigest: the digest of a reply is that of its edits, parsed:
// the same edits worded otherwise, in another notation of the same
// family or on other reply lines are the same reply; any change to what
// an edit finds or writes is another (SPEC section 3).
func TestReplyDigest(t *testing.T) {
	digest := func(reply string) string {
		t.Helper()
		r, err := translate.Parse(reply, translate.ParseOptions{Format: "auto"})
		if err != nil {
			t.Fatalf("parse %q: %v", reply, err)
		}
		return ReplyDigest(r.Ops)
	}
	block := func(path, search, replace string) string {
		return path + "\n```\n<<<<<<< SEARCH\n" + search + "=======\n" + replace + ">>>>>>> REPLACE\n```\n"
	}
	base := digest("Change x.\n\n" + block("f.txt", "x = 1\n", "x = 2\n"))
	if len(base) != digestLen {
		t.Fatalf("digest %q: want %d hex digits", base, digestLen)
	}
	same := map[string]string{
		"other prose":      "I will now change x as asked, carefully.\n\nHere it is:\n\n" + block("f.txt", "x = 1\n", "x = 2\n") + "\nDone.\n",
		"fenced notation":  "Change x.\n\n```\nf.txt\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n",
		"CRLF line breaks": "Change x.\r\n\r\nf.txt\r\n```\r\n<<<<<<< SEARCH\r\nx = 1\r\n=======\r\nx = 2\r\n>>>>>>> REPLACE\r\n```\r\n",
	}
	for name, reply := range same {
		if got := digest(reply); got != base {
			t.Errorf("%s: digest %s, want %s", name, got, base)
		}
	}
	differ := map[string]string{
		"other path":       block("g.txt", "x = 1\n", "x = 2\n"),
		"other search":     block("f.txt", "x = 1 \n", "x = 2\n"),
		"other replace":    block("f.txt", "x = 1\n", "x = 3\n"),
		"edit twice":       block("f.txt", "x = 1\n", "x = 2\n") + "\n" + block("f.txt", "x = 1\n", "x = 2\n"),
		"a unified diff":   "```diff\n--- a/f.txt\n+++ b/f.txt\n@@\n-x = 1\n+x = 2\n```\n",
		"the old left out": block("f.txt", "", "x = 2\n"),
	}
	seen := map[string]string{base: "base"}
	for name, reply := range differ {
		got := digest(reply)
		if other, ok := seen[got]; ok {
			t.Errorf("%s: digest %s, the same as %s's", name, got, other)
		}
		seen[got] = name
	}
}

// TestReplyDigestPinned: the digest is recorded in commits, so the
// bytes it hashes never change, however they are fed to the hash: a
// many-line file and a content longer than any buffer give the digest
// they gave when it was first written.
func TestReplyDigestPinned(t *testing.T) {
	lines := make([]string, 100000)
	for i := range lines {
		lines[i] = strings.Repeat("x", i%97) + "\r"
	}
	ops := []translate.Operation{
		{Kind: translate.Create, Path: "a.txt", LineEdit: translate.LineEdit{New: lines}, FileCreate: translate.FileCreate{Overwrite: true}},
		{Kind: translate.Create, Path: "b.txt", FileCreate: translate.FileCreate{Content: strings.Repeat("0123456789", 20000)}},
		{Kind: translate.Replace, Path: "c.txt", LineEdit: translate.LineEdit{Old: []string{"a"}, New: []string{"b"}}, Placement: translate.Placement{LineHint: -3}},
	}
	if got, want := ReplyDigest(ops), "7f07e952ffdf0f17"; got != want {
		t.Errorf("digest %s, want %s", got, want)
	}
	// Lines about as long as the buffer and longer.
	long := []string{strings.Repeat("y", 64<<10-9), "z", strings.Repeat("y", 64<<10-8), strings.Repeat("w", 64<<10+1) + "\r", "", "\r"}
	ops = []translate.Operation{{Kind: translate.Create, Path: "d.txt", LineEdit: translate.LineEdit{New: long}}}
	if got, want := ReplyDigest(ops), "bd5b5763881ea517"; got != want {
		t.Errorf("digest of long lines %s, want %s", got, want)
	}
}

// BenchmarkReplyDigestWhole: the digest of a reply that writes a file
// of 100,000 lines whole, most of it the hash of the lines.
func BenchmarkReplyDigestWhole(b *testing.B) {
	lines := make([]string, 100000)
	for i := range lines {
		lines[i] = fmt.Sprintf("    total += weight(%d) * %d  # row %d", i, i%97, i)
	}
	ops := []translate.Operation{{Kind: translate.Create, Path: "calc.py", LineEdit: translate.LineEdit{New: lines}, FileCreate: translate.FileCreate{Overwrite: true}}}
	for b.Loop() {
		ReplyDigest(ops)
	}
}
