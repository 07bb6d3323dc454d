package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/llmapply"
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

--config HOST prints the configuration that starts this binary's mcp
for claude (Claude Code's .mcp.json), codex (~/.codex/config.toml),
cursor (.cursor/mcp.json) or gemini (.gemini/settings.json), with its
absolute path, and exits.`,
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
			if host := cmd.String("config"); cmd.IsSet("config") {
				exe, err := executable()
				if err != nil {
					return err
				}
				return writeMCPConfig(s.out, s.err, host, exe)
			}
			dir, arg := startOf(cmd)
			if err := checkStartDir(dir, arg); err != nil {
				return err
			}
			if dir == "" {
				var err error
				if dir, err = os.Getwd(); err != nil {
					return err
				}
			}
			limits, err := readLimits(cmd)
			if err != nil {
				return err
			}
			srv, err := newMCPServer(mcpOptions{Dir: dir, Branch: cmd.String("branch"), ShellOps: cmd.Bool("shell-ops"), Worktree: cmd.String("worktree"),
				Limits: llmapply.Limits{ReplySize: limits.ReplySize, FileSize: limits.FileSize, LineLength: limits.LineLength, Edits: limits.Edits}})
			if err != nil {
				return err // exit 2, as every error of the repository (exitCode)
			}
			fmt.Fprintf(s.err, "git llm-apply mcp: serving %s on standard input and output; this session records on %s\n", srv.root, srv.branch)
			if srv.note != "" {
				fmt.Fprintf(s.err, "git llm-apply mcp: %s\n", srv.note)
			}
			err = srv.server().Run(ctx, filteredStdio(s.in, s.out))
			if ctx.Err() != nil {
				return nil // told to stop (SIGINT, SIGTERM): a server's normal end
			}
			return err // nil when the client closed its end
		},
	}
}

// mcpOptions are the server's flags.
type mcpOptions struct {
	Dir      string
	Branch   string // -b; "" names one for the session
	ShellOps bool
	Worktree string // --worktree; "" for none
	Limits   llmapply.Limits
}

// newMCPServer checks the repository and names the session's branch.
func newMCPServer(o mcpOptions) (*mcpServer, error) {
	repo, err := llmapply.OpenRepository(o.Dir)
	if err != nil {
		return nil, err
	}
	s := &mcpServer{dir: o.Dir, root: repo.Root(), shellOps: o.ShellOps, limits: o.Limits, branch: o.Branch, repo: repo}
	if s.root == "" {
		return nil, fmt.Errorf("%s is a bare repository: the server needs a working tree to serve", o.Dir)
	}
	if s.branch == "" {
		var r [3]byte
		rand.Read(r[:])
		name := "llm/mcp-" + time.Now().Format("20060102-150405") + "-" + hex.EncodeToString(r[:])
		if s.branch, err = repo.FreeBranch(name); err != nil {
			return nil, err
		}
	} else if _, err := repo.FreeBranch(s.branch); err != nil {
		return nil, err // not a valid branch name
	}
	if o.Worktree != "" {
		if s.note, err = s.setWorktree(context.Background(), repo, o.Worktree); err != nil {
			return nil, usageError("--worktree %s: %v", o.Worktree, err)
		}
	} else if linked, ok := repo.LinkedWorktree(s.branch); ok {
		s.worktree = linked // -b names a branch a worktree has: it follows
	}
	return s, nil
}

// version is what git llm-apply version says of the build, for the
// MCP handshake.
func version() string {
	info, _ := debug.ReadBuildInfo()
	return describeBuild(info)
}

// server is the MCP server with the tools registered.
func (s *mcpServer) server() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "git-llm-apply", Title: "git llm-apply", Version: version()}, &mcp.ServerOptions{
		Instructions: "Edits to the repository at " + s.root + " go through this server as replies in one of the formats the formats tool lists " +
			"(get the instructions for one with prompt). check resolves a reply as apply would (against the session's branch once it exists) and shows what would change, writing nothing; " +
			"apply records it as one commit on the session's branch (" + s.branch + "); log lists this session's commits and undo takes the last one back. " +
			"read gives a file as the session's branch has it, with line numbers: quote lines from there, not from a copy read before an apply. " +
			"workspace says where the branch is checked out (a linked worktree that follows it after each apply and undo, for reading files and running tests there) and can make one. " +
			"A failed edit comes back with the closest lines of the file: send it again with its lines copied exactly from them. " +
			"The user's checkout, index and HEAD are never changed.",
	})
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: new(bool)}
	writes := &mcp.ToolAnnotations{DestructiveHint: new(bool), OpenWorldHint: new(bool)}
	mcp.AddTool(srv, &mcp.Tool{Name: "check", Annotations: readOnly, Description: "Resolve the edits of a model reply against the repository " +
		"(the index unless base says otherwise) and report each edit: applied or failed, how it matched (rung), why it failed, the closest lines of the file, " +
		"and the diff apply would record. Writes nothing."}, guard(s.check))
	mcp.AddTool(srv, &mcp.Tool{Name: "apply", Annotations: writes, Description: "Record a model reply as one commit on the session's branch " +
		"(or branch), appended to the commits of earlier apply calls; the checkout, index and HEAD are not changed. " +
		"Returns the commit, the branch, the diffstat and the report; a failed edit records nothing (unless partial) and gets the same report as check."}, guard(s.apply))
	mcp.AddTool(srv, &mcp.Tool{Name: "translate", Annotations: readOnly, Description: "The canonical git diff of a model reply's edits, " +
		"resolved as check does. Writes nothing."}, guard(s.translate))
	mcp.AddTool(srv, &mcp.Tool{Name: "formats", Annotations: readOnly, Description: "The reply formats this server reads, " +
		"how each is recognised and the specification it follows."}, guard(s.formats))
	mcp.AddTool(srv, &mcp.Tool{Name: "prompt", Annotations: readOnly, Description: "The instructions for writing replies in one format, " +
		"with a worked example."}, guard(s.prompt))
	mcp.AddTool(srv, &mcp.Tool{Name: "log", Annotations: readOnly, Description: "The commits this session recorded on its branch " +
		"(or branch), oldest first: id, subject and diffstat."}, guard(s.log))
	mcp.AddTool(srv, &mcp.Tool{Name: "read", Annotations: readOnly, Description: "A file as it stands at the tip of the session's branch " +
		"(the index before the first apply), with line numbers (from and to choose lines): the lines apply resolves the next edit against."}, guard(s.read))
	mcp.AddTool(srv, &mcp.Tool{Name: "workspace", Annotations: &mcp.ToolAnnotations{DestructiveHint: new(bool), IdempotentHint: true, OpenWorldHint: new(bool)},
		Description: "The session's workspace: its branch, the commit it is at, and the linked worktree where it is checked out, whose files follow the branch " +
			"after each apply and undo (files changed there are never overwritten). Give worktree (a new or empty directory) to have one."}, guard(s.workspace))
	// undo takes a commit off the branch: clients ask their user first.
	destroys := true
	mcp.AddTool(srv, &mcp.Tool{Name: "undo", Annotations: &mcp.ToolAnnotations{DestructiveHint: &destroys, OpenWorldHint: new(bool)},
		Description: "Move the session's branch (or branch) back one commit, taking back this session's last apply. " +
			"Refused when the branch moved since (someone else committed). The commit stays in the reflog."}, guard(s.undo))
	return srv
}

// guard turns a panic of a tool into an error result: one bad input
// must not end the session. A result with text of its own gets its
// structured output serialized as JSON in a second text block, as MCP
// asks of a tool that returns structured content (2025-06-18, Tools,
// Structured Content; SPEC section 2, mcp).
func guard[In, Out any](h mcp.ToolHandlerFor[In, Out]) mcp.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *mcp.CallToolRequest, in In) (res *mcp.CallToolResult, out Out, err error) {
		defer func() {
			if p := recover(); p != nil {
				var zero Out
				res, out, err = nil, zero, fmt.Errorf("internal error (a bug in git llm-apply; please report it): %v\n%s", p, debug.Stack())
			}
		}()
		res, out, err = h(ctx, req, in)
		if err == nil && res != nil && res.Content != nil {
			b, jerr := json.Marshal(out)
			if jerr != nil {
				return nil, out, jerr
			}
			res.Content = append(res.Content, &mcp.TextContent{Text: string(b)})
		}
		return res, out, err
	}
}
