package message

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

func TestCommitMessage(t *testing.T) {
	long := "Replace the hand-written factorial loop with math.factorial, which is faster and handles zero"
	tests := []struct {
		name, override, subject, body string
		edits                         int
		changes                       []string
		want                          string
	}{
		{"subject and body", "", "Fix it.", "Because.", 2, []string{"x/a.go"}, "Fix it.\n\nBecause.\n\nLLM-Edit-Format: diff\n"},
		{"override", "Mine\n\nbody", "Fix it.", "Because.", 2, []string{"x/a.go"}, "Mine\n\nbody\n\nLLM-Edit-Format: diff\n"},
		{"fallback", "", "", "", 2, []string{"x/a.go"}, "Apply 2 edits to a.go\n\nLLM-Edit-Format: diff\n"},
		{"fallback for one edit", "", "", "", 1, []string{"x/a.go"}, "Apply 1 edit to a.go\n\nLLM-Edit-Format: diff\n"},
		{"fallback without files", "", "", "", 1, nil, "Apply 1 edit\n\nLLM-Edit-Format: diff\n"},
		{"fallback naming the files that fit", "", "", "", 9,
			[]string{"internal/config/loader.go", "internal/config/schema.go", "cmd/tool/main.go", "README.md", "docs/usage.md", "Makefile"},
			"Apply 9 edits to loader.go, schema.go, main.go and 3 more files\n\nLLM-Edit-Format: diff\n"},
		{"fallback naming the files that fit, one more", "", "", "", 9,
			[]string{"internal/config/loader.go", "internal/config/schema.go", "cmd/tool/main.go", "docs/a-very-long-usage-guide.md"},
			"Apply 9 edits to loader.go, schema.go, main.go and 1 more file\n\nLLM-Edit-Format: diff\n"},
		{"long subject shortened to a clause, kept whole in the body", "", long, "More.", 2, []string{"x/a.go"},
			"Replace the hand-written factorial loop with math.factorial\n\n" + long + "\n\nMore.\n\nLLM-Edit-Format: diff\n"},
		{"long -m subject shortened the same way", long + "\n\nMine.", "Fix it.", "", 2, []string{"x/a.go"},
			"Replace the hand-written factorial loop with math.factorial\n\n" + long + "\n\nMine.\n\nLLM-Edit-Format: diff\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var changes []patch.FileChange
			for _, p := range tt.changes {
				changes = append(changes, patch.FileChange{OldPath: p, NewPath: p})
			}
			got := Commit(tt.override, tt.subject, tt.body, "diff", changes, tt.edits)
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if s, _, _ := strings.Cut(got, "\n"); len([]rune(s)) > maxSubject || strings.HasSuffix(s, "...") {
				t.Errorf("subject of %d characters, or ending in ...", len([]rune(s)))
			}
		})
	}
}

// TestCommitMessageControlCharacters: what a reply supplies reaches the
// message as valid UTF-8 without NUL or other control characters (C0,
// DEL, C1), keeping the rest of its text; line breaks and tabs stay in
// the body.
func TestCommitMessageControlCharacters(t *testing.T) {
	tests := []struct {
		name, override, subject, body string
		want                          string
	}{
		{"NUL", "", "Fix\x00 it.", "Be\x00cause.", "Fix it.\n\nBecause.\n\nLLM-Edit-Format: diff\n"},
		{"escape sequences", "", "\x1b[2J\x1b]0;owned\x07Fix it.", "a\x1b[31mred\x1b[0m\x08", "[2J]0;ownedFix it.\n\na[31mred[0m\n\nLLM-Edit-Format: diff\n"},
		{"C1 and DEL", "", "Fix\u009b2J\u0085 it\x7f.", "x\u0090y", "Fix2J it.\n\nxy\n\nLLM-Edit-Format: diff\n"},
		{"invalid UTF-8", "", "Fix caf\xe9.", "\xff\xfe body", "Fix caf\uFFFD.\n\n\uFFFD body\n\nLLM-Edit-Format: diff\n"},
		{"line breaks and tabs", "", "Fix\tit\rnow.", "one\r\ntwo\rthree\n\tfour", "Fix it now.\n\none\ntwo\nthree\n\tfour\n\nLLM-Edit-Format: diff\n"},
		{"only controls: the fallback", "", "\x00\x1b\u009b", "\x00", "Apply 2 edits to a.go\n\nLLM-Edit-Format: diff\n"},
		{"override", "Mine\x1b[2J\r\n\r\nbody\x00\xff", "Fix it.", "", "Mine[2J\n\nbody\uFFFD\n\nLLM-Edit-Format: diff\n"},
	}
	changes := []patch.FileChange{{OldPath: "x/a.go", NewPath: "x/a.go"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Commit(tt.override, tt.subject, tt.body, "diff", changes, 2)
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if !utf8.ValidString(got) || strings.ContainsFunc(got, func(r rune) bool {
				return r != '\n' && r != '\t' && (r < ' ' || r >= 0x7f && r <= 0x9f)
			}) {
				t.Errorf("%q holds a control character or invalid UTF-8", got)
			}
		})
	}
}
