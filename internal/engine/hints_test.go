package engine

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// readCounter counts every use of a Source.
type readCounter struct {
	memSource
	used int
}

func (c *readCounter) Lookup(p string) (Entry, error) { c.used++; return c.memSource.Lookup(p) }
func (c *readCounter) Read(p string) ([]byte, error)  { c.used++; return c.memSource.Read(p) }
func (c *readCounter) Paths() ([]string, error)       { c.used++; return c.memSource.Paths() }

func srReply(blocks ...[3]string) string {
	s := "Change it.\n\n"
	for _, b := range blocks {
		s += b[0] + "\n```\n<<<<<<< SEARCH\n" + b[1] + "=======\n" + b[2] + ">>>>>>> REPLACE\n```\n"
	}
	return s
}

// A failed edit is tried against the other base, and its outcome says
// what it does there; only when it resolves there, or when only there
// is its file. Nothing else of the result changes.
func TestElsewhere(t *testing.T) {
	const app = "def main():\n    return 1\n"
	tests := []struct {
		name        string
		base, other memSource
		reply       string
		want        []string // per edit: the Elsewhere as %v, "" for none
	}{
		{"matches the other base", files("a.py", app), files("a.py", "def main():\n    return 10\n"),
			srReply([3]string{"a.py", "    return 10\n", "    return 20\n"}), []string{"&{worktree applied false}"}},
		{"already applied there", files("a.py", app), files("a.py", "def main():\n    return 10\n"),
			srReply([3]string{"a.py", "def main():\n    pass\n", "def main():\n    return 10\n"}), []string{"&{worktree already-applied false}"}},
		{"matches neither", files("a.py", app), files("a.py", "def main():\n    return 10\n"),
			srReply([3]string{"a.py", "    return 7\n", "    return 20\n"}), []string{""}},
		{"same in both", files("a.py", app), files("a.py", app),
			srReply([3]string{"a.py", "    return 7\n", "    return 20\n"}), []string{""}},
		{"resolves here: not looked at", files("a.py", app), files("a.py", "x\n"),
			srReply([3]string{"a.py", "    return 1\n", "    return 2\n"}), []string{""}},
		{"file only there, edit matches", files("a.py", app), files("a.py", app, "n.py", "a = 1\n"),
			srReply([3]string{"n.py", "a = 1\n", "a = 2\n"}), []string{"&{worktree applied true}"}},
		{"file only there, edit matches neither", files("a.py", app), files("a.py", app, "n.py", "a = 1\n"),
			srReply([3]string{"n.py", "a = 5\n", "a = 2\n"}), []string{"&{worktree failed true}"}},
		{"file in neither", files("a.py", app), files("a.py", app),
			srReply([3]string{"n.py", "a = 5\n", "a = 2\n"}), []string{""}},
		{"created here, edited there", files("a.py", app), files("a.py", app, "n.py", "a = 1\n"),
			srReply([3]string{"n.py", "", "b = 2\n"}, [3]string{"n.py", "a = 1\n", "a = 3\n"}), []string{"", "&{worktree applied true}"}},
		{"a good edit beside a failed one", files("a.py", app), files("a.py", "def main():\n    return 10\n"),
			srReply([3]string{"a.py", "def main():\n", "def main(): # x\n"}, [3]string{"a.py", "    return 10\n", "    return 20\n"}), []string{"", "&{worktree applied false}"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := []Input{{Source: "r.md", Text: tc.reply}}
			other := &readCounter{memSource: tc.other}
			got, err := Run(context.Background(), in, tc.base, nil, RunOptions{Format: "auto", Partial: true, Other: other, OtherName: "worktree"})
			if err != nil {
				t.Fatal(err)
			}
			plain, err := Run(context.Background(), in, tc.base, nil, RunOptions{Format: "auto", Partial: true})
			if err != nil {
				t.Fatal(err)
			}
			r := got[0]
			if r.Err != nil || len(r.Outcomes) != len(tc.want) {
				t.Fatalf("%v, %d outcomes", r.Err, len(r.Outcomes))
			}
			failed := false
			for i, o := range r.Outcomes {
				s := ""
				if o.Err != nil && o.Err.Elsewhere != nil {
					s = fmt.Sprint(o.Err.Elsewhere)
				}
				if s != tc.want[i] {
					t.Errorf("edit %d: elsewhere %q, want %q", i+1, s, tc.want[i])
				}
				failed = failed || o.Status == Failed
			}
			if !failed && other.used > 0 {
				t.Errorf("a reply whose edits all resolved used the other base %d times", other.used)
			}
			if r.Status != plain[0].Status || !reflect.DeepEqual(r.Changes, plain[0].Changes) || string(r.Patch) != string(plain[0].Patch) {
				t.Errorf("the other base changed the result: %s %v, without it %s %v", r.Status, r.Changes, plain[0].Status, plain[0].Changes)
			}
		})
	}
}

// The other base sees the replies before, as the base does: an edit of
// what an earlier reply wrote is judged on that.
func TestElsewhereFollowsEarlierReplies(t *testing.T) {
	base := files("a.py", "one\n")
	other := files("a.py", "one\ntwo\n")
	in := []Input{
		{Source: "1.md", Text: srReply([3]string{"a.py", "one\n", "ONE\n"})},
		{Source: "2.md", Text: srReply([3]string{"a.py", "one\ntwo\n", "X\n"})},
	}
	out, err := Run(context.Background(), in, base, nil, RunOptions{Format: "auto", Other: other, OtherName: "worktree"})
	if err != nil {
		t.Fatal(err)
	}
	// The first reply's change stands in both: the working tree's
	// "one" is gone from what the second reply is resolved against.
	if o := out[1].Outcomes[0]; o.Status != Failed || o.Err.Elsewhere != nil {
		t.Errorf("second reply: %s, elsewhere %v", o.Status, o.Err.Elsewhere)
	}
}

// withIDs is a memSource whose entries carry their blob ids, as the
// index's do.
type withIDs struct{ memSource }

func (s withIDs) Lookup(p string) (Entry, error) {
	e, err := s.memSource.Lookup(p)
	if err == nil {
		data, _ := s.memSource.Read(p)
		e.ID = patch.BlobID(data)
	}
	return e, err
}

// The other base is resolved again only when it holds one of the
// reply's files otherwise than the base: a working tree that is the
// index would repeat every failure, at the cost of resolving twice.
func TestElsewhereOnlyWhenFilesDiffer(t *testing.T) {
	const app = "def main():\n    return 1\n"
	edit := translate.Operation{Kind: translate.Edit, Path: "a.py", LineEdit: translate.LineEdit{Old: lines("    return 7\n"), New: lines("    return 2\n")}}
	rename := translate.Operation{Kind: translate.Rename, Path: "a.py", FileOp: translate.FileOp{NewPath: "b.py"}}
	create := translate.Operation{Kind: translate.Edit, Path: "n.py", LineEdit: translate.LineEdit{New: lines("x\n")}}
	tests := []struct {
		name        string
		base, other Source
		ops         []translate.Operation
		same        bool
	}{
		{"the same file", files("a.py", app), files("a.py", app), []translate.Operation{edit}, true},
		{"the same file, the base knowing its id", withIDs{files("a.py", app)}, files("a.py", app), []translate.Operation{edit}, true},
		{"another content", files("a.py", app), files("a.py", app+"\n"), []translate.Operation{edit}, false},
		{"another content, the base knowing its id", withIDs{files("a.py", app)}, files("a.py", "x\n"), []translate.Operation{edit}, false},
		{"only in the other", files("b.py", app), files("a.py", app, "b.py", app), []translate.Operation{edit}, false},
		{"in neither", files("b.py", app), files("b.py", app), []translate.Operation{create}, false},
		{"a rename's target differs", files("a.py", app, "b.py", "1\n"), files("a.py", app, "b.py", "2\n"), []translate.Operation{rename}, false},
		{"a rename's target is the same", files("a.py", app, "b.py", "1\n"), files("a.py", app, "b.py", "1\n"), []translate.Operation{rename}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			outs := make([]Outcome, len(tc.ops))
			for i, op := range tc.ops {
				outs[i] = Outcome{N: i + 1, Op: op, Path: op.Path}
			}
			if got := sameFiles(context.Background(), tc.base, tc.other, tc.ops, outs, Limits{}); got != tc.same {
				t.Errorf("sameFiles = %v, want %v", got, tc.same)
			}
		})
	}
}

// sized is a Source that knows its files' sizes without a Read (an
// engine.Sizer, as the index and the working tree are) and counts the
// reads made of it.
type sized struct {
	Source
	reads *int
}

func (s sized) Size(p string) (int64, bool, error) {
	data, err := s.Source.Read(p)
	return int64(len(data)), err == nil, nil
}

func (s sized) Read(p string) ([]byte, error) {
	*s.reads++
	return s.Source.Read(p)
}

func (s sized) ReadContext(ctx context.Context, p string) ([]byte, error) { return s.Read(p) }

// Sizes known without reading settle sameFiles first: files of two
// sizes differ, and a file over --max-file-size is not alike, both
// unread (SPEC section 5); of files of one size under the limit, the
// other's is read and hashed to the base's blob id.
func TestSameFilesBySizeFirst(t *testing.T) {
	const app = "def main():\n    return 1\n"
	edit := translate.Operation{Kind: translate.Edit, Path: "a.py", LineEdit: translate.LineEdit{Old: lines("    return 7\n"), New: lines("    return 2\n")}}
	tests := []struct {
		name        string
		base, other string
		limit       int64
		same        bool
		reads       int
	}{
		{"two sizes", app, app + "\n", 0, false, 0},
		{"one size, over the limit", app, app, 10, false, 0},
		{"one size, under the limit, alike", app, app, 1 << 20, true, 1},
		{"one size, other content", app, strings.Replace(app, "1", "2", 1), 0, false, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reads := 0
			base, other := sized{files("a.py", tc.base), &reads}, sized{files("a.py", tc.other), &reads}
			outs := []Outcome{{N: 1, Op: edit, Path: edit.Path}}
			if got := sameFiles(context.Background(), base, other, []translate.Operation{edit}, outs, Limits{FileSize: tc.limit}); got != tc.same {
				t.Errorf("sameFiles = %v, want %v", got, tc.same)
			}
			if reads != tc.reads {
				t.Errorf("%d reads, want %d", reads, tc.reads)
			}
		})
	}
}
