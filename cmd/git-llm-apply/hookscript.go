package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// The pre-commit hook hook install writes is hookHead, the quoted path
// of the binary, and hookTail. It stays this small so that users can
// read it, and so that a copy installed by an older version still works
// after an upgrade: all logic is in hook run.
//
// It runs the binary by the path recorded at install time, because
// the environment git commits in often has another PATH than the
// shell the hook was installed from (GUI clients, IDEs, cron); then
// git-llm-apply on PATH (git puts its exec-path first there), for a
// binary moved since. With neither, it fails the commit with one line
// saying what to do, instead of git's "'llm-apply' is not a git
// command". printf, not echo: sh's echo reads backslashes in the path.
const (
	hookHead = `#!/bin/sh
# git llm-apply: refuse a commit whose staged files hold the debris of a
# pasted model reply (unapplied edit markers, "... existing code ...").
# Installed by "git llm-apply hook install"; bypass once with
# "git commit --no-verify".
llm_apply=`
	hookTail = `
if test -f "$llm_apply" && test -x "$llm_apply"; then
	exec "$llm_apply" hook run
fi
if command -v git-llm-apply >/dev/null 2>&1; then
	exec git-llm-apply hook run
fi
printf 'git llm-apply pre-commit hook: git-llm-apply is neither at %s nor on PATH; install it, run git llm-apply hook install again, or commit with git commit --no-verify\n' "$llm_apply" >&2
exit 1
`
)

// hookScriptV1 is the hook versions before the recorded path wrote:
// recognised as ours, so that hook install replaces it without --force.
const hookScriptV1 = `#!/bin/sh
# git llm-apply: refuse a commit whose staged files hold the debris of a
# pasted model reply (unapplied edit markers, "... existing code ...").
# Installed by "git llm-apply hook install"; bypass once with
# "git commit --no-verify".
exec git llm-apply hook run
`

// hookScript is the pre-commit hook that runs the binary at exe.
func hookScript(exe string) string {
	return hookHead + shquote.Quote(exe) + hookTail
}

// ownHook reports whether script is a pre-commit hook hook install
// wrote, whatever binary it records, or one an older version wrote.
func ownHook(script string) bool {
	if script == hookScriptV1 {
		return true
	}
	quoted, ok := strings.CutPrefix(script, hookHead)
	if !ok {
		return false
	}
	quoted, ok = strings.CutSuffix(quoted, hookTail)
	if !ok || len(quoted) < 2 || quoted[0] != '\'' || quoted[len(quoted)-1] != '\'' {
		return false
	}
	// One quoted word, as shquote.Quote writes it: a hook whose line was
	// edited into more than that is someone's own.
	return quoted == shquote.Quote(strings.ReplaceAll(quoted[1:len(quoted)-1], `'\''`, "'"))
}

// hookBinary is the path the hook records: the path this binary was
// started by (found on PATH when given as a bare name, as git runs
// git-llm-apply), when that is this very binary, else the running
// executable's own path. Symbolic links are kept, not resolved: a
// package manager (Homebrew, Nix, a versioned install dir) links a
// stable path to a file of the installed version, which the next
// upgrade removes, while the link then leads to the new one.
// os.Executable resolves them on Linux, so it is the fallback only.
func hookBinary() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if p := startedAs(); p != "" {
		if a, err := os.Stat(p); err == nil {
			if b, err := os.Stat(exe); err == nil && os.SameFile(a, b) {
				return p, nil
			}
		}
	}
	return exe, nil
}

// startedAs is the absolute path named by os.Args[0], or "".
func startedAs() string {
	if len(os.Args) == 0 || os.Args[0] == "" {
		return ""
	}
	p := os.Args[0]
	if !strings.ContainsRune(p, filepath.Separator) {
		var err error
		if p, err = exec.LookPath(p); err != nil {
			return ""
		}
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return ""
	}
	return abs
}
