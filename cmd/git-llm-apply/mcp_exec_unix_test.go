//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// lonely copies the built git-llm-apply into a directory of its own,
// with server (a shell script) as its git-llm-apply-mcp unless it is
// "", and returns the copy.
func lonely(t *testing.T, server string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(binary())
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(dir, "git-llm-apply")
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if server != "" {
		if err := os.WriteFile(filepath.Join(dir, "git-llm-apply-mcp"), []byte(server), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return exe
}

// fakeServer says what it was given: its arguments, a variable of the
// environment and its standard input, and exits 7.
const fakeServer = "#!/bin/sh\nprintf 'arg %s\\n' \"$@\"\necho \"env $MCP_EXEC_PROBE\"\ncat\nexit 7\n"

// TestMCPExecMissing: without git-llm-apply-mcp beside the binary or on
// PATH, mcp and mcp --config say how to install it and exit 2 (SPEC
// section 2, mcp).
func TestMCPExecMissing(t *testing.T) { // writes an executable: not parallel (TestMain)
	exe := lonely(t, "")
	for _, args := range [][]string{{"mcp"}, {"mcp", "--config", "claude"}} {
		cmd := exec.Command(exe, args...)
		cmd.Env = append(os.Environ(), "PATH="+t.TempDir())
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%v: %v, want exit status 2", args, err)
		}
		want := "fatal: git-llm-apply-mcp (the MCP server) is not installed in " + filepath.Dir(exe) +
			" or on PATH; install it with: go install github.com/git-llm-apply/git-llm-apply/cmd/git-llm-apply-mcp@latest\n"
		if stderr.String() != want {
			t.Errorf("%v: stderr %q, want %q", args, stderr.String(), want)
		}
	}
}

// TestMCPExecPassesThrough: mcp executes git-llm-apply-mcp beside it
// with the options spelled out (sizes in bytes, -C as given), the
// environment and standard input, and its exit status is the server's.
func TestMCPExecPassesThrough(t *testing.T) { // writes an executable: not parallel (TestMain)
	exe := lonely(t, fakeServer)
	dir := t.TempDir()
	cmd := exec.Command(exe, "-C", dir, "mcp", "-b", "llm/x", "--shell-ops", "--worktree", "wt", "--max-reply-size", "2m")
	cmd.Env = append(os.Environ(), "MCP_EXEC_PROBE=seen")
	cmd.Stdin = strings.NewReader("a request\n")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 7 {
		t.Errorf("exit: %v, want the server's status 7", err)
	}
	want := "arg -C\narg " + dir + "\narg --branch\narg llm/x\narg --shell-ops\narg --worktree\narg wt\n" +
		"arg --max-reply-size\narg 2097152\narg --max-file-size\narg 67108864\narg --max-line-length\narg 1048576\narg --max-edits\narg 10000\n" +
		"env seen\na request\n"
	if string(out) != want {
		t.Errorf("the server was given:\n%s\nwant:\n%s", out, want)
	}
}

// TestMCPExecInProcess: run in-process (streams that are not the
// process's own), mcp runs the server found on PATH as a child, wired
// to those streams, and returns its exit status.
func TestMCPExecInProcess(t *testing.T) { // sets PATH and writes an executable: not parallel
	exe := lonely(t, fakeServer)
	t.Setenv("PATH", filepath.Dir(exe)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"git-llm-apply", "mcp"}, "", strings.NewReader("in\n"), &out, &errw)
	if code != 7 || !strings.HasSuffix(out.String(), "env \nin\n") || errw.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want 7, the server's output and nothing on stderr", code, out.String(), errw.String())
	}
}
