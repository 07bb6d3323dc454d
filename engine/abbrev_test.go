package engine

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
		opts    PatchOptions
		want    string
	}{
		{"default", text, PatchOptions{}, "index " + oldID[:7] + ".." + newID[:7] + " 100644\n"},
		{"abbrev 9", text, PatchOptions{Abbrev: 9}, "index " + oldID[:9] + ".." + newID[:9] + " 100644\n"},
		{"lengthened", text, PatchOptions{Abbrev: 9, Unique: longer}, "index " + oldID[:11] + ".." + newID[:11] + " 100644\n"},
		{"only the old id lengthened", text, PatchOptions{Abbrev: 8, Unique: func(id string, n int) string {
			if id == oldID {
				return id[:n+1]
			}
			return id[:n]
		}}, "index " + oldID[:9] + ".." + newID[:8] + " 100644\n"},
		{"shorter ignored", text, PatchOptions{Abbrev: 9, Unique: func(id string, n int) string { return id[:n-1] }}, "index " + oldID[:9] + ".." + newID[:9] + " 100644\n"},
		{"not a prefix ignored", text, PatchOptions{Abbrev: 9, Unique: func(string, int) string { return "0123456789" }}, "index " + oldID[:9] + ".." + newID[:9] + " 100644\n"},
		{"binary stays full", bin, PatchOptions{Abbrev: 9, Unique: longer}, "index " + BlobID([]byte("a\x00")) + ".." + BlobID([]byte("b\x00")) + " 100644\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			patch, err := FormatPatch(c.changes, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(patch), "\n"+c.want) {
				t.Errorf("patch:\n%s\nwant the line %q", patch, c.want)
			}
			if err := VerifyPatch(patch, c.changes); err != nil {
				t.Errorf("VerifyPatch: %v", err)
			}
		})
	}
	if got := (PatchOptions{Abbrev: 9, Unique: longer}).ShortID(oldID); got != oldID[:11] {
		t.Errorf("ShortID = %s, want %s", got, oldID[:11])
	}
	if got := (PatchOptions{}).ShortID(oldID); got != oldID[:7] {
		t.Errorf("ShortID with defaults = %s, want %s", got, oldID[:7])
	}
	if got := (PatchOptions{}).ShortID(""); got != "" {
		t.Errorf("ShortID of no commit = %q", got)
	}
}
