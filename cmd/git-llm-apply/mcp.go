package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/urfave/cli/v3"
)

func mcpCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the repository to agents over the Model Context Protocol (stdio)",
		Description: `Serves the repository it is started in (-C DIR) to an agent as a Model
Context Protocol server on standard input and output. Its tools are
check, apply, translate, formats, prompt, read, workspace, log and
undo; check, apply and translate take the reply text in "reply" and the
options of the command of the same name ("format", "base", "fuzz",
"branch", "onto", "message", "partial").

apply records each reply as one commit on the session's branch
(llm/mcp-<date>-<time>-<random> unless -b names one), so that an
agent's turns become a patch series; log lists them and undo moves the
branch back one commit (compare-and-swap, with a reflog entry). Each
commit carries the trailer LLM-MCP-Branch: <branch>, so a later server
on the same -b branch lists and undoes them too. read gives a file as
the branch has it, with line numbers. With --worktree DIR the branch is
checked out in a linked worktree at DIR that follows it: after each
apply and undo its files are the branch's, except files with changes
of their own there, which are never overwritten (the update stops and
names them). The checkout, the index and HEAD are never changed. Shell
blocks' file commands are taken as deletions and renames only with
--shell-ops; nothing is ever run. A tool's failure is a result with
isError set and the report as text: the server keeps running.

The server is its own binary, git-llm-apply-mcp, installed beside
git-llm-apply: this command executes it with the options given, so
that no other command loads it. --config HOST prints the configuration
that starts it for claude (Claude Code's .mcp.json), codex
(~/.codex/config.toml), cursor (.cursor/mcp.json) or gemini
(.gemini/settings.json), with its absolute path, and exits.`,
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "branch", Aliases: []string{"b"}, Usage: "record the session's replies on `NAME` (appending when it exists)"},
			&cli.BoolFlag{Name: "shell-ops", Usage: "turn git rm, git mv, rm and mv lines of shell blocks into delete and rename operations (nothing is run)"},
			&cli.StringFlag{Name: "worktree", Usage: "check the session's branch out in a linked worktree at `DIR` that follows it"},
			&cli.StringFlag{Name: "config", Usage: "print the configuration that starts this server for `HOST` (claude, codex, cursor, gemini) and exit"},
		}, limitFlags()...),
		OnUsageError: usageOnError,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usageError("mcp takes no arguments (it reads requests on standard input)")
			}
			server, err := mcpBinary()
			if host := cmd.String("config"); cmd.IsSet("config") {
				if _, ok := mcpHosts[host]; ok && err != nil {
					return err
				}
				return writeMCPConfig(s.out, s.err, host, server)
			}
			dir, arg := startOf(cmd)
			if err := checkStartDir(dir, arg); err != nil {
				return err
			}
			limits, err2 := readLimits(cmd)
			if err2 != nil {
				return err2
			}
			if err != nil {
				return err
			}
			args := []string{}
			if dir != "" {
				args = append(args, "-C", dir)
			}
			if cmd.IsSet("branch") {
				args = append(args, "--branch", cmd.String("branch"))
			}
			if cmd.Bool("shell-ops") {
				args = append(args, "--shell-ops")
			}
			if cmd.IsSet("worktree") {
				args = append(args, "--worktree", cmd.String("worktree"))
			}
			args = append(args,
				"--max-reply-size", strconv.FormatInt(limits.ReplySize, 10),
				"--max-file-size", strconv.FormatInt(limits.FileSize, 10),
				"--max-line-length", strconv.Itoa(limits.LineLength),
				"--max-edits", strconv.Itoa(limits.Edits))
			return execServer(ctx, s, server, args)
		},
	}
}

// mcpServerName is the MCP server's binary (cmd/git-llm-apply-mcp).
const mcpServerName = "git-llm-apply-mcp"

// errNoServer: the MCP server's binary is neither beside this one nor
// on PATH.
var errNoServer = errors.New(mcpServerName + " (the MCP server) is not installed")

// mcpBinary finds the MCP server's binary (SPEC section 2, mcp): beside
// this binary, as go install and the release archives put it, first
// where this binary was started from and then where its symbolic links
// lead; else on PATH. Its path is absolute.
func mcpBinary() (string, error) {
	name := mcpServerName
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	var dirs []string
	if exe, err := os.Executable(); err == nil {
		dirs = append(dirs, filepath.Dir(exe))
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			dirs = append(dirs, filepath.Dir(real))
		}
	}
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 || err == nil && runtime.GOOS == "windows" {
			return filepath.Abs(p)
		}
	}
	if p, err := exec.LookPath(mcpServerName); err == nil {
		return filepath.Abs(p)
	}
	where := "beside this binary"
	if len(dirs) > 0 {
		where = "in " + dirs[0]
	}
	return "", fmt.Errorf("%w %s or on PATH; install it with: go install github.com/git-llm-apply/git-llm-apply/cmd/%s@latest", errNoServer, where, mcpServerName)
}

// childExit is the exit status of the server run as a child process,
// for exitCode to pass on.
type childExit struct{ code int }

func (e *childExit) Error() string {
	return fmt.Sprintf("%s exited with status %d", mcpServerName, e.code)
}

// execServer runs the server with args, standard input and outputs and
// the environment passed through. When the streams are the process's
// own, the server replaces this process (execProcess: no process stays
// between the host and the server); else (tests run commands
// in-process, and where a process cannot be replaced) it runs as a
// child and its exit status is this command's.
func execServer(ctx context.Context, s streams, server string, args []string) error {
	if replaceProcess && s.in == os.Stdin && s.out == os.Stdout && s.rawErr == os.Stderr {
		err := execProcess(server, args)
		return fmt.Errorf("cannot run %s: %w", server, err)
	}
	c := exec.CommandContext(ctx, server, args...)
	c.Stdin, c.Stdout, c.Stderr = s.in, s.out, s.rawErr
	err := c.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() >= 0 {
		return &childExit{code: ee.ExitCode()}
	}
	if ctx.Err() != nil {
		return nil // told to stop: a server's normal end
	}
	if err != nil {
		return fmt.Errorf("cannot run %s: %w", server, err)
	}
	return nil
}
