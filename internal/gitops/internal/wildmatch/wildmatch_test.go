package wildmatch

import "testing"

func TestWildmatch(t *testing.T) {
	tests := []struct {
		pattern, text string
		fold, want    bool
	}{
		{"/home/u/work/**", "/home/u/work/repo/.git", false, true},
		{"/home/u/work/**", "/home/u/other/repo/.git", false, false},
		{"**/repo/.git", "/home/u/work/repo/.git", false, true},
		{"**/.git", "/a/.git", false, true},
		{"/a/*/.git", "/a/b/.git", false, true},
		{"/a/*/.git", "/a/b/c/.git", false, false},
		{"/a/**/.git", "/a/.git", false, true},
		{"/a/**/.git", "/a/b/c/.git", false, true},
		{"/a/b?/.git", "/a/bc/.git", false, true},
		{"/a/b?/.git", "/a/b/.git", false, false},
		{"/a/[bc]x/**", "/a/cx/.git", false, true},
		{"/a/[!bc]x/**", "/a/cx/.git", false, false},
		{"/a/[a-c]x/**", "/a/bx/.git", false, true},
		{"/A/B/**", "/a/b/.git", true, true},
		{"/A/B/**", "/a/b/.git", false, false},
		{"main", "main", false, true},
		{"ma*", "main", false, true},
		{"feature/**", "feature/x/y", false, true},
		{"feature/*", "feature/x/y", false, false},
		{`a\*b`, "a*b", false, true},
		{`a\*b`, "axb", false, false},
		{"a[b", "a[b", false, true},
	}
	for _, tc := range tests {
		if got := Match(tc.pattern, tc.text, tc.fold); got != tc.want {
			t.Errorf("Match(%q, %q, fold=%v) = %v, want %v", tc.pattern, tc.text, tc.fold, got, tc.want)
		}
	}
}
