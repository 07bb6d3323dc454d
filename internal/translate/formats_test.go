package translate

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// Each format's smallest block, for detection tests.
var (
	srSample    = "app.py\n```python\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n```\n"
	fiupSample  = "<<<FIUP>>>\n[FILE]: app.py\n[OP]: REPLACE\n[ANCHOR]\nx = 1\n[CONTENT]\nx = 2\n<<<END>>>\n"
	chunkSample = "operations:\n  - path: app.py\n    op: replace_text\n    marker: |-\n      x = 1\n    payload: |-\n      x = 2\n"
	editSample  = "app.py\n<<<<<<< EDIT\n-------\nx = 1\n=======\nx = 2\n-------\n>>>>>>>\n"
	udxSample   = "<FILE_CHANGES>\n<FILE_PATCH file_path=\"app.py\">\n@@\n-x = 1\n+x = 2\n</FILE_PATCH>\n</FILE_CHANGES>\n"
)

func TestDetect(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"nothing", "Just prose, no edit.\n", nil},
		{"search/replace", srSample, []string{"diff"}},
		{"fiup", fiupSample, []string{"fiup"}},
		{"chunk", chunkSample, []string{"chunk"}},
		{"edit-v2", editSample, []string{"edit-v2"}},
		{"udiffx", udxSample, []string{"udiffx"}},
		{"mixed, in reply order", fiupSample + "\nand\n\n" + srSample + "\n" + udxSample, []string{"fiup", "diff", "udiffx"}},
		{"mixed, CRLF keeps the order", strings.ReplaceAll(srSample+"\n"+udxSample+"\n"+fiupSample, "\n", "\r\n"), []string{"diff", "udiffx", "fiup"}},
		{"an envelope named in prose starts nothing", "I could use a <FILE_CHANGES> envelope, but:\n\n" + srSample, []string{"diff"}},
		{"an envelope quoted as code starts nothing", "Not a `<FILE_CHANGES>` reply.\n\n" + editSample, []string{"edit-v2"}},
		{"inline envelope with directives", "Here: <FILE_CHANGES><FILE_DELETE file_path=\"a\" /></FILE_CHANGES>\n", []string{"udiffx"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Detect(c.text); !reflect.DeepEqual(got, c.want) && (len(got) != 0 || len(c.want) != 0) {
				t.Errorf("Detect = %v, want %v", got, c.want)
			}
		})
	}
}

func TestParseMixedReply(t *testing.T) {
	r, err := Parse("Two formats.\n\n"+fiupSample+"\n"+srSample, ParseOptions{Format: "auto"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Format != "fiup+diff" || len(r.Ops) != 2 || r.Ops[0].Format != "fiup" || r.Ops[1].Format != "diff" || r.Ops[0].Line > r.Ops[1].Line {
		t.Fatalf("format %q, ops %+v", r.Format, r.Ops)
	}
	if _, err := Parse("Nothing here.\n", ParseOptions{Format: "auto"}); !errors.Is(err, ErrNoEdits) {
		t.Fatalf("no edits: %v", err)
	}
	if _, err := Parse(srSample, ParseOptions{Format: "nope"}); !errors.Is(err, ErrUnknownFormat) {
		t.Fatalf("unknown format: %v", err)
	}
}
