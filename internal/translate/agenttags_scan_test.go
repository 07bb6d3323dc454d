package translate

import (
	"strings"
	"testing"
)

// TestHasAgentCall: a call opens only where a line's first byte past
// spaces and tabs starts a tool's opening tag; a '<' later in a line,
// a closing tag or another tag leaves the line out, and the lines
// after such a line are still looked at.
func TestHasAgentCall(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"", false},
		{"no tags at all\n", false},
		{"<replace_in_file>\n", true},
		{" \t<write_to_file>\n", true},
		{"<write_to_file>", true},
		{"see <replace_in_file> here\n", false},
		{"a < b\n<replace_in_file>\n", true},
		{"a < b <replace_in_file>\n  <apply_diff>  \r\n", true},
		{"</replace_in_file>\n", false},
		{"<div>\n<p>\n", false},
		{"x\n\t<<replace_in_file>\n", false},
		{"x <y\n", false},
		{"<", false},
		{strings.Repeat("text < more\n", 1000) + "  <apply_diff>\n", true},
	} {
		if got := hasAgentCall(tc.text); got != tc.want {
			t.Errorf("hasAgentCall(%.60q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}
