package engine

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// rerunExceptions are the golden replies whose second run does not
// find every edit already applied, and why. A second run that fails
// records nothing, which is safe; one that changes the file again is
// marked "changes".
var rerunExceptions = map[string]string{
	// The already-applied rule: the edit is done only where its lines
	// to find most nearly stand.
	"fiup/replace":          "the new lines share no line with the old ones and calculate_product is more like them: fails naming both places",
	"chunk/comments-python": "the old line is as like the line left above as the one the edit wrote: fails as ambiguous",
	// Left alone (not what already-applied decides).
	"fiup/crlf-reply":                     "a deletion leaves nothing to recognise",
	"fiup/delete":                         "a deletion leaves nothing to recognise",
	"chunk/text-ops":                      "a deletion leaves nothing to recognise",
	"chunk/c-block":                       "a block edit's new block reads as a header the old block's no longer matches",
	"chunk/block-context":                 "the after line named the replaced block's body",
	"chunk/context-indent":                "changes: a later edit inserts between an earlier one's anchor and its lines",
	"udiffx/ordered-hunks":                "the first hunk's lines stand again above the line its number names; the hunks then overlap",
	"udiffx/typographic-comment":          "the comments rung finds the lines again and writes the same comment (nothing changes)",
	"apply-patch/move":                    "the section edits a file it then moves away",
	"apply-patch/bom-move-overwrites":     "the section edits a file it then moves away",
	"tool-calls/insert-top-and-end":       "an insert by line number whose lines the reply's other insert moved down: fails rather than write them twice",
	"tool-calls/replace-all":              "replace_all names no number: with the old text gone, nothing tells a first run from a second",
	"tool-calls/jsonl-mixed":              "a whole-file write that a later edit of the reply changes is written and edited again, to the same end",
	"resolve/first_match_warns":           "changes: SEARCH/REPLACE takes the first match, and the second run the next one",
	"cline/first-match-in-order":          "the first block's line is gone, and the second block's now stands first: fails",
	"tool-calls/cline-native-first-match": "the first block's line is gone, and the second block's now stands first: fails",
	"roo/start-line-picks":                "changes: the old line still stands once, away from its start_line, and Roo Code would change it there too",
	"resolve/sequential_and_suffix":       "changes: the second edit rewrote what the first one wrote, so the first is not found done",
}

// TestGoldenRerun applies every golden reply that records a change a
// second time, to the files the first run left, as re-running a reply
// on its own branch does: each of its edits must be already applied and
// nothing may change (SPEC section 5), except for rerunExceptions.
func TestGoldenRerun(t *testing.T) {
	type rerunCase struct {
		name  string
		reply string
		src   memSource
		opts  RunOptions
	}
	var cases []rerunCase
	for _, format := range goldenFormats {
		for _, file := range formatCases(format) {
			reply, src, opts := loadFormatCase(t, format, file)
			cases = append(cases, rerunCase{format + "/" + strings.TrimSuffix(filepath.Base(file), ".txtar"), reply, src, opts})
		}
	}
	for _, name := range resolveCases() {
		_, reply, src, opts := loadResolveCase(t, name)
		cases = append(cases, rerunCase{"resolve/" + strings.TrimSuffix(filepath.Base(name), ".txtar"), reply, src, opts})
	}
	ran := 0
	for _, c := range cases {
		first, err := Run(context.Background(), []Input{{Source: "reply.md", Text: c.reply}}, c.src, nil, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if r := first[0]; r.Err != nil || r.Failed() || len(r.Changes) == 0 {
			continue // nothing recorded: nothing to run again
		}
		ran++
		again, err := Run(context.Background(), []Input{{Source: "reply.md", Text: c.reply}}, withChanges(c.src, first[0].Changes), nil, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		r := again[0]
		var bad []string
		for _, o := range r.Outcomes {
			if o.Status != AlreadyApplied && o.Status != Skipped { // a snippet is skipped both times
				bad = append(bad, fmt.Sprintf("edit %d: %s %v", o.N, o.Status, o.Err))
			}
		}
		why, known := rerunExceptions[c.name]
		switch {
		case !known && (len(bad) > 0 || len(r.Changes) > 0):
			t.Errorf("%s: second run: %d files changed\n%s", c.name, len(r.Changes), strings.Join(bad, "\n"))
		case known && len(bad) == 0 && len(r.Changes) == 0:
			t.Errorf("%s runs again cleanly now: drop it from rerunExceptions", c.name)
		case known && len(r.Changes) > 0 && !strings.HasPrefix(why, "changes:"):
			t.Errorf("%s: second run changes %d files (%s)", c.name, len(r.Changes), why)
		}
	}
	if ran < 100 {
		t.Errorf("only %d golden replies record a change", ran)
	}
}
