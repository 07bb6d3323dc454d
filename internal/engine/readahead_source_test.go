package engine

import (
	"context"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// aheadSource is a memSource that reads ahead (see AheadReader): what
// ReadAhead hands out is ahead[p] when set, its check passing only
// when that is the base's content.
type aheadSource struct {
	memSource
	ahead         map[string]string
	reads, checks int
}

func (s *aheadSource) Read(p string) ([]byte, error) {
	s.reads++
	return s.memSource.Read(p)
}

func (s *aheadSource) ReadAhead(_ context.Context, p string) ([]byte, func() bool, error) {
	data, ok := s.ahead[p]
	if !ok {
		b, err := s.memSource.Read(p)
		return b, nil, err
	}
	return []byte(data), func() bool {
		s.checks++
		return data == s.memSource[p].data
	}, nil
}

// TestResolveReadsAhead: the resolver reads a file ahead, checks it
// before its result is used, and resolves again from Read when the
// check fails, whatever the content read ahead made of the edit (placed
// elsewhere, failed, refused as binary), so that the result is always
// the base's.
func TestResolveReadsAhead(t *testing.T) {
	const base = "a\nb\nc\n"
	edit := translate.Operation{Kind: translate.Edit, Format: "apply-patch", Path: "f.txt", LineEdit: translate.LineEdit{Old: []string{"b"}, New: []string{"B"}}}
	tests := []struct {
		name  string
		ahead string // what ReadAhead hands out
	}{
		{"the base's content", base},
		{"the line elsewhere", "b\na\nc\n"},
		{"the line missing", "a\nx\nc\n"},
		{"binary", "a\x00\nb\nc\n"},
		{"more lines", "a\nb\nc\nb\n"},
	}
	want, err := Resolve(files("f.txt", base), []translate.Operation{edit}, Options{Format: "apply-patch"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := &aheadSource{memSource: files("f.txt", base), ahead: map[string]string{"f.txt": tc.ahead}}
			got, err := Resolve(src, []translate.Operation{edit}, Options{Format: "apply-patch"})
			if err != nil {
				t.Fatal(err)
			}
			if got.Failed() != want.Failed() || len(got.Changes) != 1 || string(got.Changes[0].New) != string(want.Changes[0].New) || string(got.Changes[0].Old) != base {
				t.Fatalf("resolved to %d failed, changes %+v; want the base's result %+v", got.Failed(), got.Changes, want.Changes)
			}
			if src.checks == 0 {
				t.Fatal("the content read ahead was never checked")
			}
			if same := tc.ahead == base; same != (src.reads == 0) {
				t.Fatalf("Read called %d times (the content read ahead is the base's: %v)", src.reads, same)
			}
		})
	}
}

// TestOverlayReadsAhead: an overlay reads ahead from its base, but not
// the files the replies before changed.
func TestOverlayReadsAhead(t *testing.T) {
	src := &aheadSource{memSource: files("a.txt", "a\n", "b.txt", "b\n"), ahead: map[string]string{"a.txt": "a\n", "b.txt": "b\n"}}
	o := newOverlay(src)
	o.apply([]patch.FileChange{{OldPath: "b.txt", NewPath: "b.txt", OldMode: patch.ModeRegular, NewMode: patch.ModeRegular, Old: []byte("b\n"), New: []byte("B\n")}})
	if data, check, err := o.ReadAhead(context.Background(), "a.txt"); err != nil || string(data) != "a\n" || check == nil {
		t.Fatalf("ReadAhead(a.txt) = %q, check %v, %v; want the base's, read ahead", data, check != nil, err)
	}
	if data, check, err := o.ReadAhead(context.Background(), "b.txt"); err != nil || string(data) != "B\n" || check != nil {
		t.Fatalf("ReadAhead(b.txt) = %q, check %v, %v; want the overlay's, nothing to check", data, check != nil, err)
	}
}
