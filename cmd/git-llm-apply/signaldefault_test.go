package main

import (
	"context"
	"io"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A signal that comes while a command holds no work it could keep
// (here, apply still reading its reply from standard input) has its
// default action: the process ends killed by it, saying nothing, as
// when nothing listens. Only the stretch where engine.Run works takes
// it as an interrupt (the TestInterrupted tests).
func TestSignalOutsideTheRunKills(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			if signal.Ignored(sig) {
				// A child inherits an ignored signal as ignored (a
				// shell's background job, nohup): nothing to end it.
				t.Skipf("%v is ignored in the test process, so in the command too", sig)
			}
			r := newRepo(t, map[string]string{"a.txt": "a\n"})
			cmd := exec.Command(binary(), "apply", "-b", "never")
			cmd.Dir = r.dir
			in, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			var errb strings.Builder
			cmd.Stderr = &errb
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			// More than a pipe holds: once written, the command is
			// reading its input, its signal handling long set up.
			if _, err := io.WriteString(in, strings.Repeat("Some prose of the reply.\n", 1<<14)); err != nil {
				t.Fatal(err)
			}
			cmd.Process.Signal(sig)
			// Not a measure: only what keeps a broken build from
			// waiting on its standard input for ever.
			watchdog := time.AfterFunc(time.Minute, func() { in.Close() })
			cmd.Wait()
			watchdog.Stop()
			in.Close()
			ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Fatalf("the command ended with %v, want killed by %v\n%s", cmd.ProcessState, sig, errb.String())
			}
			if errb.Len() > 0 {
				t.Errorf("the command said something as it was killed:\n%s", errb.String())
			}
			if out := r.git("branch", "--list", "never"); out != "" {
				t.Errorf("the branch was made: %q", out)
			}
		})
	}
}

// Nothing listens for signals until a command holds its first
// interruptible stretch: --version, help and the like start no
// goroutine or thread for them (signalContext).
func TestSignalListeningBeginsWithTheFirstStretch(t *testing.T) {
	listened := func(ctx context.Context) bool {
		g := ctx.Value(gateKey{}).(*signalGate)
		ran := false
		g.listening.Do(func() { ran = true }) // runs only if listen never did
		return !ran
	}
	ctx, stop := signalContext()
	if listened(ctx) {
		t.Error("signalContext listens before any stretch")
	}
	stop()

	ctx, stop = signalContext()
	defer stop()
	release := interruptible(ctx)
	defer release()
	if !listened(ctx) {
		t.Error("an interruptible stretch began without listening")
	}
}
