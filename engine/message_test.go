package engine

import (
	"strings"
	"testing"
)

func TestCommitMessage(t *testing.T) {
	long := strings.Repeat("word ", 20) + "end"
	tests := []struct {
		name, override, subject, body string
		want                          string
	}{
		{"subject and body", "", "Fix it.", "Because.", "Fix it.\n\nBecause.\n\nLLM-Edit-Format: diff\n"},
		{"override", "Mine\n\nbody", "Fix it.", "Because.", "Mine\n\nbody\n\nLLM-Edit-Format: diff\n"},
		{"fallback", "", "", "", "Apply 2 edits to a.go\n\nLLM-Edit-Format: diff\n"},
		{"long subject cut at a word, kept whole in the body", "", long, "",
			strings.TrimSpace(long[:64]) + "...\n\n" + long + "\n\nLLM-Edit-Format: diff\n"},
	}
	changes := []FileChange{{OldPath: "x/a.go", NewPath: "x/a.go"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CommitMessage(tt.override, tt.subject, tt.body, "diff", changes, 2)
			if got != tt.want {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
			if s, _, _ := strings.Cut(got, "\n"); len([]rune(s)) > maxSubject {
				t.Errorf("subject of %d characters", len([]rune(s)))
			}
		})
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{
		"Use math.factorial instead!": "use-math-factorial-instead",
		"":                            "reply",
		"¿Qué?":                       "qu",
		"A very long subject line that goes on and on forever": "a-very-long-subject-line-that-goes-on",
		"--x--": "x",
	} {
		if got := Slug(in); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}
