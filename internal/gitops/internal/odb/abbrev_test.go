package odb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// TestLooseShared: the digits an id shares with the other names of its
// fanout directory, read as git reads them (either case), passing over
// what is no object's name (a temporary file, a name of another
// length) and the id's own file.
func TestLooseShared(t *testing.T) {
	t.Parallel()
	const id = "ab0123456789abcdef0123456789abcdef012345"
	tests := []struct {
		name  string
		files []string // in objects/ab
		want  int
	}{
		{"empty", nil, 0},
		{"itself only", []string{id[2:]}, 0},
		{"shares 5", []string{id[2:], "012f" + strings.Repeat("0", 34)}, 5},
		{"the longest of several", []string{"0" + strings.Repeat("f", 37), "0123456" + strings.Repeat("f", 31), "01234" + strings.Repeat("f", 33)}, 9},
		{"upper case", []string{"0123456789ABCDEF0" + strings.Repeat("f", 21)}, 19},
		{"the same name in upper case", []string{strings.ToUpper(id[2:])}, 40},
		{"differs in the last digit", []string{id[2:39] + "6"}, 39},
		{"temporary files", []string{"tmp_obj_0123456789abcdef0123456789ab", "0123456789abcdef0123456789abcdef01234g", "0123456789abcdef"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			fan := filepath.Join(dir, "ab")
			if err := os.Mkdir(fan, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range tc.files {
				if err := os.WriteFile(filepath.Join(fan, f), nil, 0o444); err != nil {
					t.Fatal(err)
				}
			}
			if got := looseShared(dir, oid.FromHex(id)); got != tc.want {
				t.Errorf("looseShared = %d, want %d", got, tc.want)
			}
		})
	}
}
