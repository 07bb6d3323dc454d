package translate

import (
	"regexp"
	"slices"
	"testing"
)

// What the start-marker detectors find (the markers and their near
// misses, see markerAt) as multi-line expressions (lineAt is faster on
// large replies); the fuzz target holds them to the same answers.
var (
	searchMarkerRe = regexp.MustCompile(`(?m)^[ \t\r\f]*<{3,}[ \t]*(?i:search)>*[ \t\r\f]*$`)
	fiupMarkerRe   = regexp.MustCompile(`(?m)^[ \t\r\f]*<+[ \t]*(?i:fiup)[ \t]*>*[ \t\r\f]*$`)
	editMarkerRe   = regexp.MustCompile(`(?m)^[ \t\r\f]*<{3,}[ \t]*(?i:edit)[ \t\r\f]*$`)
)

// FuzzParseAuto reads any reply the way the commands do (auto-detected,
// formats mixed, shell operations on) and checks that it never panics,
// that every operation comes from a format Detect found (or a shell
// block) and names a line of the reply, that a reply with a line
// resembling a marker is never read as whole files, that a reply without error has
// operations, and that the line detectors agree with the expressions
// they replaced. The seeds are every format's golden replies and
// prompt example.
func FuzzParseAuto(f *testing.F) {
	for _, name := range FormatNames() {
		addSeedFiles(f, goldenReplies(name))
		if example, err := exampleOf(name); err == nil {
			f.Add(example)
		}
	}
	f.Add("a.txt\n```\n  <<<<<<< SEARCH>\t\n=======\nx\n>>>>>>> REPLACE\n```\n")
	f.Add("\n\n <<<fiup>>> \n[FILE]: a\n<<<END>>>\n<<<<<<< EDIT\r\n")
	for _, c := range nearMissCases() {
		f.Add(c.reply)
	}
	f.Fuzz(func(t *testing.T, reply string) {
		for _, d := range []struct {
			name   string
			detect func(string) int
			re     *regexp.Regexp
		}{
			{"search", lineAt(resembles(mkSearch)), searchMarkerRe},
			{"fiup", lineAt(resembles(mkFiupStart)), fiupMarkerRe},
			{"edit", lineAt(resembles(mkEditStart)), editMarkerRe},
		} {
			if got, want := d.detect(reply) >= 0, d.re.MatchString(reply); got != want {
				t.Fatalf("%s marker: lineAt says %v, the expression %v", d.name, got, want)
			}
		}
		sameMarkScans(t, reply)
		names := Detect(reply)
		if !slices.Equal(names, Detect(reply)) {
			t.Fatal("Detect is not deterministic")
		}
		r, err := Parse(reply, ParseOptions{Format: "auto", ShellOps: true})
		if err == nil && (r == nil || len(r.Ops) == 0) {
			t.Fatalf("no error and no operation: %+v", r)
		}
		if r == nil {
			return
		}
		lines := splitLines(reply)
		// A reply holding anything like a marker is never whole files.
		if line, text, _ := firstMarker(reply); line > 0 && slices.Contains(names, FormatWhole) {
			t.Fatalf("read as whole files though line %d is %q", line, text)
		}
		for _, op := range r.Ops {
			// An apply_patch tool call's operations keep apply-patch's tolerance.
			viaToolCall := op.Format == FormatApplyPatch && slices.Contains(names, FormatToolCalls)
			if op.Format != "shell" && !slices.Contains(names, op.Format) && !(op.Format == FormatDiffFenced && slices.Contains(names, FormatDiff)) && !viaToolCall {
				t.Fatalf("operation of format %q from a reply detected as %q", op.Format, names)
			}
			inReply(t, lines, "operation", op.Line)
		}
	})
}
