package translate

import "testing"

// TestProseWhole: which prose lines call the fence below them a file's
// new version, and which merely name the file.
func TestProseWhole(t *testing.T) {
	names := []string{"a.py"}
	for _, tt := range []struct {
		line, want string
	}{
		{"Here's the modified `a.py` file that implements the `accumulate` function:", "a.py"},
		{"Here is a new version of `a.py` for you to consider:", "a.py"},
		{"Here is the updated `a.py`:", "a.py"},
		{"Here’s the complete, updated `a.py`:", "a.py"},
		{"The full content of the `a.py` file:", "a.py"},
		{"The entire code for a.py:", "a.py"},
		{"And here is `a.py`:", "a.py"},
		{"Here's the `a.py` file:", "a.py"},
		{"**Updated a.py**", "a.py"},
		{"in `a.py`:", ""},
		{"Add this to `a.py`:", ""},
		{"Here is the updated code in `a.py`:", ""},
		{"Here's the updated `a.py` function:", ""},
		{"The new version of the parser, which `a.py` imports:", ""},
		{"Run `a.py` like this:", ""},
		{"Here are the changes for `a.py`:", ""},
	} {
		if got := proseWhole(tt.line, names); got != tt.want {
			t.Errorf("%q: %q, want %q", tt.line, got, tt.want)
		}
	}
}
