package mcpserver

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"runtime/debug"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-llm-apply/git-llm-apply/llmapply"
)

// Options are the server's: git llm-apply mcp's flags.
type Options struct {
	Dir      string // the directory the repository is found from
	Branch   string // -b; "" names one for the session
	ShellOps bool
	Worktree string // --worktree, relative to Dir; "" for none
	Limits   llmapply.Limits
	// Version is what the server calls itself in the MCP handshake.
	Version string
}

// New opens the repository, checks that it has a working tree, names
// the session's branch (or checks the name given) and sets up the
// worktree asked for. Its errors say what is wrong in the user's
// words; the command exits 2 with any of them (SPEC section 2, mcp).
func New(o Options) (*Server, error) {
	repo, err := llmapply.OpenRepository(o.Dir)
	if err != nil {
		return nil, err
	}
	s := &Server{dir: o.Dir, root: repo.Root(), shellOps: o.ShellOps, limits: o.Limits, branch: o.Branch, repo: repo, version: o.Version}
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
			return nil, fmt.Errorf("--worktree %s: %v", o.Worktree, err)
		}
	} else if linked, ok := repo.LinkedWorktree(s.branch); ok {
		s.worktree = linked // -b names a branch a worktree has: it follows
	}
	return s, nil
}

// Root is the top of the working tree the session serves.
func (s *Server) Root() string { return s.root }

// Branch is the session's branch.
func (s *Server) Branch() string { return s.branch }

// Note is what --worktree did, for the start-up line ("" for nothing).
func (s *Server) Note() string { return s.note }

// Serve answers the MCP requests on in, one JSON-RPC message a line,
// on out, until in ends (nil) or ctx does (ctx's error). A line that
// is no JSON-RPC message is answered with an error, and the session
// goes on (rpcFilter).
func (s *Server) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	err := s.MCP().Run(ctx, filteredStdio(in, out))
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// MCP is the MCP server with the tools registered, for a transport of
// the caller's (tests use the SDK's in-memory one).
func (s *Server) MCP() *mcp.Server {
	srv := mcp.NewServer(&mcp.Implementation{Name: "git-llm-apply", Title: "git llm-apply", Version: s.version}, &mcp.ServerOptions{
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
