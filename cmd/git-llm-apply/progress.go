package main

// Progress on long runs, as git's progress.c shows it: after a delay,
// "Applying replies:  37% (185/500)" rewritten in place with \r, a few
// times a second at most, and the last line kept, ending ", done.".

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
)

const (
	// fewReplies: a run of more replies shows progress at once, as
	// git's start_progress; a shorter one only once it has taken
	// progressDelay, as start_delayed_progress.
	fewReplies    = 5
	progressDelay = time.Second
	// redrawEvery throttles the line, as git's one-second timer does
	// (faster here: a reply takes milliseconds).
	redrawEvery = 200 * time.Millisecond
)

// progressTitles names what each command does to the replies.
var progressTitles = map[string]string{
	"apply":     "Applying replies",
	"check":     "Checking replies",
	"translate": "Translating replies",
	"replay":    "Replaying turns",
}

// meter draws a run's progress on standard error. Nothing else writes
// there while the run goes on but replay's turns, each part of its
// report written after clear (the next update draws the line again);
// stop ends the line before the rest of the report.
type meter struct {
	w       io.Writer // standard error itself: the line is ours, with no reply text
	title   string
	total   int
	visible bool
	delay   time.Duration
	start   time.Time
	last    time.Time // when the line was last drawn
	counts  string    // what it last said
	shown   bool      // a line stands on the screen, the cursor at its start
	started bool      // a line was drawn
	n       int       // replies done
	test    func(int, engine.Phase)
	now     func() time.Time // time.Now; tests set the clock
}

// newMeter makes the meter of a run of o's command over total inputs
// (-1: not known beforehand, as replay's turns are).
// --progress shows it anywhere; else it shows on a terminal, unless
// --no-progress, -q or --json.
func newMeter(s streams, o commonOptions, total int) *meter {
	m := &meter{w: s.rawErr, title: progressTitles[o.Command], total: total, start: time.Now(), delay: progressDelay, now: time.Now}
	switch o.Progress {
	case "always":
		m.visible = true
	case "never":
	default:
		m.visible = !o.Quiet && !o.JSON && isTerminal(s.rawErr)
	}
	if total > fewReplies {
		m.delay = 0
	}
	// git's own variable for its progress delay, in seconds
	if v, err := strconv.ParseUint(os.Getenv("GIT_PROGRESS_DELAY"), 10, 16); err == nil {
		m.delay = time.Duration(v) * time.Second
	}
	m.visible = m.visible && m.title != "" && m.w != nil
	return m
}

// hook is the engine.RunOptions.Progress of the run: nil when there is
// nothing to show.
func (m *meter) hook() func(int, engine.Phase) {
	if !m.visible && m.test == nil {
		return nil
	}
	return m.update
}

// update is called as reply n enters phase p: the replies before it
// are done.
func (m *meter) update(n int, p engine.Phase) {
	if m.test != nil {
		m.clear()
		m.test(n, p)
	}
	m.n = n
	if !m.visible {
		return
	}
	now := m.now()
	if now.Sub(m.start) < m.delay || m.shown && now.Sub(m.last) < redrawEvery {
		return
	}
	m.draw("\r")
}

// draw writes the line, ending with eol, over the one shown: spaces
// blank what a shorter line would leave of it, as git writes them.
func (m *meter) draw(eol string) {
	counts := fmt.Sprintf("%3d%% (%d/%d)", m.n*100/max(m.total, 1), m.n, m.total)
	if m.total < 0 {
		counts = strconv.Itoa(m.n) // a total not known: a count, as git shows one
	}
	if m.shown && counts == m.counts && eol == "\r" {
		return
	}
	pad := ""
	if len(counts) < len(m.counts) {
		pad = strings.Repeat(" ", len(m.counts)-len(counts))
	}
	io.WriteString(m.w, m.title+": "+counts+pad+eol)
	m.counts, m.shown, m.started, m.last = counts, eol == "\r", true, m.now()
}

// clear blanks the line shown, if any, leaving the cursor at its start.
func (m *meter) clear() {
	if !m.shown {
		return
	}
	io.WriteString(m.w, "\r"+strings.Repeat(" ", len(m.title)+2+len(m.counts))+"\r")
	m.shown, m.counts = false, ""
}

// stop ends the progress before the report: a run that went through
// every reply keeps its last line, "..., done."; one an interrupt or an
// error stopped leaves no line behind (the report says how far it got).
// A run that never showed a line prints none.
func (m *meter) stop(done bool) {
	if !m.started {
		return
	}
	if !done {
		m.clear()
		return
	}
	if m.total >= 0 {
		m.n = m.total
	}
	m.draw(", done.\n")
}
