package main

// The session's workspace: the linked worktree that follows the
// session's branch, the read tool, and the host configurations that
// start the server.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-llm-apply/git-llm-apply/llmapply"
)

// worktreeState is the worktree that follows a branch after an apply
// or undo.
type worktreeState struct {
	Path string `json:"path" jsonschema:"the top of the linked worktree where the branch is checked out"`
	// Current says its files are the branch's: false when files of its
	// own stopped the update (Kept names them).
	Current bool     `json:"current" jsonschema:"its files are the branch's now"`
	Kept    []string `json:"kept,omitempty" jsonschema:"files with changes of their own there, which the update did not overwrite; the worktree was not updated"`
	Note    string   `json:"note" jsonschema:"what happened to the worktree, in words"`
}

// follow brings the worktree along after the branch moved from from to
// to (SPEC section 3, worktrees): the linked worktree where it was
// checked out (follow), else, for the session's branch, the worktree
// asked for, added now that the branch exists. nil when there is none.
func (s *mcpServer) follow(ctx context.Context, repo *llmapply.Repository, branch, follow, from, to string) *worktreeState {
	if follow == "" {
		if branch != s.branch || s.worktree == "" {
			return nil
		}
		st := &worktreeState{Path: s.worktree}
		if err := repo.AddWorktree(ctx, s.worktree, branch); err != nil {
			st.Note = fmt.Sprintf("The worktree at %s could not be added: %v", s.worktree, err)
			return st
		}
		st.Current = true
		st.Note = fmt.Sprintf("Added a worktree at %s with %s checked out: its files are the branch's, for reading and running tests.", s.worktree, branch)
		return st
	}
	st := &worktreeState{Path: follow}
	var lc *llmapply.WorktreeChangesError
	switch err := repo.UpdateWorktree(ctx, follow, from, to); {
	case errors.As(err, &lc):
		st.Kept = lc.Paths
		st.Note = fmt.Sprintf("The worktree at %s was not updated, so that the changes there are kept: %s %s changes of its own. To bring it up to date once they are committed, stashed or removed, run there: git read-tree -m -u %s %s",
			follow, strings.Join(lc.Paths, ", "), map[bool]string{true: "has", false: "have"}[len(lc.Paths) == 1], repo.ShortID(from), repo.ShortID(to))
	case err != nil:
		st.Note = fmt.Sprintf("The worktree at %s could not be brought up to date: %v", follow, err)
	default:
		st.Current = true
		st.Note = fmt.Sprintf("Updated the worktree at %s: its files are the branch's.", follow)
	}
	return st
}

// setWorktree makes path (relative to the server's directory) the
// session's worktree: added now when the branch exists and is checked
// out nowhere, kept when it is checked out there already; else added
// by the first apply that records. It returns what to tell the agent.
func (s *mcpServer) setWorktree(ctx context.Context, repo *llmapply.Repository, path string) (string, error) {
	abs, err := filepath.Abs(under(s.dir, path))
	if err != nil {
		return "", err
	}
	_, exists, err := repo.BranchTip(s.branch)
	if err != nil {
		return "", err
	}
	if exists {
		if at, ok := repo.CheckedOutAt(s.branch); ok {
			if linked, ok := repo.LinkedWorktree(s.branch); ok && sameDir(linked, abs) {
				s.worktree = linked
				return fmt.Sprintf("%s is checked out in the worktree at %s; it follows the branch.", s.branch, linked), nil
			}
			return "", fmt.Errorf("%s is already checked out in the worktree at %s, and a branch can be checked out in one worktree only", s.branch, at)
		}
		if err := repo.AddWorktree(ctx, abs, s.branch); err != nil {
			return "", fmt.Errorf("the worktree could not be added at %s: %w", abs, err)
		}
		s.worktree = abs
		return fmt.Sprintf("Added a worktree at %s with %s checked out; it follows the branch.", abs, s.branch), nil
	}
	switch ents, err := os.ReadDir(abs); {
	case err == nil && len(ents) > 0:
		return "", fmt.Errorf("%s exists and is not empty: a new worktree needs a new or empty directory", abs)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return "", err
	}
	s.worktree = abs
	return fmt.Sprintf("The first apply that records adds a worktree at %s with %s checked out; it then follows the branch.", abs, s.branch), nil
}

// sameDir reports whether a and b name the same directory.
func sameDir(a, b string) bool {
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

type workspaceInput struct {
	Worktree string `json:"worktree,omitempty" jsonschema:"a directory (new or empty) where the session's branch is to be checked out as a linked worktree that follows it; relative to the repository's top. Omit it to see the workspace"`
}

type workspaceOutput struct {
	Root     string `json:"root" jsonschema:"the top of the repository's working tree (the user's checkout, which the server never changes)"`
	Branch   string `json:"branch" jsonschema:"the session's branch"`
	Tip      string `json:"tip" jsonschema:"the commit the branch is at (empty before the first apply)"`
	Worktree string `json:"worktree,omitempty" jsonschema:"the linked worktree that follows the branch: after each apply and undo its files are the branch's"`
	Note     string `json:"note" jsonschema:"the workspace in words"`
}

func (s *mcpServer) workspace(ctx context.Context, _ *mcp.CallToolRequest, in workspaceInput) (*mcp.CallToolResult, workspaceOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, err := s.repository()
	if err != nil {
		return nil, workspaceOutput{}, err
	}
	out := workspaceOutput{Root: s.root, Branch: s.branch}
	if in.Worktree != "" {
		if out.Note, err = s.setWorktree(ctx, repo, in.Worktree); err != nil {
			return nil, workspaceOutput{}, err
		}
	}
	out.Tip, _, err = repo.BranchTip(s.branch)
	if err != nil {
		return nil, workspaceOutput{}, err
	}
	if linked, ok := repo.LinkedWorktree(s.branch); ok {
		out.Worktree = linked
	} else {
		out.Worktree = s.worktree
	}
	if out.Note == "" {
		switch {
		case out.Worktree == "":
			out.Note = fmt.Sprintf("This session records on %s; no worktree follows it (give worktree to have one). The read tool reads the branch's files.", s.branch)
		case out.Tip == "":
			out.Note = fmt.Sprintf("This session records on %s; the first apply that records adds a worktree at %s.", s.branch, out.Worktree)
		default:
			out.Note = fmt.Sprintf("This session records on %s, checked out in the worktree at %s, which follows it.", s.branch, out.Worktree)
		}
	}
	return textResult(out.Note + "\n"), out, nil
}

type readInput struct {
	Path   string `json:"path" jsonschema:"the file's path relative to the repository's top (or absolute, inside the repository or the session's worktree)"`
	From   int    `json:"from,omitempty" jsonschema:"the first line to read, from 1 (default 1)"`
	To     int    `json:"to,omitempty" jsonschema:"the last line to read (default: the last, at most 2000 lines from the first)"`
	Branch string `json:"branch,omitempty" jsonschema:"a branch to read instead of the session's"`
}

type readOutput struct {
	Path  string `json:"path"`
	Of    string `json:"of" jsonschema:"the version read: the session's branch at a commit, or the index before the first apply"`
	From  int    `json:"from" jsonschema:"the first line given"`
	To    int    `json:"to" jsonschema:"the last line given"`
	Lines int    `json:"lines" jsonschema:"the number of lines of the file"`
	Text  string `json:"text" jsonschema:"the lines, each after its number and a tab, as cat -n shows them"`
}

// readLimit is how many lines read gives when not asked for more.
const readLimit = 2000

// read returns a file as it stands at the session branch's tip (the
// index before the branch exists), with line numbers, so that an agent
// quotes the lines the next apply resolves against (SPEC section 2,
// mcp).
func (s *mcpServer) read(_ context.Context, _ *mcp.CallToolRequest, in readInput) (*mcp.CallToolResult, readOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, err := s.repository()
	if err != nil {
		return nil, readOutput{}, err
	}
	branch := in.Branch
	if branch == "" {
		branch = s.branch
	}
	p := s.repoPath(repo, branch, in.Path)
	tip, exists, err := repo.BranchTip(branch)
	if err != nil {
		return nil, readOutput{}, err
	}
	var src *llmapply.Source
	out := readOutput{Path: p}
	if exists {
		src, err = repo.Revision(tip)
		out.Of = s.branchAt(repo, branch, tip)
	} else {
		src, err = repo.Index()
		out.Of = "the files staged in the index (" + branch + " does not exist yet)"
	}
	if err != nil {
		return nil, readOutput{}, err
	}
	data, err := src.ReadFile(p)
	if err != nil {
		return nil, readOutput{}, err
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return nil, readOutput{}, fmt.Errorf("%s is a binary file", p)
	}
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	out.Lines = len(lines)
	out.From, out.To = max(in.From, 1), in.To
	if out.To == 0 {
		out.To = out.From + readLimit - 1
	}
	out.To = min(out.To, out.Lines)
	switch {
	case out.Lines == 0:
		out.From, out.To = 0, 0
	case out.From > out.Lines:
		return nil, readOutput{}, fmt.Errorf("%s has %d lines: there is no line %d", p, out.Lines, out.From)
	case out.To < out.From:
		return nil, readOutput{}, fmt.Errorf("to (%d) is before from (%d)", out.To, out.From)
	}
	var b strings.Builder
	for n := out.From; n >= 1 && n <= out.To; n++ {
		fmt.Fprintf(&b, "%6d\t%s", n, strings.TrimSuffix(lines[n-1], "\n"))
		b.WriteByte('\n')
	}
	out.Text = b.String()
	head := fmt.Sprintf("%s, lines %d-%d of %d, as in %s:\n", p, out.From, out.To, out.Lines, out.Of)
	if out.Lines == 0 {
		head = fmt.Sprintf("%s is empty in %s.\n", p, out.Of)
	}
	return textResult(head + out.Text), out, nil
}

// repoPath is p relative to the repository's top: an absolute path
// inside the repository or inside the worktree of branch is made
// relative; anything else is left for ReadFile to refuse.
func (s *mcpServer) repoPath(repo *llmapply.Repository, branch, p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	tops := []string{s.root}
	if linked, ok := repo.LinkedWorktree(branch); ok {
		tops = append(tops, linked)
	}
	for _, top := range tops {
		if rel, err := filepath.Rel(top, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return p
}

// mcpHosts are the hosts mcp --config writes a configuration for, and
// where each reads it.
var mcpHosts = map[string]string{
	"claude": ".mcp.json at the project's top (Claude Code; or run: claude mcp add git-llm-apply -- %s mcp)",
	"codex":  "~/.codex/config.toml (Codex CLI; or .codex/config.toml in a trusted project)",
	"cursor": ".cursor/mcp.json in the project (Cursor; or ~/.cursor/mcp.json for every project)",
	"gemini": ".gemini/settings.json in the project (Gemini CLI; or ~/.gemini/settings.json), merged into what it holds",
}

// writeMCPConfig writes host's configuration that starts this binary's
// mcp command to out, and where it goes to note (SPEC section 2, mcp).
// No -C: Claude Code, Codex and Gemini CLI start the server in the
// session's directory, so one configuration serves every repository;
// Cursor names the project with ${workspaceFolder}, which it fills in.
func writeMCPConfig(out, note io.Writer, host, exe string) error {
	where, ok := mcpHosts[host]
	if !ok {
		return usageError("--config %s: no such host; the hosts are claude, codex, cursor and gemini", host)
	}
	switch host {
	case "codex":
		fmt.Fprintf(out, "[mcp_servers.git-llm-apply]\ncommand = %s\nargs = [\"mcp\"]\n", tomlString(exe))
	default:
		args := []string{"mcp"}
		if host == "cursor" {
			args = []string{"-C", "${workspaceFolder}", "mcp"}
		}
		cfg := map[string]any{"mcpServers": map[string]any{"git-llm-apply": map[string]any{"command": exe, "args": args}}}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(cfg); err != nil {
			return err
		}
		out.Write(b.Bytes())
	}
	if strings.Contains(where, "%s") {
		where = fmt.Sprintf(where, shellArg(exe))
	}
	fmt.Fprintf(note, "Put this in %s.\n", where)
	return nil
}

// tomlString is s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, "\\u%04X", r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// executable is this binary's absolute path, links resolved.
func executable() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return filepath.Abs(exe)
}
