package engine

import (
	"errors"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestAddedLinesAtTheEnd: an edit of added lines only that goes at the
// end (a hunk without context) is placed there unless its line number
// puts it above the end, is noted in the report for the unified-diff
// formats, and is found done when the file already ends with it.
func TestAddedLinesAtTheEnd(t *testing.T) {
	atEnd := func(format string, hint int, add ...string) translate.Operation {
		return translate.Operation{Kind: translate.Edit, Format: format, Path: "a.txt", LineEdit: translate.LineEdit{New: add}, Placement: translate.Placement{
			Where:    translate.AtEnd,
			LineHint: hint,
			Group:    1,
			Ordered:  format != "chunk",
		}}
	}
	tests := []struct {
		name, file string
		op         translate.Operation
		status     Status
		want       string // the file after ("" when unchanged)
		noted      bool
	}{
		{"udiff, no number", "a\nb\n", atEnd("udiff", 0, "c"), Applied, "a\nb\nc\n", true},
		{"udiffx, an empty file", "", atEnd("udiffx", 0, "c", "d"), Applied, "c\nd\n", true},
		{"udiff, no final newline", "a\nb", atEnd("udiff", 0, "c"), Applied, "a\nb\nc\n", true},
		{"udiff, numbered at the end", "a\nb\nc\nd\n", atEnd("udiff", 4, "e"), Applied, "a\nb\nc\nd\ne\n", true},
		{"udiff, numbered past blank lines at the end", "a\nb\n\n", atEnd("udiff", 2, "c"), Applied, "a\nb\n\nc\n", true},
		{"udiff, numbered above the end", "a\nb\nc\nd\n", atEnd("udiff", 2, "x"), Failed, "", false},
		{"apply-patch, numbered above the end", "a\nb\nc\nd\n", atEnd("apply-patch", 1, "x"), Failed, "", false},
		{"apply-patch, no number: its prompt promises the end", "a\n", atEnd("apply-patch", 0, "b"), Applied, "a\nb\n", false},
		{"chunk's append", "a\n", atEnd("chunk", 0, "b"), Applied, "a\nb\n", false},
		{"already at the end", "a\nb\nc\n", atEnd("udiffx", 0, "c"), AlreadyApplied, "", false},
		{"already at the end, as numbered", "a\nb\nc\n", atEnd("udiff", 2, "c"), AlreadyApplied, "", false},
		// Numbered at the file's end as it stands: the lines go after it,
		// even when the last line reads the same.
		{"numbered at the end, the last line alike", "a\nb\n}\n", atEnd("udiff", 3, "}"), Applied, "a\nb\n}\n}\n", true},
		{"numbered at the end, then run again", "a\nb\n}\n}\n", atEnd("udiff", 3, "}"), AlreadyApplied, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Resolve(files("a.txt", tc.file), []translate.Operation{tc.op}, Options{Format: tc.op.Format})
			if err != nil {
				t.Fatal(err)
			}
			o := res.Outcomes[0]
			if o.Status != tc.status {
				t.Fatalf("status %s, want %s (%v)", o.Status, tc.status, o.Err)
			}
			if o.Status == Failed && !errors.Is(o.Err, ErrNoAnchor) {
				t.Errorf("error %v, want ErrNoAnchor", o.Err)
			}
			got := ""
			if len(res.Changes) > 0 {
				got = string(res.Changes[0].New)
			}
			if got != tc.want {
				t.Errorf("file %q, want %q", got, tc.want)
			}
			if noted := len(o.Warnings) > 0; noted != tc.noted {
				t.Errorf("warnings %q, want a note: %v", o.Warnings, tc.noted)
			}
		})
	}
}
