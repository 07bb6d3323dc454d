package main

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestRunRefuses: an argument, an unknown flag, no repository and a
// bare one end the server before it serves, with exit status 2 and,
// but for the flag package's own message, git's "fatal:".
func TestRunRefuses(t *testing.T) {
	bare := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", "--bare", bare).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"extra"}, "fatal: git-llm-apply-mcp takes no arguments"},
		{[]string{"--no-such-flag"}, "flag provided but not defined: -no-such-flag"},
		{[]string{"-C", t.TempDir()}, "fatal: "},
		{[]string{"-C", bare}, "is a bare repository"},
	} {
		var out, errw bytes.Buffer
		code := run(context.Background(), tc.args, strings.NewReader(""), &out, &errw)
		if code != 2 || !strings.Contains(errw.String(), tc.want) || out.Len() != 0 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want 2 and %q", tc.args, code, out.String(), errw.String(), tc.want)
		}
	}
}

// TestRunServes: in a repository, the server says what it serves and
// ends with status 0 when the client closes its end.
func TestRunServes(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{{"init", "-q", "-b", "main", dir}, {"-C", dir, "-c", "user.name=T", "-c", "user.email=t@example.com", "commit", "-q", "--allow-empty", "-m", "initial"}} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	var out, errw bytes.Buffer
	code := run(context.Background(), []string{"-C", dir, "-b", "llm/t"}, strings.NewReader(""), &out, &errw)
	if code != 0 || !strings.Contains(errw.String(), "this session records on llm/t") {
		t.Errorf("exit %d, stderr %q", code, errw.String())
	}
}
