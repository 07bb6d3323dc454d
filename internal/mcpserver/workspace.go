package mcpserver

// The session's workspace: the linked worktree that follows the
// session's branch, the read tool, and the host configurations that
// start the server.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-llm-apply/git-llm-apply/llmapply"
)

// WorktreeState is the worktree that follows a branch after an apply
// or undo.
type WorktreeState struct {
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
func (s *Server) follow(ctx context.Context, repo *llmapply.Repository, branch, follow, from, to string) *WorktreeState {
	if follow == "" {
		if branch != s.branch || s.worktree == "" {
			return nil
		}
		st := &WorktreeState{Path: s.worktree}
		if err := repo.AddWorktree(ctx, s.worktree, branch); err != nil {
			st.Note = fmt.Sprintf("The worktree at %s could not be added: %v", s.worktree, err)
			return st
		}
		st.Current = true
		st.Note = fmt.Sprintf("Added a worktree at %s with %s checked out: its files are the branch's, for reading and running tests.", s.worktree, branch)
		return st
	}
	st := &WorktreeState{Path: follow}
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
func (s *Server) setWorktree(ctx context.Context, repo *llmapply.Repository, path string) (string, error) {
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

// WorkspaceOutput is the structured output of the workspace tool.
type WorkspaceOutput struct {
	Root     string `json:"root" jsonschema:"the top of the repository's working tree (the user's checkout, which the server never changes)"`
	Branch   string `json:"branch" jsonschema:"the session's branch"`
	Tip      string `json:"tip" jsonschema:"the commit the branch is at (empty before the first apply)"`
	Worktree string `json:"worktree,omitempty" jsonschema:"the linked worktree that follows the branch: after each apply and undo its files are the branch's"`
	Note     string `json:"note" jsonschema:"the workspace in words"`
}

func (s *Server) workspace(ctx context.Context, _ *mcp.CallToolRequest, in workspaceInput) (*mcp.CallToolResult, WorkspaceOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, err := s.repository()
	if err != nil {
		return nil, WorkspaceOutput{}, err
	}
	out := WorkspaceOutput{Root: s.root, Branch: s.branch}
	if in.Worktree != "" {
		if out.Note, err = s.setWorktree(ctx, repo, in.Worktree); err != nil {
			return nil, WorkspaceOutput{}, err
		}
	}
	out.Tip, _, err = repo.BranchTip(s.branch)
	if err != nil {
		return nil, WorkspaceOutput{}, err
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

// ReadOutput is the structured output of the read tool.
type ReadOutput struct {
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
func (s *Server) read(_ context.Context, _ *mcp.CallToolRequest, in readInput) (*mcp.CallToolResult, ReadOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, err := s.repository()
	if err != nil {
		return nil, ReadOutput{}, err
	}
	branch := in.Branch
	if branch == "" {
		branch = s.branch
	}
	p := s.repoPath(repo, branch, in.Path)
	tip, exists, err := repo.BranchTip(branch)
	if err != nil {
		return nil, ReadOutput{}, err
	}
	var src *llmapply.Source
	out := ReadOutput{Path: p}
	if exists {
		src, err = repo.Revision(tip)
		out.Of = s.branchAt(repo, branch, tip)
	} else {
		src, err = repo.Index()
		out.Of = "the files staged in the index (" + branch + " does not exist yet)"
	}
	if err != nil {
		return nil, ReadOutput{}, err
	}
	data, err := src.ReadFile(p)
	if err != nil {
		return nil, ReadOutput{}, err
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return nil, ReadOutput{}, fmt.Errorf("%s is a binary file", p)
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
		return nil, ReadOutput{}, fmt.Errorf("%s has %d lines: there is no line %d", p, out.Lines, out.From)
	case out.To < out.From:
		return nil, ReadOutput{}, fmt.Errorf("to (%d) is before from (%d)", out.To, out.From)
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
func (s *Server) repoPath(repo *llmapply.Repository, branch, p string) string {
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
