//go:build unix

package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// startAndSignal starts cmd, waits for the file mark to appear (written
// by a slow child of git's), sends SIGTERM and returns the outputs and
// the exit status. The deadline only guards the test run.
func startAndSignal(t *testing.T, cmd *exec.Cmd, mark string) (stderr string, code int) {
	t.Helper()
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	for {
		select {
		case <-exited:
			t.Fatalf("the child ended (exit %d) before its git child began\n%s", cmd.ProcessState.ExitCode(), errb.String())
		case <-time.After(10 * time.Millisecond):
		}
		if _, err := os.Stat(mark); err == nil {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	<-exited
	return errb.String(), cmd.ProcessState.ExitCode()
}

// TestInterruptInTheWorktreeStep: a signal while apply's git child
// runs (`git worktree add`, held in its post-checkout hook) ends that
// child and its hook, and the run exits 130 with the commits recorded
// on the branch and no worktree left half added: none registered,
// nothing at the path, and the note says how to add it (SPEC section
// 2).
func TestInterruptInTheWorktreeStep(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	mark := filepath.Join(t.TempDir(), "hook-started")
	hook := filepath.Join(r.dir, ".git", "hooks", "post-checkout")
	os.MkdirAll(filepath.Dir(hook), 0o755)
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho started >'"+mark+"'\nsleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	wt := filepath.Join(t.TempDir(), "wt")
	reply := r.reply("r.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(), "apply", "-b", "topic", "--worktree", wt, reply)
	cmd.Dir = r.dir
	stderr, code := startAndSignal(t, cmd, mark)
	if ctx.Err() != nil {
		t.Fatalf("the guard killed the child\n%s", stderr)
	}
	if code != exitInterrupted || !strings.Contains(stderr, "Interrupted: no worktree was added at") {
		t.Fatalf("exit %d, want %d with the note\n%s", code, exitInterrupted, stderr)
	}
	if got := r.show("topic", "src/app.py"); !strings.Contains(got, "import sys") {
		t.Errorf("the branch does not hold the reply:\n%s", got)
	}
	if list := r.git("worktree", "list", "--porcelain"); strings.Count(list, "worktree ") != 1 {
		t.Errorf("a worktree is left registered:\n%s", list)
	}
	if _, err := os.Lstat(wt); err == nil {
		t.Errorf("%s is left", wt)
	}
	r.fsck()
}

// TestInterruptInTheHookRun: `hook run` stops its git child (here a
// `git` on PATH that stalls in diff-index) on a signal and exits 130.
func TestInterruptInTheHookRun(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	mark := filepath.Join(t.TempDir(), "git-started")
	shim := "#!/bin/sh\ncase \" $* \" in *\" diff-index \"*) echo started >'" + mark + "'; sleep 60;; esac\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(shim), 0o755); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(), "hook", "run")
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	stderr, code := startAndSignal(t, cmd, mark)
	if ctx.Err() != nil {
		t.Fatalf("the guard killed the child\n%s", stderr)
	}
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, stderr)
	}
}
