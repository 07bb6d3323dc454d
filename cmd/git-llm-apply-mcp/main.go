// Command git-llm-apply-mcp is git llm-apply's Model Context Protocol
// server (internal/mcpserver) on standard input and output. It is its
// own binary so that no other command links the MCP SDK: git llm-apply
// mcp reads its command line and executes this one, found next to
// itself or on PATH, with the options spelled as below (SPEC section
// 2, mcp). A host's configuration may start it directly.
//
//	git-llm-apply-mcp [-C DIR] [-b NAME] [--shell-ops] [--worktree DIR]
//	                  [--max-reply-size BYTES] [--max-file-size BYTES]
//	                  [--max-line-length BYTES] [--max-edits N]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/internal/buildinfo"
	"github.com/git-llm-apply/git-llm-apply/internal/mcpserver"
	"github.com/git-llm-apply/git-llm-apply/internal/profile"
	"github.com/git-llm-apply/git-llm-apply/llmapply"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := profile.Run("git-llm-apply-mcp", func() int { return run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr) })
	stop()
	os.Exit(code)
}

// run serves one session and returns the exit status: 0 when the
// client closed its end or a signal told the server to stop, 2 for any
// error (a flag, the repository, the branch's name, --worktree), said
// on errw as git says it, "fatal: ".
func run(ctx context.Context, args []string, in io.Reader, out, errw io.Writer) int {
	fs := flag.NewFlagSet("git-llm-apply-mcp", flag.ContinueOnError)
	fs.SetOutput(errw)
	var o mcpserver.Options
	d := llmapply.DefaultLimits()
	fs.StringVar(&o.Dir, "C", "", "serve the repository `DIR` is in (default: the working directory)")
	fs.StringVar(&o.Branch, "b", "", "record the session's replies on `NAME`")
	fs.StringVar(&o.Branch, "branch", "", "the same as -b")
	fs.BoolVar(&o.ShellOps, "shell-ops", false, "turn git rm, git mv, rm and mv lines of shell blocks into delete and rename operations")
	fs.StringVar(&o.Worktree, "worktree", "", "check the session's branch out in a linked worktree at `DIR` that follows it")
	fs.Int64Var(&o.Limits.ReplySize, "max-reply-size", d.ReplySize, "refuse a reply larger than `BYTES` (0: no limit)")
	fs.Int64Var(&o.Limits.FileSize, "max-file-size", d.FileSize, "refuse to touch a file larger than `BYTES`")
	fs.IntVar(&o.Limits.LineLength, "max-line-length", d.LineLength, "refuse a line longer than `BYTES`")
	fs.IntVar(&o.Limits.Edits, "max-edits", d.Edits, "refuse a reply holding more than `N` operations (0: no limit)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(errw, "fatal: git-llm-apply-mcp takes no arguments (it reads requests on standard input)\n")
		return 2
	}
	if o.Dir == "" {
		var err error
		if o.Dir, err = os.Getwd(); err != nil {
			fmt.Fprintf(errw, "fatal: %v\n", err)
			return 2
		}
	}
	info, _ := debug.ReadBuildInfo()
	o.Version = buildinfo.Describe(info)
	srv, err := mcpserver.New(o)
	if err != nil {
		fmt.Fprintf(errw, "fatal: %v\n", err)
		return 2
	}
	fmt.Fprintf(errw, "git llm-apply mcp: serving %s on standard input and output; this session records on %s\n", srv.Root(), srv.Branch())
	if n := srv.Note(); n != "" {
		fmt.Fprintf(errw, "git llm-apply mcp: %s\n", n)
	}
	if err := srv.Serve(ctx, in, out); err != nil && ctx.Err() == nil {
		fmt.Fprintf(errw, "fatal: %v\n", err)
		return 2
	}
	return 0 // the client closed its end, or a signal said stop: a server's normal end
}
