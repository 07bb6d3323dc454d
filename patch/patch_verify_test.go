package patch

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// Verification applies each hunk to its own lines and compares the
// stretches between hunks as bytes: a patch that leaves out a hunk,
// or names the wrong lines for one, must still fail, wherever the
// difference lies (before the first hunk, between two, after the last,
// and past the blocks skipLines counts at once).
func TestVerifyRegionsCatchMissingHunks(t *testing.T) {
	old := ptNumbered("line ", 1, 20000)
	edited := ptEdit(ptEdit(ptEdit(old, 5, "five"), 9000, "nine thousand"), 19990, "almost the end")
	changes := ptMod("f.txt", old, edited)
	patch, err := Format(changes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(patch, changes); err != nil {
		t.Fatalf("Verify(good patch) = %v", err)
	}
	var hunks []string
	starts := regexp.MustCompile(`(?m)^@@ `).FindAllStringIndex(string(patch), -1)
	for i, s := range starts {
		end := len(patch)
		if i+1 < len(starts) {
			end = starts[i+1][0]
		}
		hunks = append(hunks, string(patch[s[0]:end]))
	}
	if len(hunks) != 3 {
		t.Fatalf("want 3 hunks, got %d:\n%s", len(hunks), patch)
	}
	for i, h := range hunks {
		bad := strings.Replace(string(patch), h, "", 1)
		if err := Verify([]byte(bad), changes); !errors.Is(err, ErrMismatch) {
			t.Errorf("without hunk %d: Verify = %v, want ErrMismatch", i+1, err)
		}
	}
	// The last hunk moved one line down: its lines no longer match.
	moved := strings.Replace(string(patch), "@@ -19987,7 +19987,7 @@", "@@ -19988,7 +19988,7 @@", 1)
	if moved == string(patch) {
		t.Fatalf("no hunk header to move in:\n%s", patch)
	}
	if err := Verify([]byte(moved), changes); !errors.Is(err, ErrMismatch) {
		t.Errorf("moved hunk: Verify = %v, want ErrMismatch", err)
	}
	// A hunk past the end of the file.
	past := strings.Replace(string(patch), "@@ -19987,7 +19987,7 @@", "@@ -29987,7 +29987,7 @@", 1)
	if err := Verify([]byte(past), changes); !errors.Is(err, ErrMismatch) {
		t.Errorf("hunk past the end: Verify = %v, want ErrMismatch", err)
	}
}

func TestSkipLines(t *testing.T) {
	long := strings.Repeat("x\n", 70000) + "tail"
	for _, tc := range []struct {
		b      string
		at     int
		n      int64
		want   int
		wantOK bool
	}{
		{"", 0, 0, 0, true},
		{"", 0, 1, 0, false},
		{"a\nb\n", 0, 1, 2, true},
		{"a\nb\n", 0, 2, 4, true},
		{"a\nb\n", 0, 3, 4, false},
		{"a\nb", 0, 2, 3, true},
		{"a\nb", 2, 1, 3, true},
		{"a\nb", 0, 3, 3, false},
		{long, 0, 70000, 140000, true},
		{long, 1, 70000, 140000, true},
		{long, 0, 70001, len(long), true},
		{long, 0, 70002, len(long), false},
		{long, 6, 65536, 6 + 2*65536, true},
	} {
		got, ok := skipLines([]byte(tc.b), tc.at, tc.n)
		if got != tc.want || ok != tc.wantOK {
			t.Errorf("skipLines(%.10q…, %d, %d) = %d, %v; want %d, %v", tc.b, tc.at, tc.n, got, ok, tc.want, tc.wantOK)
		}
	}
}
