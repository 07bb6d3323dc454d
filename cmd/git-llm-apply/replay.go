package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/report"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
	"github.com/git-llm-apply/git-llm-apply/internal/translate/session"
)

// noEdits is the status of a turn that edited nothing: no commit, no
// failure. Only -v and --json show it.
const noEdits engine.ReplyStatus = "no-edits"

func replayCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "replay",
		Usage:     "record each turn of agent session logs as one commit on a branch",
		ArgsUsage: "SESSION ...",
		Description: `Reads whole agent sessions and records one commit per turn (a user's
request and everything the agent did up to the next request) that changed
files, in order, on one branch, as apply records replies. SESSION is a
session log, its kind found from its content (aider's .aider.chat.history.md,
Claude Code's session JSONL, a Codex CLI rollout JSONL, Gemini CLI's
--output-format stream-json, an OpenAI or Anthropic messages array, a
Cline task's api_conversation_history.json), "-" for a log on standard input, or a directory
of replies, each of its files one turn read with --format. Several
SESSIONs are replayed in order onto the same branch.

Each commit's subject is the first line of the turn's request, its body
what the assistant said; trailers name the format (LLM-Edit-Format) and
the turn (LLM-Session: <file>#<turn>, the file's base name). -m replaces
subject and body of every commit and keeps the trailers. The default
branch is llm/<slug of the first request>. Edits the session itself saw
fail (a tool result that is an error, a user's rejection included, a call
with no result in the log, a Codex call whose output reports a failure, a
block aider reported as not matching; a Gemini tool_result with status
error; Cline's tool error or denial) are not replayed: the report lists
them. Where a Cline log carries a file as Cline saved it
(<final_file_content>), a recorded file that differs from it is a warning
naming the file. Turns without edits record nothing; -v lists them. A
call that looks like an edit but cannot be read (a tool no reader knows
whose arguments name a file and its text) stops the replay before its turn
(exit 2), the turns before it recorded; with --partial it is skipped and
listed, and the replay goes on.

A turn with a failed edit stops the replay there: the commits before it
stay on the branch, the report names the turn and its log line, and the
exit status is 1. With --partial the edits of that turn that resolved are
recorded and the replay goes on. A SESSION that is no session log is bad
input (exit 2), found before anything is recorded; a log that breaks off
further on (a line that is no JSON record) stops the replay there, exit 2,
the turns before it recorded. The turns are read one at a time and each
turn's part of the report (and of --json's document) is written as the
turn ends, so that a session of thousands of turns costs the memory of its
largest turn; -o's patch files wait in a temporary file until the branch
has moved. A failure after that (the branch moved under the replay) says
that none of the commits the report named is on the branch.`,
		Flags:        applyFlags(),
		OnUsageError: usageOnError,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			o, err := readApplyOptions(cmd)
			if err != nil {
				return err
			}
			return runReplay(ctx, o, s)
		},
	}
}

// printTurn adds to a reply's human report what replay knows of its
// turn: the edits not replayed, and with -v a turn without edits.
func printTurn(w *painter, o commonOptions, r *engine.ReplyResult, t *report.Turn) {
	if t == nil || o.Quiet {
		return
	}
	if r.Status == noEdits && (o.Verbose || len(t.Skipped) > 0) {
		fmt.Fprintf(w, "%s%s: no edit to replay\n", r.Source, logLine(t))
	}
	for _, sk := range t.Skipped {
		what := ""
		if sk.Path != "" {
			what = " (" + displayPath(sk.Path) + ")"
		}
		if sk.Unread {
			fmt.Fprintf(w, "  skipped: call at log line %d%s, which cannot be read: %s\n", sk.Line, what, sk.Why)
			continue
		}
		fmt.Fprintf(w, "  skipped: edit at log line %d%s, which failed in the session: %s\n", sk.Line, what, sk.Why)
	}
}

// logLine names the log line of a turn's request, when it has one.
func logLine(t *report.Turn) string {
	if t.Line == 0 {
		return ""
	}
	return fmt.Sprintf(" (log line %d)", t.Line)
}

func runReplay(ctx context.Context, o applyOptions, s streams) error {
	if len(o.Replies) == 0 {
		return usageError("replay needs a SESSION: a session log or a directory of replies")
	}
	rc, err := openRecording(o, s)
	if err != nil {
		return err
	}
	defer rc.close()
	turns, err := openSessions(o, s.in)
	if err != nil {
		return err
	}
	defer turns.close()
	first, err := turns.peek()
	if err != nil {
		return err
	}
	if err := rc.prepare(ctx, o, func() (string, []string) { return describeTurn(o, first) }); err != nil {
		return err
	}

	defer interruptible(ctx)()
	m := newMeter(rc.s, o.commonOptions, -1)
	hook := m.hook()
	// Each turn's part of the report is written as the turn ends, and
	// nothing of it is kept: a session of thousands of turns costs the
	// memory of its largest turn (issue 30, SPEC section 8).
	tr := newTurnReport(rc.s, o, m, rc.t.branch, rc.w)
	var (
		cur  *replayTurn
		done int   // the turns replayed
		stop error // what ended the replay before its end: a failed turn, a log that cannot be read
	)
	keep := func(r *engine.ReplyResult, t *replayTurn) {
		done++
		tr.turn(r, t.info)
		if replayKept != nil {
			replayKept(0) // the part written, the turn's result is dropped
		}
	}
	next := func() (engine.Input, error) {
		for {
			t, err := turns.next()
			if err != nil {
				if err != io.EOF {
					err = &replayStop{err}
				}
				return engine.Input{}, err
			}
			cur = t
			if !t.empty {
				return t.in, nil
			}
			keep(&engine.ReplyResult{Source: t.in.Source, Subject: t.in.Subject, Status: noEdits}, t)
			if hook != nil {
				hook(done, engine.PhaseParse)
			}
		}
	}
	each := func(r *engine.ReplyResult) error {
		if cur.dir && errors.Is(r.Err, translate.ErrNoEdits) {
			r.Status, r.Err = noEdits, nil // a reply file with no edit is a turn without edits
		}
		compareSaved(r, cur.saved)
		keep(r, cur)
		if r.Failed() && !o.Partial {
			return &replayStop{&turnFailedError{at: r.Source + logLine(cur.info)}}
		}
		return nil
	}
	var progressHook func(int, engine.Phase)
	if hook != nil {
		// The meter counts turns, those without edits included, which
		// the engine never sees.
		progressHook = func(_ int, p engine.Phase) { hook(done, p) }
	}
	err = engine.RunEach(ctx, next, rc.t.src, rc.w, rc.runOptions(o, progressHook), each)
	var rs *replayStop
	if errors.As(err, &rs) {
		stop, err = rs.err, nil
	}
	m.stop(err == nil && stop == nil)
	return rc.finish(ctx, o, nil, tr, err, func(runErr error) (outputs, error) {
		var out outputs
		var ie *engine.InterruptError
		switch {
		case stop != nil:
			out.fatal = stop
			return out, stop
		case errors.As(runErr, &ie):
			out.stopped, out.cut = true, ie.Cut
			msg := plural(done, "turn", "turns") + " replayed"
			if ie.Cut != "" {
				msg += fmt.Sprintf("; %s was cut short: nothing of it is recorded", ie.Cut)
			}
			return out, fmt.Errorf("%w: %s; the turns after it were not read", errInterrupted, msg)
		}
		return out, nil
	})
}

// replayKept, set by tests only, is told after each turn's part of the
// report is written how many turns' results the replay still keeps for
// its report: none, since every part is written as its turn ends.
var replayKept func(int)

// replayStop carries, through engine.RunEach, what ends a replay early
// but keeps the turns recorded before it.
type replayStop struct{ err error }

func (e *replayStop) Error() string { return e.err.Error() }

// turnFailedError stops a replay without --partial at the turn at
// (its source and log line) whose edits failed (exit 1).
type turnFailedError struct{ at string }

func (e *turnFailedError) Error() string {
	return fmt.Sprintf("the replay stopped at %s, whose edits failed (see above); the turns before it are recorded", e.at)
}

// requestSubject is a commit subject from a user's request: its first
// line that holds text (CommitMessage shortens it when long, and keeps
// it whole in the body).
func requestSubject(request string) string {
	for _, l := range strings.Split(request, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// describeTurn is the description and paths of a replay's first turn,
// for the default branch name: its request, or, for a reply of a
// directory, the reply's own description.
func describeTurn(o applyOptions, t *replayTurn) (string, []string) {
	if t == nil {
		return "", nil
	}
	if t.dir {
		return describeReply(o, &t.in)
	}
	var paths []string
	if t.in.Reply != nil {
		for _, op := range t.in.Reply.Ops {
			paths = append(paths, op.Path)
		}
	}
	return t.in.Subject, paths
}

// replaySource is one SESSION: a log being read, or a directory's
// reply files.
type replaySource struct {
	name  string // as given
	label string // in the LLM-Session trailer: the base name
	files []replyFile
	log   *session.Reader
	close func() error
}

// replayTurn is a turn ready for the engine.
type replayTurn struct {
	in    engine.Input
	info  *report.Turn
	dir   bool // a reply of a directory
	empty bool // a log turn that edited nothing
	saved []session.Saved
}

// turnCursor reads the turns of the SESSIONs in order, one at a time.
type turnCursor struct {
	srcs    []*replaySource
	at      int // the source being read
	file    int // in a directory: the files read
	pending *replayTurn
	limit   int64
	partial bool // --partial: a turn's calls that cannot be read are skipped
}

// openSessions opens every SESSION before anything is recorded, so
// that one that is no session log stops the run at once (exit 2).
func openSessions(o applyOptions, stdin io.Reader) (*turnCursor, error) {
	c := &turnCursor{limit: o.Limits.ReplySize, partial: o.Partial}
	usedStdin := false
	for _, name := range o.Replies {
		src := &replaySource{name: name, label: filepath.Base(name), close: func() error { return nil }}
		var r io.Reader
		switch at := under(o.Dir, name); {
		case name == "-":
			if usedStdin {
				c.close()
				return nil, usageError(`standard input ("-") can be read only once`)
			}
			usedStdin, src.label, r = true, "stdin", stdin
		default:
			fi, err := os.Stat(at)
			if err != nil {
				c.close()
				return nil, usageError("cannot read session %s: %v", name, pathErr(err))
			}
			if fi.IsDir() {
				if src.files, err = replyFiles(at, name); err != nil {
					c.close()
					return nil, err
				}
				c.srcs = append(c.srcs, src)
				continue
			}
			f, err := os.Open(at)
			if err != nil {
				c.close()
				return nil, usageError("cannot read session %s: %v", name, pathErr(err))
			}
			r, src.close = f, f.Close
		}
		log, err := session.Open(r, name)
		if err != nil {
			src.close()
			c.close()
			if errors.Is(err, session.ErrNotSession) {
				return nil, usageError("%s is not a session log: %v", name, err.Error())
			}
			return nil, usageError("cannot read session %s: %v", name, err.Error())
		}
		src.log = log
		c.srcs = append(c.srcs, src)
	}
	return c, nil
}

func (c *turnCursor) close() {
	for _, s := range c.srcs {
		s.close()
	}
}

// peek is the first turn (nil: none), which next then returns again.
func (c *turnCursor) peek() (*replayTurn, error) {
	t, err := c.next()
	if err == io.EOF {
		return nil, nil
	}
	c.pending = t
	return t, err
}

// next is the next turn, or io.EOF after the last of the last SESSION.
// A log that cannot be read further, or a reply file that cannot be
// read, is a usage error naming it.
func (c *turnCursor) next() (*replayTurn, error) {
	if t := c.pending; t != nil {
		c.pending = nil
		return t, nil
	}
	for c.at < len(c.srcs) {
		src := c.srcs[c.at]
		if src.log == nil {
			if c.file == len(src.files) {
				c.at, c.file = c.at+1, 0
				continue
			}
			f := src.files[c.file]
			c.file++
			in, err := readFile(f.path, f.name, c.limit)
			if err != nil {
				return nil, err
			}
			in.Trailers = []string{fmt.Sprintf("LLM-Session: %s#%d", src.label, c.file)}
			return &replayTurn{in: in, dir: true, info: &report.Turn{Session: src.name, Turn: c.file}}, nil
		}
		t, err := src.log.Next()
		if err == io.EOF {
			c.at++
			continue
		}
		if err != nil {
			return nil, usageError("cannot read session %s further: %v", src.name, err.Error())
		}
		if len(t.Unread) > 0 && !c.partial {
			// An edit that cannot be read is never success (SPEC
			// section 2): the replay stops before its turn.
			u := t.Unread[0]
			more := ""
			if n := len(t.Unread) - 1; n > 0 {
				more = fmt.Sprintf(" (and %d more such calls)", n)
			}
			return nil, usageError("session %s, log line %d: %s%s; the replay stops at turn %d (--partial skips such calls and goes on)", src.name, u.Line, u.Why, more, t.N)
		}
		return src.turn(t), nil
	}
	return nil, io.EOF
}

// turn makes a log's turn an input of the engine.
func (src *replaySource) turn(t *session.Turn) *replayTurn {
	info := &report.Turn{Session: src.name, Turn: t.N, Line: t.Line}
	for _, sk := range t.Skipped {
		info.Skipped = append(info.Skipped, report.Skip{Line: sk.Line, Path: sk.Path, Why: sk.Why})
	}
	for _, u := range t.Unread { // left with --partial
		info.Skipped = append(info.Skipped, report.Skip{Line: u.Line, Path: u.Path, Why: u.Why, Unread: true})
	}
	in := engine.Input{
		Source:   fmt.Sprintf("%s#%d", src.name, t.N),
		Reply:    t.Reply,
		Subject:  requestSubject(t.Request),
		Body:     strings.Join(t.Prose, "\n\n"),
		Trailers: []string{fmt.Sprintf("LLM-Session: %s#%d", src.label, t.N)},
	}
	empty := t.Reply == nil || len(t.Reply.Ops) == 0 && len(t.Reply.Failed) == 0
	return &replayTurn{in: in, info: info, empty: empty, saved: t.Saved}
}
