package translate

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// lineAt is the scan markIndex.lineAt stands for: the offset of the
// first line that, without the white space around it, passes is.
func lineAt(is func(trimmed string) bool) func(string) int {
	return func(text string) int {
		for at := 0; at < len(text); {
			end := strings.IndexByte(text[at:], '\n')
			if end < 0 {
				end = len(text) - at
			}
			if is(strings.Trim(text[at:at+end], " \t\r\f")) {
				return at
			}
			at += end + 1
		}
		return -1
	}
}

// applyPatchScan is applyPatchAt as it read every line.
func applyPatchScan(text string) int {
	return lineAtSpace(func(t string) bool { m, _ := apMarker(t); return m == apMarkBegin })(text)
}

// lineAtSpace is lineAt with strings.TrimSpace.
func lineAtSpace(is func(trimmed string) bool) func(string) int {
	return func(text string) int {
		for at := 0; at < len(text); {
			end := strings.IndexByte(text[at:], '\n')
			if end < 0 {
				end = len(text) - at
			}
			if is(strings.TrimSpace(text[at : at+end])) {
				return at
			}
			at += end + 1
		}
		return -1
	}
}

// udiffAtSubstrings is udiffAt as it tested the reply before scanning
// it: for any of the substrings.
func udiffAtSubstrings(text string) int {
	if !strings.Contains(text, "diff --git ") && !strings.Contains(text, "+++ ") && !strings.Contains(text, "@@") {
		return -1
	}
	return udiffFirstAt(text)
}

// chunkAtSubstring is chunkAt as it tested the reply for the word.
func chunkAtSubstring(text string) int {
	if !detectChunk(text) {
		return -1
	}
	return max(0, strings.Index(text, "operations:"))
}

// sameMarkScans checks that the index finds, for text, what the scans
// of every line find.
func sameMarkScans(t *testing.T, text string) {
	t.Helper()
	tests := map[string]func(string) bool{
		"search":  resembles(mkSearch),
		"replace": resembles(mkReplace),
		"fiup":    resembles(mkFiupStart),
		"edit":    resembles(mkEditStart),
		"udx far": func(t string) bool { return udxMarkerOf(t).fit == fitFar },
		"any":     func(t string) bool { return markerAt(t).kind != noMarker },
	}
	for name, is := range tests {
		if got, want := newMarkIndex(text).lineAt(is), lineAt(is)(text); got != want {
			t.Errorf("%q: %s: the index says %d, every line %d", text, name, got, want)
		}
	}
	if got, want := applyPatchAt(text), applyPatchScan(text); got != want {
		t.Errorf("%q: apply-patch: the index says %d, every line %d", text, got, want)
	}
	if got, want := chunkAt(newMarkIndex(text)), chunkAtSubstring(text); got != want {
		t.Errorf("%q: chunkAt = %d, with the word's test %d", text, got, want)
	}
	if got, want := udiffAt(text), udiffAtSubstrings(text); got != want {
		t.Errorf("%q: udiffAt = %d, with the substrings' test %d", text, got, want)
	}
	for _, l := range strings.Split(text, "\n") {
		for _, c := range []byte("`~") {
			if strings.HasPrefix(strings.TrimSpace(l), string(c)) && !mayStartWithByte(firstByte(l), c) {
				t.Errorf("%q: mayStartWithByte %q is false", l, c)
			}
		}
	}
	for _, keys := range [][]string{callKeys, editKeys, {`"a`, `"ab`}, {"x"}} {
		want := false
		for _, k := range keys {
			want = want || strings.Contains(text, k)
		}
		if got := containsAny(text, keys); got != want {
			t.Errorf("%q: containsAny(%q) = %v, want %v", text, keys, got, want)
		}
	}
	if x := newMarkIndex(text); !slices.Equal(x.lineSplit(), splitLines(text)) {
		t.Errorf("%q: the index's lines are not splitLines'", text)
	}
	for _, first := range []bool{true, false} {
		x := newMarkIndex(text)
		got, want := scanWholeLines(text, x.lineSplit(), x.firstBytes(), first), scanWhole(text, first)
		got.starts = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: whole's scan with the index's first bytes differs: %+v, want %+v", text, got, want)
		}
	}
	type found struct {
		n int
		t string
		m markerLike
	}
	var got, want []found
	newMarkIndex(text).markerLines(func(n int, t string, m markerLike) bool { got = append(got, found{n, t, m}); return true })
	markerLines(text, func(n int, t string, m markerLike) bool { want = append(want, found{n, t, m}); return true })
	if len(got) != len(want) {
		t.Fatalf("%q: the index finds %d marker lines, every line %d", text, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%q: marker line %d: the index says %+v, every line %+v", text, i, got[i], want[i])
		}
	}
}

// TestMarkIndex: the lines the index leaves out are lines no marker
// test takes, however the line is indented (Unicode spaces included,
// which strings.TrimSpace takes off and the other trims keep).
func TestMarkIndex(t *testing.T) {
	for _, text := range []string{
		"",
		"a.py\n```python\nx = 1\n```\n",
		"<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n",
		"  \t<<<<<<< SEARCH\r\nx\r\n\f>>>>>>> REPLACE",
		"\v<<<<<<< SEARCH\n\v*** Begin Patch\n",
		"\u00a0*** Begin Patch\n\u0085*** Begin Patch\n\u2003<<<<<<< SEARCH\n",
		"x\n *** Begin Patch\n*** Update File: a\n*** End Patch\n",
		"<<<FIUP>>>\n<<<END>>>\n<<<<<<< EDIT\n<FILE-CHANGES>\n<FILE_CHANGES>\n",
		"------- SEARCH\n+++++++ REPLACE\n<replace_in_file>\n</apply_diff>\n",
		"no newline at the end <<<<<<< SEARCH",
		"a\r\r\n<<<<<<< SEARCH\r\r\n\r\n*** Begin Patch\r",
		"\r\n\r<<<<<<< SEARCH\n\r\r",
		"\n\n\n>>>>>>> REPLACE\n\n",
		"\u00a0```\n \t~~~ x\n\u2003```\n",
		`{"tool": "x", "new_string": "y"}`,
		`"na "nam "name`,
		"```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\n",
		"  ```\n  diff --git a/x b/x\n  @@ -1 +1 @@\n  -a\n  +b\n  ```\n",
		"x\n\tdiff --git a/x b/x\n\t+++ b/x\n\t@@\n",
		"```diff\n@@ -1 +1 @@\n-a\n+b\n```\n",
		"x\ndiff --git a/x b/x\n",
		"```yaml\ndescription: x\noperations:\n  - path: a\n```\n",
		"description: x\noperations :\n  - path: a\n",
		"the operations: list\n  operations:\n",
		"a.md\n  ```markdown\n  x\n    <<<<<<< SEARCH\n  ```\n",
		"a.diff\n```\n--- a\n+++ b\n\t@@\n  @@ -1 +1 @@\n```\n",
		"a.py\n  ```\n  --- a\n  +++ b\n  @@ -1 +1 @@\n  -x\n  +y\n  ```\n",
		"a.md\n````\n```python\nx\n```\n````\n",
		"diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
		// Marker lines on either side of the 64-line steps of the
		// index's bits.
		strings.Repeat("code\n", 63) + "<<<<<<< SEARCH\n-a\n" + strings.Repeat("y\n", 62) + ">>>>>>> REPLACE\n*** Begin Patch\n" +
			strings.Repeat("z\n", 200) + "operations:\n  - path: a\n+++ b/x\n@@ -1 +1 @@\n<<<FIUP>>>",
	} {
		sameMarkScans(t, text)
	}
}
