package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
)

// A line printed while the progress shows clears the progress line
// first, and the progress comes back under it.
func TestMeterClearsForOtherLines(t *testing.T) {
	t.Setenv("GIT_PROGRESS_DELAY", "")
	var b bytes.Buffer
	m := newMeter(streams{rawErr: &b}, commonOptions{Command: "apply", Progress: "always"}, 12)
	m.test = func(n int, p engine.Phase) { fmt.Fprintf(&b, "line %d %s\n", n, p) }
	m.update(0, engine.PhaseParse)
	m.update(1, engine.PhaseParse)
	m.stop(true)
	want := "line 0 parse\nApplying replies:   0% (0/12)\r" +
		"\r" + strings.Repeat(" ", 29) + "\rline 1 parse\nApplying replies:   8% (1/12)\r" +
		"Applying replies: 100% (12/12), done.\n"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
}

// The line is redrawn once redrawEvery has passed, not before; a short
// run shows nothing until the delay has passed; a run that never showed
// a line ends with none, and one stopped clears its line.
func TestMeterThrottleAndDelay(t *testing.T) {
	t.Setenv("GIT_PROGRESS_DELAY", "")
	var b bytes.Buffer
	clock := time.Unix(0, 0)
	m := newMeter(streams{rawErr: &b}, commonOptions{Command: "check", Progress: "always"}, 4)
	m.start, m.now = clock, func() time.Time { return clock }
	m.update(0, engine.PhaseParse)
	clock = clock.Add(progressDelay)
	m.update(1, engine.PhaseParse)
	clock = clock.Add(redrawEvery / 2)
	m.update(2, engine.PhaseParse)
	clock = clock.Add(redrawEvery / 2)
	m.update(3, engine.PhaseParse)
	m.update(3, engine.PhaseResolve)
	m.stop(false)
	want := "Checking replies:  25% (1/4)\rChecking replies:  75% (3/4)\r\r" + strings.Repeat(" ", 28) + "\r"
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	b.Reset()
	m = newMeter(streams{rawErr: &b}, commonOptions{Command: "check"}, 12) // not a terminal
	m.update(0, engine.PhaseParse)
	m.stop(true)
	if b.Len() != 0 || m.hook() != nil {
		t.Errorf("off a terminal: %q", b.String())
	}
}
