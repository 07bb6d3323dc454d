package translate

import "testing"

// chunkContract is what readChunk promises for any reply.
var chunkContract = readerContract{
	parse:       readChunk,
	formats:     []string{FormatChunk},
	pathBreaks:  "\r\n",
	parseErrors: true,
}

// FuzzParseChunk checks that no reply makes the CHUNK reader panic,
// that every line it names lies within the reply, and that operations
// are well formed. The golden cases' replies are the seeds.
func FuzzParseChunk(f *testing.F) {
	addSeedFiles(f, goldenReplies(FormatChunk))
	f.Add("operations:\n  - path: a\n    op: replace_text\n    marker: x\n    payload: y\n")
	f.Add("```yaml\noperations:\n- {path: a, op: delete_file}\n```\n")
	f.Add("operations:\n  - path: &a x\n    op: *a\n")
	f.Add("```\noperations: [\n")
	f.Fuzz(func(t *testing.T, reply string) {
		_, r, _ := chunkContract.check(t, reply)
		for _, op := range r.Ops {
			switch op.Kind {
			case Create:
				if !op.Overwrite {
					t.Fatalf("create without overwrite: %+v", op)
				}
			case Delete:
			case Edit:
				if op.Where == AtAnchor && blank(op.Old) && blank(op.Before) && blank(op.After) {
					t.Fatalf("edit with nothing to find: %+v", op)
				}
				if op.Where != AtAnchor && len(op.Before)+len(op.Old)+len(op.After) > 0 {
					t.Fatalf("edit at an edge with lines to find: %+v", op)
				}
			default:
				t.Fatalf("operation kind %v", op.Kind)
			}
		}
	})
}
