package report

import (
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// TestReplaceReport: the report names a Replace and an Insert by kind,
// quotes the old text's first line, and gives a failure its reply line,
// reason and closest lines.
func TestReplaceReport(t *testing.T) {
	file := "def f(a):\n    return a\n\ndef g(b):\n    return b\n"
	bad := translate.Operation{Kind: translate.Replace, Format: translate.FormatToolCalls, Path: "a.txt", TextEdit: translate.TextEdit{OldText: "def g(b):\n    return  b\n", NewText: "x"}, Line: 1}
	bad.Line = 12
	ops := []translate.Operation{bad, {Kind: translate.Insert, Path: "a.txt", TextEdit: translate.TextEdit{InsertAfter: 1}, LineEdit: translate.LineEdit{New: []string{"# note"}}, Line: 3}}
	res, err := engine.Resolve(newFiles("a.txt", file), ops, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rr := NewReply(&engine.ReplyResult{Source: "r", Format: translate.FormatToolCalls, Outcomes: res.Outcomes}, "", "")
	e := rr.Edits[0]
	if e.Op != "replace" || e.Status != "failed" || e.ReplyLine != 12 || e.Reason == nil || e.Closest == nil {
		t.Fatalf("failed replace reported as %+v", e)
	}
	if !strings.Contains(*e.Reason, `"def g(b):"...`) || e.Closest.Lines != [2]int{4, 5} {
		t.Errorf("reason %q, closest lines %v", *e.Reason, e.Closest.Lines)
	}
	if i := rr.Edits[1]; i.Op != "insert" || i.Status != "applied" || i.Lines == nil || *i.Lines != [2]int{1, 1} {
		t.Errorf("insert reported as %+v", i)
	}
	if x := engine.Excerpt(bad); x != `"def g(b):"...` {
		t.Errorf("Excerpt = %s", x)
	}
}
