package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
)

// signalContext is the context main runs a command in: it ends at the
// first SIGINT or SIGTERM that comes while the command holds the
// signals (interruptible). While it does, those signals no longer kill
// the process: engine.Run stops wherever it is, drops the reply in hand
// whole and keeps the replies finished before it, and the command
// records those (the branch moves once, with git's lock protocol) and
// exits with exitInterrupted. A second signal then changes nothing:
// what is left to do once the first has stopped the run is short and
// leaves the repository consistent. At any other time (reading the
// replies, printing a report, a command with nothing to keep) the
// signal has its default action, as if nothing listened: there is
// nothing in hand to finish. stop stops listening.
//
// The signals are received here rather than through
// signal.NotifyContext, which ends its context whenever one comes: to
// leave a signal its default action, which one came must be known when
// it comes.
//
// Listening begins with the first interruptible stretch. Before it,
// not listening is the default action itself, and a command that holds
// none (--version, help, formats) starts neither os/signal's receiving
// goroutine nor the thread it blocks: on a machine where a new thread
// and its first pages are dear, that was a fifth of --version's time
// above a program that prints one line (docs/performance.md, Stop 34).
func signalContext() (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	g := &signalGate{cancel: cancel, ch: make(chan os.Signal, 1), done: make(chan struct{})}
	return context.WithValue(ctx, gateKey{}, g), func() {
		signal.Stop(g.ch) // nothing, if it never listened
		close(g.done)
		cancel()
	}
}

// gateKey is the key of main's signalGate in its context.
type gateKey struct{}

// signalGate decides, as each signal comes, whether it interrupts the
// work in hand or has its default action (see signalContext).
type signalGate struct {
	mu     sync.Mutex
	held   int // the interruptible stretches under way
	cancel func()

	listening sync.Once
	ch        chan os.Signal
	done      chan struct{} // closed by signalContext's stop
}

// listen starts receiving SIGINT and SIGTERM, once.
func (g *signalGate) listen() {
	g.listening.Do(func() {
		signal.Notify(g.ch, os.Interrupt, syscall.SIGTERM)
		go func() {
			for {
				select {
				case sig := <-g.ch:
					g.receive(sig, g.ch)
				case <-g.done:
					return
				}
			}
		}()
	})
}

func (g *signalGate) receive(sig os.Signal, ch chan os.Signal) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held > 0 {
		g.cancel()
		return
	}
	// The default action: the process ends as killed by sig, or, when
	// it started with sig ignored (nohup, a background job), nothing
	// happens and the signal is taken again as before. A system where
	// a process cannot signal itself gets the exit status instead.
	signal.Reset(sig)
	p, err := os.FindProcess(os.Getpid())
	if err == nil {
		err = p.Signal(sig)
	}
	if err != nil {
		os.Exit(exitInterrupted)
	}
	signal.Notify(ch, sig)
}

// interruptible makes SIGINT and SIGTERM end ctx, when it is main's
// (signalContext), from now until release is called: the stretch in
// which a command can stop its work and keep what it finished. Other
// contexts (tests running commands in-process) end as their makers
// choose.
func interruptible(ctx context.Context) (release func()) {
	g, ok := ctx.Value(gateKey{}).(*signalGate)
	if !ok {
		return func() {}
	}
	// A signal between listen and held++ finds nothing held and has
	// its default action, as one before the stretch would.
	g.listen()
	g.mu.Lock()
	g.held++
	g.mu.Unlock()
	return func() {
		g.mu.Lock()
		g.held--
		g.mu.Unlock()
	}
}

// progressEnv names the variable that makes a run print, on standard
// error, a line as each reply enters each phase: a sign of progress for
// the tests that interrupt a run in the middle of a reply. It is not
// meant for people; the report says what they need.
const progressEnv = "GIT_LLM_APPLY_TEST_PROGRESS"

// progress returns the meter of a run (progress.go); with progressEnv
// set it also prints the test lines, clearing its own line first.
func progress(s streams, o commonOptions, inputs []engine.Input) *meter {
	m := newMeter(s, o, len(inputs))
	if os.Getenv(progressEnv) != "" {
		m.test = func(n int, p engine.Phase) {
			fmt.Fprintf(s.err, "progress: reply %d of %d (%s): %s\n", n+1, len(inputs), inputs[n].Source, p)
		}
	}
	return m
}

// interruption returns what the report says of a run an interrupt
// stopped (err from engine.Run is an engine.InterruptError), and the
// error it exits with; for a run that went to the end, neither. branch
// is where apply records ("" for check and translate).
func interruption(err error, results []*engine.ReplyResult, inputs []engine.Input, branch string) (outputs, error) {
	var ie *engine.InterruptError
	if !errors.As(err, &ie) {
		return outputs{}, nil
	}
	out := outputs{stopped: true, cut: ie.Cut, unread: unread(results, inputs, ie.Cut)}
	return out, interruptedError(results, inputs, out, branch)
}

// interruptedError says where an interrupted run stopped: the replies
// done, the one cut short (which counts for nothing) and those never
// read.
func interruptedError(results []*engine.ReplyResult, inputs []engine.Input, out outputs, branch string) error {
	n := len(results)
	msg := fmt.Sprintf("%d of %s done", n, plural(len(inputs), "reply", "replies"))
	if n > 0 {
		last := results[n-1]
		switch {
		case branch == "":
			msg += ", the last being " + last.Source
		case last.Commit != "":
			msg += fmt.Sprintf(", the last, %s, recorded on %s", last.Source, branch)
		default:
			msg += fmt.Sprintf(", the last, %s, not recorded (%s)", last.Source, last.Status)
		}
	}
	if out.cut != "" {
		if branch != "" {
			msg += fmt.Sprintf("; %s was cut short: nothing of it is recorded", out.cut)
		} else {
			msg += fmt.Sprintf("; %s was cut short: it is not reported", out.cut)
		}
	}
	switch rest := out.unread; len(rest) {
	case 0:
	case 1:
		msg += "; not read: " + rest[0]
	default:
		msg += fmt.Sprintf("; not read: %s to %s (%s)", rest[0], rest[len(rest)-1], plural(len(rest), "reply", "replies"))
	}
	return fmt.Errorf("%w: %s", errInterrupted, msg)
}

// unread lists the sources of the inputs a run did not reach: those
// after the results and after the reply cut short, if any.
func unread(results []*engine.ReplyResult, inputs []engine.Input, cut string) []string {
	from := len(results)
	if cut != "" {
		from++
	}
	var rest []string
	for _, in := range inputs[min(from, len(inputs)):] {
		rest = append(rest, in.Source)
	}
	return rest
}
