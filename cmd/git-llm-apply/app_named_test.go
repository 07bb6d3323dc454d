package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestNamedCommand: the command a command line names, past the root's
// options; --version names version, as git's own does.
func TestNamedCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"git-llm-apply"}, ""},
		{[]string{"git-llm-apply", "check", "r.md"}, "check"},
		{[]string{"git-llm-apply", "-C", "check", "apply"}, "apply"},
		{[]string{"git-llm-apply", "--C", "check", "apply"}, "apply"},
		{[]string{"git-llm-apply", "-Cdir", "apply"}, "apply"},
		{[]string{"git-llm-apply", "--version"}, "version"},
		{[]string{"git-llm-apply", "--version", "check"}, "check"},
		{[]string{"git-llm-apply", "-h"}, ""},
		{[]string{"git-llm-apply", "--", "check"}, ""},
		{[]string{"git-llm-apply", "chekc"}, "chekc"},
	} {
		if got := namedCommand(tc.args); got != tc.want {
			t.Errorf("namedCommand(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestTreeOfOneCommand: a run of one of our commands sets up that
// command alone; no command, an unknown one, man and completion get
// them all. The runs behave the same either way.
func TestTreeOfOneCommand(t *testing.T) {
	t.Parallel()
	for named, want := range map[string]int{"check": 1, "version": 1, "mcp": 1, "": len(commands), "chekc": len(commands), "man": len(commands), "completion": len(commands)} {
		if got := len(newApp(streams{}, named).Commands); got != want {
			t.Errorf("%q: %d commands, want %d", named, got, want)
		}
	}
	for _, tc := range []struct {
		args []string
		code int
		out  string
	}{
		{[]string{"git-llm-apply", "--version"}, 0, "git llm-apply version "},
		{[]string{"git-llm-apply", "formats"}, 0, "apply-patch"},
		{[]string{"git-llm-apply", "chec"}, 2, ""},
	} {
		var out, errw bytes.Buffer
		code := run(context.Background(), tc.args, "", strings.NewReader(""), &out, &errw)
		if code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tc.args, code, out.String(), errw.String())
		}
		if tc.code == 2 && !strings.Contains(errw.String(), "check") {
			t.Errorf("%q: the similar command is not named: %q", tc.args, errw.String())
		}
	}
}
