package translate

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkParse reads every golden reply of each format, one
// sub-benchmark per format (benchstat-friendly: go test -bench Parse
// -count 10 | benchstat -).
func BenchmarkParse(b *testing.B) {
	for _, name := range FormatNames() {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", name, "*", "reply.md"))
		var replies []string
		size := 0
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				b.Fatal(err)
			}
			replies = append(replies, string(data))
			size += len(data)
		}
		if len(replies) == 0 {
			continue
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, r := range replies {
					Parse(r, ParseOptions{Format: name}) //nolint:errcheck // failing replies are part of the set
				}
			}
		})
	}
}
