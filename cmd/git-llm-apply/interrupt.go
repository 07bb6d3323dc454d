package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/engine"
)

// exitInterrupted is the shell's status for a run stopped by SIGINT.
const exitInterrupted = 130

// onInterrupt returns a channel closed at the first SIGINT or SIGTERM,
// and the function that stops listening. While it listens those signals
// no longer kill the process: the run stops between two replies, so a
// reply is recorded whole or not at all, and the replies recorded
// before it are kept (engine.RunOptions.Interrupt).
func onInterrupt() (<-chan struct{}, func()) {
	sig := make(chan os.Signal, 1)
	done := make(chan struct{})
	quit := make(chan struct{})
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case <-sig:
			close(done)
		case <-quit:
		}
	}()
	return done, func() {
		signal.Stop(sig)
		close(quit)
	}
}

// interruption returns what the report says of a run an interrupt
// stopped, and the error it exits with; for a run that went to the end,
// neither. branch is where apply records ("" for check and translate).
func interruption(stopped bool, results []*engine.ReplyResult, inputs []engine.Input, branch string) (outputs, error) {
	if !stopped {
		return outputs{}, nil
	}
	return outputs{stopped: true, unread: unread(results, inputs)}, interruptedError(results, inputs, branch)
}

// interruptedError says where an interrupted run stopped: the replies
// done (the last of them whole) and those never read.
func interruptedError(results []*engine.ReplyResult, inputs []engine.Input, branch string) error {
	var done string
	switch n := len(results); {
	case n == 0:
		done = "no reply was read"
	case branch != "":
		last := results[n-1]
		state := "recorded whole on " + branch
		if last.Commit == "" {
			state = "not recorded (" + string(last.Status) + ")"
		}
		done = fmt.Sprintf("%d of %d replies done; the last, %s, is %s", n, len(inputs), last.Source, state)
	default:
		done = fmt.Sprintf("%d of %d replies done, the last being %s", n, len(inputs), results[n-1].Source)
	}
	rest := unread(results, inputs)
	switch len(rest) {
	case 0:
	case 1:
		done += "; not read: " + rest[0]
	default:
		done += fmt.Sprintf("; not read: %s to %s (%d replies)", rest[0], rest[len(rest)-1], len(rest))
	}
	return &exitError{exitInterrupted, fmt.Errorf("interrupted: %s", done)}
}

// unread lists the sources of the inputs a run did not reach.
func unread(results []*engine.ReplyResult, inputs []engine.Input) []string {
	var rest []string
	for _, in := range inputs[min(len(results), len(inputs)):] {
		rest = append(rest, in.Source)
	}
	return rest
}
