package translate

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkParseWholeLong: detecting and reading a reply that writes a
// file of 100,000 lines whole (the sweep's whole reply), where the
// reply's reading is the file's size.
func BenchmarkParseWholeLong(b *testing.B) {
	var r strings.Builder
	r.WriteString("Rename some totals.\n\ncalc.py\n```python\n")
	for i := range 100000 {
		if i%1000 == 0 {
			fmt.Fprintf(&r, "def handler_%d(request):\n", i/1000)
			continue
		}
		fmt.Fprintf(&r, "    total += weight(%d) * %d  # row %d\n", i, i%97, i)
	}
	r.WriteString("```\n")
	text := r.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	before := cpuTime()
	for b.Loop() {
		if rep, err := Parse(text, ParseOptions{Format: "auto"}); err != nil || rep.Format != FormatWhole {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
}
