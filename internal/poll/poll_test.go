package poll

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Report, called at once after the watched context ends, waits for
// Watch's note: the process that is interrupted reports on its way out,
// before the AfterFunc goroutine may have run (a CI failure that said
// "the hook saw no signal").
func TestReportWaitsForTheStop(t *testing.T) {
	hookFile := filepath.Join(t.TempDir(), "poll")
	t.Setenv(hookEnv, hookFile)
	// The package's state is a process's: as a new one (-count).
	processed.Store(0)
	atStop.Store(-1)
	looks.Store(0)
	noted = make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	Watch(ctx)
	if err := Check(ctx, Step); err != nil {
		t.Fatal(err)
	}
	cancel()
	if err := Check(ctx, Step); err == nil {
		t.Fatal("Check after the stop: nil")
	}
	Report()
	data, err := os.ReadFile(hookFile)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.TrimSpace(string(data)), "processed 4194304 at-stop 4194304 looks 2"; got != want {
		t.Errorf("hook: %q, want %q", got, want)
	}
}
