package patch

import (
	"context"
	"errors"
	"testing"
)

// TestPatchStepsStop: Format and Verify stop when their context ends.
func TestPatchStepsStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	changes := []FileChange{{OldPath: "a", NewPath: "a", Old: []byte("a\n"), New: []byte("b\n")}}
	if _, err := FormatContext(ctx, changes, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("FormatContext: %v", err)
	}
	diff, err := Format(changes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := VerifyContext(ctx, diff, changes); !errors.Is(err, context.Canceled) {
		t.Errorf("VerifyContext: %v", err)
	}
}
