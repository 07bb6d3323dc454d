package translate

import (
	"testing"
)

// BenchmarkParse reads every golden reply of each format, one
// sub-benchmark per format (benchstat-friendly: go test -bench Parse
// -count 10 | benchstat -).
func BenchmarkParse(b *testing.B) {
	for _, name := range FormatNames() {
		var replies []string
		size := 0
		for _, f := range readFiles(b, goldenReplies(name)) {
			replies = append(replies, f.text)
			size += len(f.text)
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
