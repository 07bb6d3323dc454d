package translate

import (
	"errors"
	"strings"
	"testing"
)

// editV2Contract is what readEditV2 promises for any reply.
var editV2Contract = readerContract{
	parse:       readEditV2,
	formats:     []string{FormatEditV2},
	pathBreaks:  "\r\n",
	parseErrors: true,
}

// FuzzParseEditV2 checks that no reply makes the reader panic, that
// every line it names lies within the reply (an operation's on its
// "<<<<<<< EDIT" line, an error's there or on a stray ">>>>>>>"), that operations are well formed, and that the
// operations written back as blocks read the same. The golden cases'
// replies and the prompt's example are the seeds.
func FuzzParseEditV2(f *testing.F) {
	addSeedFiles(f, goldenReplies(FormatEditV2))
	if example, err := exampleOf(FormatEditV2); err == nil {
		f.Add(example)
	}
	f.Add("a.py\n<<<<<<< EDIT\nx\n-------\ny\n=======\nz\n-------\nw\n>>>>>>>\n")
	f.Add("```\na.py\n<<<<<<< EDIT\n-------\n=======\nnew\n-------\n>>>>>>>\n```\n")
	f.Add("a.py\n```bash\n<<<<<<< EDIT\n-------\n")
	f.Add("<<<<<<< EDIT\n")
	f.Fuzz(func(t *testing.T, reply string) {
		lines, r, err := editV2Contract.check(t, reply)
		var pe *ParseError
		if errors.As(err, &pe) && ev2StartOf(lines[pe.Line-1]).kind != mkEditStart && !ev2Is(lines[pe.Line-1], ev2End) {
			t.Fatalf("error %+v not on a block start nor a stray end marker", pe)
		}
		prev := 0
		for _, op := range r.Ops {
			if !ev2IsStart(lines[op.Line-1]) || op.Line <= prev {
				t.Fatalf("operation at line %d: %q (previous at %d)", op.Line, lines[op.Line-1], prev)
			}
			prev = op.Line
			switch op.Kind {
			case Edit:
				if len(op.Before)+len(op.Old)+len(op.After) == 0 {
					t.Fatalf("edit with nothing to find: %+v", op)
				}
			case Create:
				if len(op.Before)+len(op.Old)+len(op.After) != 0 || len(op.New) == 0 || op.Append || op.Overwrite {
					t.Fatalf("create %+v", op)
				}
			default:
				t.Fatalf("operation kind %v", op.Kind)
			}
			for _, part := range [][]string{op.Before, op.Old, op.New, op.After} {
				for _, l := range part {
					if ev2Is(l, ev2Sep) || ev2Is(l, ev2Mid) || ev2Is(l, ev2End) || ev2IsStart(l) {
						t.Fatalf("section line %q", l)
					}
				}
			}
		}

		// Written back as blocks, the operations read the same (paths
		// that cleaning would change, and lines ending in "\r", aside).
		if len(r.Ops) == 0 {
			return
		}
		var b strings.Builder
		for _, op := range r.Ops {
			if n, ok := cleanFileName(op.Path); !ok || n != op.Path {
				return
			}
			b.WriteString(op.Path + "\n" + ev2Start + "\n")
			for i, part := range [][]string{op.Before, op.Old, op.New, op.After} {
				for _, l := range part {
					if strings.HasSuffix(l, "\r") {
						return // a "\r" before the line end would be read as CRLF
					}
					b.WriteString(l + "\n")
				}
				b.WriteString([...]string{ev2Sep, ev2Mid, ev2Sep, ev2End}[i] + "\n")
			}
		}
		checkReadsBack(t, readEditV2, r.Ops, b.String())
	})
}
