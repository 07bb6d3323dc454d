package session

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
)

// BenchmarkClaudeRead: a turn of 10,000 Edit calls, each an assistant
// record with its tool_use and a user record with its tool_result, as
// the engine's sweep writes it: the reading alone, edits not applied.
func BenchmarkClaudeRead(b *testing.B) {
	rec := func(kind string, content any) string {
		line, err := json.Marshal(map[string]any{
			"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/home/dev/proj",
			"sessionId": "bench", "version": "1.0.80", "type": kind, "timestamp": "2023-11-14T22:13:20Z",
			"message": map[string]any{"role": kind, "content": content},
		})
		if err != nil {
			b.Fatal(err)
		}
		return string(line) + "\n"
	}
	var log strings.Builder
	log.WriteString(rec("user", "Rename some totals."))
	for k := range 10000 {
		id := fmt.Sprintf("toolu_%06d", k)
		old := fmt.Sprintf("    x_%d = 1\n    total_%d = x_%d + 2\n    y_%d = 3", k, k, k, k)
		log.WriteString(rec("assistant", []any{map[string]any{"type": "tool_use", "id": id, "name": "Edit",
			"input": map[string]any{"file_path": "/home/dev/proj/calc.py", "old_string": old, "new_string": strings.Replace(old, "total", "sum", 1)}}}))
		log.WriteString(rec("user", []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "The file /home/dev/proj/calc.py has been updated."}}))
	}
	src := log.String()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	before := cpuTime()
	for b.Loop() {
		r, err := Open(strings.NewReader(src), "bench.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		t, err := r.Next()
		if err != nil || t.Reply == nil || len(t.Reply.Ops) != 10000 {
			b.Fatalf("%v %+v", err, t)
		}
		if _, err := r.Next(); err != io.EOF {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
}
