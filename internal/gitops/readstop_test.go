package gitops

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/poll"
)

// Reading a file and the clean conversion's pass over it look at the
// context every poll.Step bytes (SPEC section 2): ended, they return
// its error; live, they give what os.ReadFile and textStats give.
func TestReadsStopWithTheirContext(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, 100, poll.Step, 3*poll.Step + 5} {
		p := filepath.Join(t.TempDir(), "f")
		want := bytes.Repeat([]byte("a\r\n"), size/3+1)[:size]
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readFileContext(context.Background(), p)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("size %d: readFileContext = %d bytes, %v", size, len(got), err)
		}
		if st, err := textStatsContext(context.Background(), want); err != nil || st != textStats(want) {
			t.Errorf("size %d: textStatsContext = %+v, %v", size, st, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if size > poll.Step {
			if _, err := readFileContext(ctx, p); !errors.Is(err, context.Canceled) {
				t.Errorf("size %d, ended: readFileContext: %v", size, err)
			}
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			data := make([]byte, size)
			if err := readHalves(ctx, f, data); !errors.Is(err, context.Canceled) || bytes.Count(data, []byte{0}) != size {
				t.Errorf("size %d, ended: readHalves read %d bytes, %v", size, size-bytes.Count(data, []byte{0}), err)
			}
			f.Close()
		}
		if size > 0 {
			if _, err := textStatsContext(ctx, want); !errors.Is(err, context.Canceled) {
				t.Errorf("size %d, ended: textStatsContext: %v", size, err)
			}
		}
	}
}
