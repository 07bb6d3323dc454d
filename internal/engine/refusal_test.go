package engine

import (
	"errors"
	"fmt"
	"testing"
)

// One list decides: an error of finding an edit's file that is one of
// refusals fails that edit, as its kind; any other is the base's and
// stops the run.
func TestRefusalsFailTheEditOthersStopTheRun(t *testing.T) {
	r := newResolver(files("a.txt", "a\n"), Options{})
	for _, k := range refusals {
		o := &Outcome{N: 1}
		if !r.failWith(o, fmt.Errorf("%w: %q goes through .git", k, "x")) || o.Status != Failed || !errors.Is(o.Err, k) {
			t.Errorf("%v: outcome %+v, want the edit failed as %v", k, o, k)
		}
	}
	o := &Outcome{N: 1}
	if r.failWith(o, errors.New("reading the index: input/output error")) || o.Status != "" || o.Err != nil {
		t.Errorf("a base that cannot be read failed the edit (%+v) instead of stopping the run", o)
	}
}
