package patch

import (
	"strings"
	"testing"
)

// TestPatchOptionsUnique checks that the index line and ShortID take
// the length Unique gives (git lengthening an ambiguous prefix), only
// when it is a prefix of the id at least Abbrev long, and that binary
// sections keep full ids.
func TestPatchOptionsUnique(t *testing.T) {
	text := []FileChange{{OldPath: "f", NewPath: "f", Old: []byte("a\n"), New: []byte("b\n")}}
	bin := []FileChange{{OldPath: "f", NewPath: "f", Old: []byte("a\x00"), New: []byte("b\x00")}}
	oldID, newID := BlobID([]byte("a\n")), BlobID([]byte("b\n"))
	longer := func(id string, n int) string { return id[:n+2] }
	for _, c := range []struct {
		name    string
		changes []FileChange
		opts    Options
		want    string
	}{
		{"default", text, Options{}, "index " + oldID[:7] + ".." + newID[:7] + " 100644\n"},
		{"abbrev 9", text, Options{Abbrev: 9}, "index " + oldID[:9] + ".." + newID[:9] + " 100644\n"},
		{"lengthened", text, Options{Abbrev: 9, Unique: longer}, "index " + oldID[:11] + ".." + newID[:11] + " 100644\n"},
		{"only the old id lengthened", text, Options{Abbrev: 8, Unique: func(id string, n int) string {
			if id == oldID {
				return id[:n+1]
			}
			return id[:n]
		}}, "index " + oldID[:9] + ".." + newID[:8] + " 100644\n"},
		{"shorter ignored", text, Options{Abbrev: 9, Unique: func(id string, n int) string { return id[:n-1] }}, "index " + oldID[:9] + ".." + newID[:9] + " 100644\n"},
		{"not a prefix ignored", text, Options{Abbrev: 9, Unique: func(string, int) string { return "0123456789" }}, "index " + oldID[:9] + ".." + newID[:9] + " 100644\n"},
		{"binary stays full", bin, Options{Abbrev: 9, Unique: longer}, "index " + BlobID([]byte("a\x00")) + ".." + BlobID([]byte("b\x00")) + " 100644\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			diff, err := Format(c.changes, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(diff), "\n"+c.want) {
				t.Errorf("patch:\n%s\nwant the line %q", diff, c.want)
			}
			if err := Verify(diff, c.changes); err != nil {
				t.Errorf("Verify: %v", err)
			}
		})
	}
	if got := (Options{Abbrev: 9, Unique: longer}).ShortID(oldID); got != oldID[:11] {
		t.Errorf("ShortID = %s, want %s", got, oldID[:11])
	}
	if got := (Options{}).ShortID(oldID); got != oldID[:7] {
		t.Errorf("ShortID with defaults = %s, want %s", got, oldID[:7])
	}
	if got := (Options{}).ShortID(""); got != "" {
		t.Errorf("ShortID of no commit = %q", got)
	}
}
