package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-llm-apply/git-llm-apply/llmapply"
)

// mcpServer is one MCP session's state: the repository and the commits
// apply recorded, by branch, for log and undo.
type mcpServer struct {
	mu       sync.Mutex // one tool call at a time: they share the branch
	dir      string
	root     string
	shellOps bool
	limits   llmapply.Limits
	branch   string
	commits  map[string][]sessionCommit
}

// sessionCommit is a commit apply recorded in this session.
type sessionCommit struct {
	ID       string              `json:"id" jsonschema:"the full commit id"`
	Short    string              `json:"short" jsonschema:"the commit id abbreviated as git shows it"`
	Subject  string              `json:"subject" jsonschema:"the first line of the commit message"`
	Diffstat string              `json:"diffstat" jsonschema:"files changed, insertions and deletions, as git diff --shortstat"`
	Files    []llmapply.FileStat `json:"files" jsonschema:"the changed files: status A, M, D or R and the lines added and deleted"`
}

// The tools' inputs are named as the command line's flags.
type checkInput struct {
	Reply  string `json:"reply" jsonschema:"the model's reply: its edits in any format the formats tool lists, with the prose around them"`
	Format string `json:"format,omitempty" jsonschema:"the reply's format; auto (the default) recognises it"`
	Base   string `json:"base,omitempty" jsonschema:"what the edits are resolved against: the session's branch once apply made it, else index; or worktree, or a revision such as HEAD"`
	Fuzz   string `json:"fuzz,omitempty" jsonschema:"how loosely lines may match: exact, format (the default: each format's own tolerance) or loose"`
}

type checkOutput struct {
	OK     bool            `json:"ok" jsonschema:"every edit resolved (or was already applied): apply would succeed"`
	Report llmapply.Report `json:"report" jsonschema:"what became of the reply and of each edit"`
	Diff   string          `json:"diff" jsonschema:"the git diff apply would record (empty when an edit failed)"`
}

type applyInput struct {
	checkInput
	Branch  string `json:"branch,omitempty" jsonschema:"the branch to record on instead of the session's; appended to when it exists"`
	Onto    string `json:"onto,omitempty" jsonschema:"where a new branch starts (HEAD by default); not for a branch that exists"`
	Message string `json:"message,omitempty" jsonschema:"the commit message instead of the reply's description"`
	Partial bool   `json:"partial,omitempty" jsonschema:"record the edits that resolved even when others failed"`
}

type applyOutput struct {
	OK          bool            `json:"ok" jsonschema:"every edit resolved and the reply is recorded (or was already applied)"`
	Commit      string          `json:"commit" jsonschema:"the full id of the new commit (empty when nothing was recorded)"`
	ShortCommit string          `json:"short_commit" jsonschema:"the commit id abbreviated"`
	Branch      string          `json:"branch" jsonschema:"the branch the commit is on"`
	Diffstat    string          `json:"diffstat" jsonschema:"files changed, insertions and deletions"`
	Report      llmapply.Report `json:"report" jsonschema:"what became of the reply and of each edit"`
}

type translateOutput struct {
	Diff string `json:"diff" jsonschema:"the canonical git diff of the reply's edits; git apply takes it"`
}

type formatsOutput struct {
	Formats []llmapply.Format `json:"formats" jsonschema:"the reply formats, in the order auto-detection prefers them"`
}

type promptInput struct {
	Format string `json:"format" jsonschema:"a format name, as the formats tool lists them"`
}

type promptOutput struct {
	Format string `json:"format"`
	Prompt string `json:"prompt" jsonschema:"the instructions for writing replies in this format, with a worked example"`
}

type branchInput struct {
	Branch string `json:"branch,omitempty" jsonschema:"a branch this session recorded on, instead of the session's"`
}

type logOutput struct {
	Branch  string          `json:"branch" jsonschema:"the branch"`
	Tip     string          `json:"tip" jsonschema:"the commit the branch is at (empty when it does not exist yet)"`
	Commits []sessionCommit `json:"commits" jsonschema:"the commits this session recorded on the branch, oldest first"`
	Moved   bool            `json:"moved" jsonschema:"the branch moved since this session's last commit: someone else changed it"`
}

type undoOutput struct {
	Branch string `json:"branch"`
	Undone string `json:"undone" jsonschema:"the commit taken back (still in the reflog)"`
	Tip    string `json:"tip" jsonschema:"the commit the branch is at now"`
}

func (s *mcpServer) options(format, fuzz string, partial bool) llmapply.Options {
	l := s.limits
	return llmapply.Options{Format: format, Fuzz: fuzz, Partial: partial, ShellOps: s.shellOps, Limits: &l}
}

// resolve runs in on the base it names, writing nothing. With no base,
// once the session's branch exists, that is its tip, which apply would
// resolve the reply against: check then says what apply would do.
func (s *mcpServer) resolve(ctx context.Context, in checkInput) (*llmapply.Result, error) {
	repo, err := llmapply.OpenRepository(s.dir)
	if err != nil {
		return nil, err
	}
	base := in.Base
	if base == "" {
		tip, exists, err := repo.BranchTip(s.branch)
		if err != nil {
			return nil, err
		}
		if exists {
			base = tip
		}
	}
	var src *llmapply.Source
	switch base {
	case "", "index":
		src, err = repo.Index()
	case "worktree":
		src, err = repo.Worktree()
	default:
		src, err = repo.Revision(base)
	}
	if err != nil {
		return nil, err
	}
	return llmapply.Resolve(ctx, in.Reply, src, s.options(in.Format, in.Fuzz, false))
}

// failed is the result of a reply that was read but did not succeed:
// isError, with the report as text, and the structured output too.
func failed(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// shellNote is what a failed reply's report adds when the reply has
// lines a shell block's file commands would be and the server takes
// none: the model is to do those with the format's own operations.
func (s *mcpServer) shellNote(reply string) string {
	if s.shellOps {
		return ""
	}
	for _, l := range strings.Split(reply, "\n") {
		l = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "$"))
		for _, c := range []string{"git rm ", "git mv ", "rm ", "mv "} {
			if strings.HasPrefix(l, c) {
				return "note: shell commands are not run, and this server takes no file operations from them (it was started without --shell-ops): delete and rename files with the format's own operations.\n"
			}
		}
	}
	return ""
}

func textResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

func (s *mcpServer) check(ctx context.Context, _ *mcp.CallToolRequest, in checkInput) (*mcp.CallToolResult, checkOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, err := s.resolve(ctx, in)
	if err != nil {
		return nil, checkOutput{}, err
	}
	out := checkOutput{OK: res.OK(), Report: res.Report, Diff: res.Diff}
	text := res.Report.String()
	if !out.OK {
		return failed(text + s.shellNote(in.Reply)), out, nil
	}
	return textResult(text + res.Diff), out, nil
}

func (s *mcpServer) translate(ctx context.Context, _ *mcp.CallToolRequest, in checkInput) (*mcp.CallToolResult, translateOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	res, err := s.resolve(ctx, in)
	if err != nil {
		return nil, translateOutput{}, err
	}
	if !res.OK() {
		return failed(res.Report.String() + s.shellNote(in.Reply)), translateOutput{}, nil
	}
	return textResult(res.Diff), translateOutput{Diff: res.Diff}, nil
}

func (s *mcpServer) apply(ctx context.Context, _ *mcp.CallToolRequest, in applyInput) (*mcp.CallToolResult, applyOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, err := llmapply.OpenRepository(s.dir)
	if err != nil {
		return nil, applyOutput{}, err
	}
	branch := in.Branch
	if branch == "" {
		branch = s.branch
	}
	res, err := repo.Record(ctx, in.Reply, llmapply.RecordOptions{Options: s.options(in.Format, in.Fuzz, in.Partial),
		Branch: branch, Onto: in.Onto, Base: in.Base, Message: in.Message})
	if err != nil {
		return nil, applyOutput{}, err
	}
	out := applyOutput{OK: res.OK(), Commit: res.Commit, Branch: branch, Diffstat: shortstat(res.Report.Files), Report: res.Report}
	text := res.Report.String()
	if res.Commit != "" {
		out.ShortCommit = repo.ShortID(res.Commit)
		s.commits[branch] = append(s.commits[branch], sessionCommit{ID: res.Commit, Short: out.ShortCommit,
			Subject: subjectOf(in.Message, res.Report.Description), Diffstat: out.Diffstat, Files: res.Report.Files})
		text += fmt.Sprintf("Recorded as %s on %s (%s). Review with: git log -p %s\n", out.ShortCommit, branch, out.Diffstat, branch)
	}
	if !out.OK {
		return failed(text + s.shellNote(in.Reply)), out, nil
	}
	return textResult(text), out, nil
}

// subjectOf is the first line of the commit message.
func subjectOf(message, description string) string {
	m := message
	if m == "" {
		m = description
	}
	m, _, _ = strings.Cut(strings.TrimSpace(m), "\n")
	return m
}

// shortstat is git diff --shortstat's line for files.
func shortstat(files []llmapply.FileStat) string {
	if len(files) == 0 {
		return ""
	}
	add, del := 0, 0
	for _, f := range files {
		add, del = add+f.Added, del+f.Deleted
	}
	out := plural(len(files), "file", "files") + " changed"
	if add > 0 || del == 0 {
		out += ", " + plural(add, "insertion(+)", "insertions(+)")
	}
	if del > 0 {
		out += ", " + plural(del, "deletion(-)", "deletions(-)")
	}
	return out
}

func (s *mcpServer) formats(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, formatsOutput, error) {
	out := formatsOutput{Formats: llmapply.Formats()}
	var b strings.Builder
	for _, f := range out.Formats {
		fmt.Fprintf(&b, "%s: %s (%s)\n", f.Name, f.Markers, f.Spec)
	}
	return textResult(b.String()), out, nil
}

func (s *mcpServer) prompt(_ context.Context, _ *mcp.CallToolRequest, in promptInput) (*mcp.CallToolResult, promptOutput, error) {
	p, err := llmapply.Prompt(in.Format)
	if err != nil {
		return nil, promptOutput{}, err
	}
	return textResult(p), promptOutput{Format: in.Format, Prompt: p}, nil
}

func (s *mcpServer) branchOf(in branchInput) string {
	if in.Branch != "" {
		return in.Branch
	}
	return s.branch
}

func (s *mcpServer) log(_ context.Context, _ *mcp.CallToolRequest, in branchInput) (*mcp.CallToolResult, logOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, err := llmapply.OpenRepository(s.dir)
	if err != nil {
		return nil, logOutput{}, err
	}
	out := logOutput{Branch: s.branchOf(in), Commits: append([]sessionCommit{}, s.commits[s.branchOf(in)]...)}
	tip, _, err := repo.BranchTip(out.Branch)
	if err != nil {
		return nil, logOutput{}, err
	}
	out.Tip = tip
	var b strings.Builder
	if len(out.Commits) == 0 {
		fmt.Fprintf(&b, "This session has recorded nothing on %s yet.\n", out.Branch)
	}
	for _, c := range out.Commits {
		fmt.Fprintf(&b, "%s %s (%s)\n", c.Short, c.Subject, c.Diffstat)
	}
	if n := len(out.Commits); n > 0 && out.Commits[n-1].ID != tip {
		out.Moved = true
		fmt.Fprintf(&b, "%s has moved since (it is at %s): someone else changed it.\n", out.Branch, orNone(repo.ShortID(tip)))
	}
	return textResult(b.String()), out, nil
}

func orNone(id string) string {
	if id == "" {
		return "nothing: it was deleted"
	}
	return id
}

func (s *mcpServer) undo(_ context.Context, _ *mcp.CallToolRequest, in branchInput) (*mcp.CallToolResult, undoOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	branch := s.branchOf(in)
	cs := s.commits[branch]
	if len(cs) == 0 {
		return nil, undoOutput{}, fmt.Errorf("this session has recorded nothing on %s to undo", branch)
	}
	repo, err := llmapply.OpenRepository(s.dir)
	if err != nil {
		return nil, undoOutput{}, err
	}
	last := cs[len(cs)-1]
	parent, err := repo.Undo(branch, last.ID)
	if errors.Is(err, llmapply.ErrBranchMoved) {
		return nil, undoOutput{}, fmt.Errorf("%s moved since this session's last commit %s (someone else changed it); nothing was undone: %w", branch, last.Short, err)
	}
	if err != nil {
		return nil, undoOutput{}, err
	}
	s.commits[branch] = cs[:len(cs)-1]
	out := undoOutput{Branch: branch, Undone: last.ID, Tip: parent}
	return textResult(fmt.Sprintf("%s is back at %s; %s %s is taken back (git reflog %s still shows it).\n",
		branch, repo.ShortID(parent), last.Short, last.Subject, branch)), out, nil
}
