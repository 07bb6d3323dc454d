package engine

import "testing"

// isDotGit follows git's verify_path with core.protectNTFS and
// core.protectHFS on, and lets through the names that only look alike.
func TestIsDotGit(t *testing.T) {
	for _, tt := range []struct {
		name string
		want bool
	}{
		{".git", true}, {".GIT", true}, {".Git", true},
		{"git~1", true}, {"GIT~1", true}, {"Git~1", true},
		{".git.", true}, {".git ", true}, {".git. . ", true}, {"git~1.", true}, {"git~1 ", true},
		{".git::$INDEX_ALLOCATION", true}, {".git:x", true}, {".git:", true}, {"git~1:stream", true}, {".git .:x", true},
		{".\u200cgit", true}, {".g\u200dit", true}, {".gi\u200et", true}, {".git\u200f", true},
		{"\u202a.git", true}, {".g\u202bit", true}, {".g\u202cit", true}, {".g\u202dit", true}, {".g\u202eit", true},
		{".g\u206ait", true}, {".g\u206bit", true}, {".g\u206cit", true}, {".g\u206dit", true}, {".g\u206eit", true}, {".g\u206fit", true},
		{"\ufeff.git", true}, {".G\ufeffIT", true}, {".\u200c\u200dgit\ufeff", true},

		{".gitignore", false}, {".gitmodules", false}, {".gitattributes", false}, {".github", false},
		{".git.bak", false}, {".git x", false}, {".gitx", false}, {"git", false}, {"git~2", false}, {"git~10", false},
		{"git~1x", false}, {"xgit~1", false}, {"a.git", false}, {"..git", false}, {".g it", false},
		{".g\u200bit", false}, // a zero-width space is not on HFS+'s list
		{".g\xffit", false}, {".git\xff", false},
		{"", false}, {".", false}, {".gi", false},
	} {
		if got := isDotGit(tt.name); got != tt.want {
			t.Errorf("isDotGit(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}
