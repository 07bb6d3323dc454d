package message

import (
	"regexp"
	"strings"
	"testing"
)

func TestBranchSlug(t *testing.T) {
	tests := []struct {
		subject string
		paths   []string
		want    string
	}{
		{"Use math.factorial instead!", nil, "use-math-factorial-instead"},
		{"Import sys.", nil, "import-sys"},
		{"I'll add a --timeout flag to the fetch command.", nil, "add-timeout-flag-to-fetch"},
		{"I will rename the Load function to Read", nil, "rename-load-function-to-read"},
		{"Let's cache the parsed configuration in memory", nil, "cache-parsed-configuration-in-memory"},
		{"Here's a fix for the off-by-one in the pager", nil, "fix-for-off-by-one-in-pager"},
		{"Sure, I'll update the README.", nil, "update-readme"},
		{"Okay, now we need to handle empty input", nil, "handle-empty-input"},
		{"To fix the crash, we need to check for nil first", nil, "fix-crash-check-for-nil"},
		{"We need to update the version string", nil, "update-version-string"},
		{"I\u2019ll modify the get_counts_for_file function to skip blanks", nil, "modify-get-counts-for-file-function"},
		{"I'll update the models.py file to use the constants", nil, "update-models-py-file-to-use"},
		{"I'll modify the calculate_and_show_tokens_and_cost method", nil, "modify-calculate-and-show-tokens"},
		{"I understand that you want the colours off in pipes", nil, "colours-off-in-pipes"},
		{"Voici la traduction en français", nil, "voici-la-traduction-en-francais"},
		{"Straße über Café", nil, "strasse-uber-cafe"},
		{"Add tests for the parser and", nil, "add-tests-for-parser"},
		{"Don't retry on 404", nil, "dont-retry-on-404"},
		{"Fix it.\n\nA body that says more.", nil, "fix-it"},
		{"\x1b[2J\x00Fix\u009b\xff it\x07", nil, "2j-fix-it"},
		{"Sure!", []string{"src/app.py"}, "edit-app-py"},
		{"", []string{"src/app.py", "lib/util.go", "src/app.py"}, "edit-app-py-util-go"},
		{"", nil, "edit"},
		{"", []string{"docs/HISTORY.md"}, "edit-history-md"},
		{"¿Qué?", nil, "que"},
		{strings.Repeat("Supercalifragilistic", 4), nil, "supercalifragilisticsupercalifragilistic"},
	}
	valid := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, tt := range tests {
		got := BranchSlug(tt.subject, tt.paths)
		if got != tt.want {
			t.Errorf("BranchSlug(%q, %q) = %q, want %q", tt.subject, tt.paths, got, tt.want)
		}
		if !valid.MatchString(got) || len(got) > maxBranchSlug {
			t.Errorf("BranchSlug(%q) = %q: not letters, digits and single dashes within %d bytes", tt.subject, got, maxBranchSlug)
		}
	}
}
