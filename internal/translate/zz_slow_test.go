package translate

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestZZSlowUdiff(t *testing.T) {
	dir := os.Getenv("ZZDIR")
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		data, _ := os.ReadFile(f)
		lines := strings.SplitN(string(data), "\n", 3)
		if len(lines) < 2 {
			continue
		}
		s, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "string("), ")"))
		if err != nil {
			continue
		}
		start := time.Now()
		readUdiff(s)
		udiffAt(s)
		if d := time.Since(start); d > 50*time.Millisecond {
			t.Logf("%s: %v len %d", filepath.Base(f), d, len(s))
		}
	}
}
