package session

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzOpen: any input opens or fails with ErrNotSession, and its turns
// read to the end or to an error, without panic or hang.
func FuzzOpen(f *testing.F) {
	for _, fx := range fixtures {
		if b, err := os.ReadFile(filepath.Join("testdata", fx.file)); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte("#### x  \n> # 1 SEARCH/REPLACE block failed to match!\n## SearchReplaceNoExactMatch: in a\n<<<<<<< SEARCH\n"))
	f.Add([]byte("[{\"role\":\"user\",\"content\":\"x\"},{\"role\":\"assistant\",\"content\":\"a\\n```\\n<<<<<<< SEARCH\\n\"}]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := Open(strings.NewReader(string(b)), "fuzz")
		if err != nil {
			if !errors.Is(err, ErrNotSession) {
				t.Fatalf("Open: %v", err)
			}
			return
		}
		last := -1
		for i := 0; i <= len(b)+1; i++ {
			turn, err := r.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				return
			}
			if turn.N != 0 && turn.N <= last {
				t.Fatalf("turn %d after turn %d", turn.N, last)
			}
			last = turn.N
		}
		t.Fatalf("more turns than bytes")
	})
}
