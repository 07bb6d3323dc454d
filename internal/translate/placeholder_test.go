package translate

import (
	"strings"
	"testing"
)

func TestIsPlaceholder(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		// What models write instead of code.
		{"// ... existing code ...", true},
		{"    // ...existing code...", true},
		{"\t# ... rest of code ...", true},
		{"# rest of the file unchanged", true},
		{"// Rest of the code remains the same.", true},
		{"// rest of file", true},
		{"// existing code here", true},
		{"// Keep existing code", true},
		{"# existing imports", true},
		{"// remaining methods unchanged", true},
		{"// other functions remain the same", true},
		{"// ... other methods", true},
		{"// ... (rest of the function remains the same)", true},
		{"// your code here...", true},
		{"// ...", true},
		{"//...", true},
		{"#   ...", true},
		{"// …", true},
		{"// [...]", true},
		{"/* ... */", true},
		{"/*...*/", true},
		{"{/* ... existing JSX ... */}", true},
		{"<!-- ... existing content ... -->", true},
		{"-- ... existing columns ...", true},
		{"; ... rest of the code ...", true},
		{" * ... other fields ...", true},
		{"/// ... existing methods ...", true},
		{"//! ... unchanged ...", true},
		{"# ... handle errors ...", true}, // prose wrapped in ellipses
		{"// ... omitted for brevity ...", true},
		{"// ... 'existing' code ...", true},
		{"...", true},
		{"  …  ", true},
		{"// ... existing code ...\r", true},

		// Comments of real code.
		{"", false},
		{"//", false},
		{"// TODO", false},
		{"// the value is unchanged if err is nil", false},
		{"## Other functions", false},
		{"# Other settings", false},
		{"# the remaining functions", false},
		{"# And the rest", false},
		{"# The rest", false},
		{"# Rest of the file is generated", false},
		{"// Original file unchanged.", false},
		{"// line unchanged", false},
		{"// Remainder.", false},
		{"// same", false},
		{"// truncated", false},
		{"// Omit test files.", false},
		{"// Rest of the setup.", false},
		{"/// This is a helper function...", false},
		{"// fields...", false},
		{"// or...", false},
		{"# Test with ...", false},
		{"# In... functions", false},
		{`// "~" ...`, false},
		{"# ...=...", false},
		{"# '{...} or ${...}", false},
		{"//..............................................", false},
		{"// x := f(a, b, ...)", false},
		{"#!/bin/sh", false},
		{"#include <stdio.h>", false},
		{"---", false},
		{"x := 1 // ... existing code ...", false},
		{"return x", false},
		{"// ... existing code ... and then a very long sentence that goes on and on", false},
		{"# ... existing Código ...", true},
		{"# código existente", false},
	}
	for _, tt := range tests {
		if got := IsPlaceholder(tt.line); got != tt.want {
			t.Errorf("IsPlaceholder(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestPlaceholderKind pins which placeholders FindDebris reports
// wherever they stand (strong), which only when no comment line is
// next to them (weak), and which never (loose).
func TestPlaceholderKind(t *testing.T) {
	tests := []struct {
		line string
		want placeholderKind
	}{
		{"// ... existing code ...", strongPlaceholder},
		{"# ... rest unchanged ...", strongPlaceholder},
		{"// ... body of loop ...", weakPlaceholder},
		{"// ...", weakPlaceholder},
		{"// existing code", weakPlaceholder},
		{"# rest of code ...", weakPlaceholder},
		{"# ... but not again ...", loosePlaceholder},
		{"// ... except unsafe.Pointer...", loosePlaceholder},
		{"// an existing statement.", notPlaceholder},
		{"x = 1", notPlaceholder},
	}
	for _, tt := range tests {
		if _, got := classifyPlaceholder(tt.line); got != tt.want {
			t.Errorf("classifyPlaceholder(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
}

// TestIsElision: where an edit removes lines, a comment whose words say
// the code is kept elsewhere is an elision, shorter or plainer ones
// than IsPlaceholder takes included; a sentence is not.
func TestIsElision(t *testing.T) {
	tests := []struct {
		line string
		want bool
	}{
		// The shapes of issue 12.
		{"// keep the rest as is", true},
		{"// (unchanged)", true},
		{"// [unchanged]", true},
		{"// TODO: rest", true},
		{"// etc.", true},
		// Their kin, in other comment syntaxes.
		{"# same as before", true},
		{"    # Rest unchanged", true},
		{"/* unchanged */", true},
		{"<!-- rest of the page unchanged -->", true},
		{"-- etc", true},
		{"; keep existing", true},
		{"// no changes here", true},
		{"// Original file unchanged.", true},
		{"# The rest", true},
		{"// other methods", true},
		{"// code omitted", true},
		{"// (rest omitted for brevity)", true},
		{"// TODO rest of the function", true},
		{"// … unchanged", true},
		// Everything IsPlaceholder takes.
		{"// ... existing code ...", true},
		{"# rest of the file unchanged", true},
		{"...", true},
		// The markers of lazy edits: Windsurf's edit_file, Continue's
		// apply, Cursor's without spaces.
		{"{{ ... }}", true},
		{"  {{...}}", true},
		{"// UNCHANGED CODE", true},
		{"# UNCHANGED CODE", true},
		{"// ...existing code...", true},
		{"{/* ... existing code ... */}", true},

		// Comments of real code, even where code goes.
		{"{{ .Name }}", false},
		{"{{ ... }} and more", false},
		{"", false},
		{"//", false},
		{"// TODO", false},
		{"// TODO: implement", false},
		{"// the value is unchanged if err is nil", false},
		{"# Other settings", false},
		{"// Helper functions", false},
		{"// Omit test files.", false},
		{"// keep in sync with parser.go", false},
		{"// x = rest", false},
		{"// see the rest of the docs at https://example.com", false},
		{"// rest of the code remains the same as it was in the version before this one", false},
		{"# código existente", false},
		{"rest unchanged", false}, // no comment
		{"x := 1 // unchanged", false},
	}
	for _, tt := range tests {
		if got := IsElision(tt.line); got != tt.want {
			t.Errorf("IsElision(%q) = %v, want %v", tt.line, got, tt.want)
		}
	}
	// The first byte mayElide looks at: every line the full test takes
	// passes it, Unicode spaces before it too.
	for _, tt := range tests {
		for _, pre := range []string{"", " \t", "\u00a0", "\u3000", "\u0085", "\v"} {
			if l := pre + tt.line; elision(strings.TrimSpace(l)) && !mayElide(l) {
				t.Errorf("mayElide(%q) is false, but the line is an elision", l)
			}
		}
	}
}

// FuzzMayElide: mayElide never turns away a line the full test takes.
func FuzzMayElide(f *testing.F) {
	for _, l := range []string{"// ... existing code ...", "\u00a0# rest", "{{ ... }}", "…", "x := 1"} {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, l string) {
		if elision(strings.TrimSpace(l)) && !mayElide(l) {
			t.Fatalf("mayElide(%q) is false, but the line is an elision", l)
		}
	})
}
