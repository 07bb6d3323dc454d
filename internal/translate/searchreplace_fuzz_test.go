package translate

import (
	"errors"
	"path/filepath"
	"testing"

	"golang.org/x/tools/txtar"
)

// searchReplaceContract is what readSearchReplace promises for any
// reply.
var searchReplaceContract = readerContract{
	parse:             readSearchReplace,
	formats:           []string{FormatDiff, FormatDiffFenced},
	unnamedOps:        true,
	pathBreaks:        "\r\n",
	parseErrors:       true,
	emptyWithoutError: true,
}

// FuzzParseSearchReplace checks that no reply makes the reader panic,
// that every line it names lies within the reply, and that operations
// are well formed. The golden cases' replies are the seeds.
func FuzzParseSearchReplace(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(searchReplaceCases, "*.txtar"))
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if reply, ok := goldenReply(a); ok {
			f.Add(reply)
		}
	}
	f.Add("a.py\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE")
	f.Add("<<<<<<< SEARCH\n")
	f.Add("```bash\n")
	f.Add("a.py\n```\nx\n=======\ny\n>>>>>>> REPLACE\n<<<<<<< SEARCH\nz\n=======\n>>>>>>> REPLACE\n```\n")
	f.Add("```\r\nb/c\r\n=======\r\n>>>>>>>REPLACE\r\n```")
	f.Fuzz(func(t *testing.T, reply string) {
		lines, r, err := searchReplaceContract.check(t, reply)
		for _, op := range r.Ops {
			if op.Kind != Edit && op.Kind != Create || (op.Kind == Create) != op.Append {
				t.Fatalf("operation %+v", op)
			}
			if op.Kind == Edit && blank(op.Old) {
				t.Fatalf("edit without SEARCH lines: %+v", op)
			}
		}
		sp, _ := splitSearchReplace(reply)
		for _, b := range sp.Blocks {
			inReply(t, lines, "block", b.Line)
			inReply(t, lines, "block end", b.End)
			if b.NameLine != 0 {
				inReply(t, lines, "file name", b.NameLine)
			}
		}
		var pe *ParseError
		if errors.As(err, &pe) {
			inReply(t, lines, "stop", sp.Stop)
		}
	})
}
