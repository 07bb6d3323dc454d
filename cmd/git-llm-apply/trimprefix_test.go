package main

import (
	"errors"
	"fmt"
	"testing"
)

// TestTrimPkgPrefix: package prefixes go where a message starts, and
// quoted reply text or names keep every byte.
func TestTrimPkgPrefix(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"engine: the file is binary", "the file is binary"},
		{"cannot read session a.jsonl: session: line 3: bad JSON", "cannot read session a.jsonl: line 3: bad JSON"},
		{"engine: gitops: reading the index: broken", "reading the index: broken"},
		{`edit 1 failed: the old text "engine: x" does not stand`, `edit 1 failed: the old text "engine: x" does not stand`},
		{`"a\"b: engine: c" is no file`, `"a\"b: engine: c" is no file`},
		{"no prefix: translate reads", "no prefix: translate reads"},
		{"the path engine: x", "the path engine: x"},
		{"writing the diff: patch: hunk 2 does not apply", "writing the diff: hunk 2 does not apply"},
		{"edit 1: apply_patch: no such file", "edit 1: apply_patch: no such file"},
	}
	for _, c := range cases {
		if got := trimPkgPrefix(errors.New(c.in)); got != c.want {
			t.Errorf("trimPkgPrefix(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	wrapped := fmt.Errorf("writing: %w", errors.New("gitops: disk full"))
	if got := trimPkgPrefix(wrapped); got != "writing: disk full" {
		t.Errorf("wrapped: %q", got)
	}
}
