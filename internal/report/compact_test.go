package report

import (
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Compact (engine) keeps what a report shows of a reply (its JSON document, the
// names and excerpts of its edits) and drops the texts and contents a
// long replay would otherwise hold for every turn.
func TestCompactKeepsTheReport(t *testing.T) {
	long := strings.Repeat("é", 300) + "\nmore\n"
	big := strings.Repeat("line of the new file\n", 5000)
	big2 := strings.Repeat("line written over a file\n", 5000)
	base := newFiles("a.txt", "one\n"+long+"two\n", "b.txt", "x\ny\n", "old.txt", "was\n")
	ops := []translate.Operation{
		{Kind: translate.Replace, Path: "a.txt", TextEdit: translate.TextEdit{OldText: long, NewText: "short\n"}, Line: 1},
		{Kind: translate.Replace, Path: "a.txt", TextEdit: translate.TextEdit{OldText: "one\n", NewText: "ONE\n"}, Line: 2},
		{Kind: translate.Create, Path: "new.txt", FileCreate: translate.FileCreate{Content: big}, Line: 3},
		{Kind: translate.Create, Path: "old.txt", FileCreate: translate.FileCreate{Content: big2, Overwrite: true}, Line: 3},
		{Kind: translate.Edit, Path: "b.txt", LineEdit: translate.LineEdit{Old: []string{"x"}}, Line: 4},
		{Kind: translate.Edit, Path: "b.txt", LineEdit: translate.LineEdit{Before: []string{"y"}, New: []string{"z", "w"}}, Line: 5},
		{Kind: translate.Replace, Path: "b.txt", TextEdit: translate.TextEdit{OldText: "nothing\n", NewText: "else"}, Line: 6},
	}
	out, err := engine.Run(context.Background(), []engine.Input{{Source: "r", Reply: &translate.Reply{Format: "tool-calls", Ops: ops}}}, base, recorder{}, engine.RunOptions{Partial: true})
	if err != nil {
		t.Fatal(err)
	}
	r := out[0]
	if r.Status != engine.Partial {
		t.Fatalf("status %s, outcomes %+v", r.Status, r.Outcomes)
	}
	report := func() string {
		b, _ := json.Marshal(NewReply(r, "b", ""))
		var names []string
		for _, o := range r.Outcomes {
			names = append(names, engine.OpName(o.Op)+" "+engine.Excerpt(o.Op))
		}
		return string(b) + "\n" + strings.Join(names, "\n")
	}
	before := report()
	r.Compact(true)
	if after := report(); after != before {
		t.Errorf("the report changed:\n%s\nwant\n%s", after, before)
	}
	held := len(r.Patch)
	for _, c := range r.Changes {
		held += len(c.Old) + len(c.New)
	}
	for _, o := range r.Outcomes {
		if o.Status != engine.Failed {
			held += len(o.Op.Content) + len(o.Op.OldText) + len(o.Op.NewText) + len(strings.Join(o.Op.New, ""))
		}
	}
	if held > 1000 {
		t.Errorf("compacted, the result still holds %d bytes of texts and contents", held)
	}
	// Nothing kept may point into the reply's texts: one line of them
	// would keep the whole of each alive.
	inside := func(s, in string) bool {
		if s == "" {
			return false
		}
		p, b := uintptr(unsafe.Pointer(unsafe.StringData(s))), uintptr(unsafe.Pointer(unsafe.StringData(in)))
		return p >= b && p < b+uintptr(len(in))
	}
	for _, o := range r.Outcomes[:6] {
		for _, s := range append(append([]string{o.Op.OldText}, o.Op.Old...), o.Op.New...) {
			if inside(s, big) || inside(s, big2) || inside(s, long) {
				t.Errorf("edit %d keeps a piece of the reply's text %q", o.N, s)
			}
		}
	}
	if o := r.Outcomes[6]; o.Status != engine.Failed || o.Op.OldText != "nothing\n" || o.Op.NewText != "else" {
		t.Errorf("a failed edit lost its texts: %+v", o.Op)
	}
}

// memFiles is a base holding regular files, path and content in turn.
type memFiles map[string]string

func newFiles(kv ...string) memFiles {
	m := memFiles{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func (m memFiles) Lookup(p string) (engine.Entry, error) {
	d, ok := m[p]
	if !ok {
		return engine.Entry{}, engine.ErrNotExist
	}
	return engine.Entry{Mode: patch.ModeRegular, ID: patch.BlobID([]byte(d))}, nil
}

func (m memFiles) Read(p string) ([]byte, error) {
	d, ok := m[p]
	if !ok {
		return nil, engine.ErrNotExist
	}
	return []byte(d), nil
}

func (m memFiles) Paths() ([]string, error) {
	return slices.Sorted(maps.Keys(m)), nil
}

// recorder records every commit as "commit".
type recorder struct{}

func (recorder) Record(context.Context, []patch.FileChange, string) (string, error) {
	return "commit", nil
}
