package gitops

import (
	"slices"
	"testing"
)

// TestTrailerValues: a reply digest is read from the message's last
// paragraph only, where git reads trailers; a body line that looks like
// one is prose.
func TestTrailerValues(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, message string
		want          []string
	}{
		{"trailers", "Fix it.\n\nLLM-Edit-Format: diff\nLLM-Reply: 0123456789abcdef\n", []string{"0123456789abcdef"}},
		{"after the session", "S\n\nB\n\nLLM-Edit-Format: diff\nLLM-Session: a#1\nLLM-Reply: ab\n", []string{"ab"}},
		{"in the body only", "Fix it.\n\nLLM-Reply: 0123456789abcdef\nsaid the model.\n\nLLM-Edit-Format: diff\n", nil},
		{"none", "Fix it.\n", nil},
		{"empty value", "Fix it.\n\nLLM-Reply:   \n", nil},
	}
	for _, tc := range tests {
		if got := trailerValues(trailerLines(tc.message), "LLM-Reply"); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
