package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/git-llm-apply/git-llm-apply/llmapply"
)

// Server is one MCP session's state: the repository, the session's
// branch and the worktree that follows it. The commits of the session
// are the branch's own: those that carry its trailer (sessionTrailer),
// so that a new server process on the same branch lists and undoes
// what an earlier one recorded.
type Server struct {
	mu       sync.Mutex // one tool call at a time: they share the branch
	dir      string
	root     string
	shellOps bool
	limits   llmapply.Limits
	branch   string
	// worktree is where the session's branch is to be checked out (an
	// absolute path; --worktree or the workspace tool), "" for none.
	worktree string
	note     string // what --worktree did, for the start-up line
	// repo stays open for the session: its object store, packed-object
	// count and the commits the history walks read are kept between
	// calls (repository).
	repo    *llmapply.Repository
	version string // Options.Version
}

// repository is the session's repository, opened again when its
// configuration changed since the last call (SPEC section 2, mcp):
// config edits take effect at the next call, as for a new git command.
func (s *Server) repository() (*llmapply.Repository, error) {
	if _, err := s.repo.Refresh(); err != nil {
		return nil, err
	}
	return s.repo, nil
}

// sessionTrailer is the trailer apply adds to each commit it records,
// with the branch's name as its value: the commits of an MCP session on
// a branch are those of its last 100 first-parent commits that carry
// it (SPEC section 2, mcp).
const sessionTrailer = "LLM-MCP-Branch"

// SessionCommit is a commit of the session.
type SessionCommit struct {
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

// CheckOutput is the structured output of the check tool.
type CheckOutput struct {
	OK bool `json:"ok" jsonschema:"every edit resolved (or was already applied): apply would succeed"`
	// Advice is the report in words, as the text content says it: some
	// hosts (Codex) hand the model only the structured content.
	Advice  string          `json:"advice" jsonschema:"the report in words: what failed, where (with the closest lines of the file), and what to send next"`
	LinesOf string          `json:"lines_of" jsonschema:"the file versions the line numbers speak of: the session's branch at a commit, the index, or a revision"`
	Report  llmapply.Report `json:"report" jsonschema:"what became of the reply and of each edit"`
	Diff    string          `json:"diff" jsonschema:"the git diff apply would record (empty when an edit failed)"`
}

type applyInput struct {
	checkInput
	Branch  string `json:"branch,omitempty" jsonschema:"the branch to record on instead of the session's; appended to when it exists"`
	Onto    string `json:"onto,omitempty" jsonschema:"where a new branch starts (HEAD by default); not for a branch that exists"`
	Message string `json:"message,omitempty" jsonschema:"the commit message instead of the reply's description"`
	Partial bool   `json:"partial,omitempty" jsonschema:"record the edits that resolved even when others failed"`
}

// ApplyOutput is the structured output of the apply tool.
type ApplyOutput struct {
	OK          bool            `json:"ok" jsonschema:"every edit resolved and the reply is recorded (or was already applied)"`
	Advice      string          `json:"advice" jsonschema:"the report in words: what was recorded and how to review it, or what failed, where (with the closest lines of the file), and what to send next"`
	LinesOf     string          `json:"lines_of" jsonschema:"the file versions the line numbers speak of: the session's branch at a commit, or what a new branch starts from"`
	Worktree    *WorktreeState  `json:"worktree,omitempty" jsonschema:"the worktree that follows the branch, and whether its files are the new commit's"`
	Commit      string          `json:"commit" jsonschema:"the full id of the new commit (empty when nothing was recorded)"`
	ShortCommit string          `json:"short_commit" jsonschema:"the commit id abbreviated"`
	Branch      string          `json:"branch" jsonschema:"the branch the commit is on"`
	Diffstat    string          `json:"diffstat" jsonschema:"files changed, insertions and deletions"`
	Report      llmapply.Report `json:"report" jsonschema:"what became of the reply and of each edit"`
}

// TranslateOutput is the structured output of the translate tool.
type TranslateOutput struct {
	Diff   string `json:"diff" jsonschema:"the canonical git diff of the reply's edits; git apply takes it"`
	Advice string `json:"advice,omitempty" jsonschema:"when an edit failed: what failed, where, and what to send next"`
}

// FormatsOutput is the structured output of the formats tool.
type FormatsOutput struct {
	Formats []llmapply.Format `json:"formats" jsonschema:"the reply formats, in the order auto-detection prefers them"`
}

type promptInput struct {
	Format string `json:"format" jsonschema:"a format name, as the formats tool lists them"`
}

// PromptOutput is the structured output of the prompt tool.
type PromptOutput struct {
	Format string `json:"format"`
	Prompt string `json:"prompt" jsonschema:"the instructions for writing replies in this format, with a worked example"`
}

type branchInput struct {
	Branch string `json:"branch,omitempty" jsonschema:"a branch this session recorded on, instead of the session's"`
}

// LogOutput is the structured output of the log tool.
type LogOutput struct {
	Branch  string          `json:"branch" jsonschema:"the branch"`
	Tip     string          `json:"tip" jsonschema:"the commit the branch is at (empty when it does not exist yet)"`
	Commits []SessionCommit `json:"commits" jsonschema:"the commits this session recorded on the branch, oldest first"`
	Moved   bool            `json:"moved" jsonschema:"the branch moved since this session's last commit: someone else changed it"`
}

// UndoOutput is the structured output of the undo tool.
type UndoOutput struct {
	Branch   string         `json:"branch"`
	Undone   string         `json:"undone" jsonschema:"the commit taken back (still in the reflog)"`
	Tip      string         `json:"tip" jsonschema:"the commit the branch is at now"`
	Worktree *WorktreeState `json:"worktree,omitempty" jsonschema:"the worktree that follows the branch, and whether its files are back at the branch's"`
}

func (s *Server) options(format, fuzz string, partial bool) llmapply.Options {
	l := s.limits
	return llmapply.Options{Format: format, Fuzz: fuzz, Partial: partial, ShellOps: s.shellOps, Limits: &l}
}

// resolve runs in on the base it names, writing nothing. With no base,
// once the session's branch exists, that is its tip, which apply would
// resolve the reply against: check then says what apply would do. It
// returns the words for what the line numbers speak of too.
func (s *Server) resolve(ctx context.Context, repo *llmapply.Repository, in checkInput) (*llmapply.Result, string, error) {
	if err := s.notAPath(in.Reply); err != nil {
		return nil, "", err
	}
	base := in.Base
	linesOf := ""
	if base == "" {
		tip, exists, err := repo.BranchTip(s.branch)
		if err != nil {
			return nil, "", err
		}
		if exists {
			base, linesOf = tip, s.branchAt(repo, s.branch, tip)
		}
	}
	var src *llmapply.Source
	var err error
	switch base {
	case "", "index":
		src, err = repo.Index()
		linesOf = "the files staged in the index"
	case "worktree":
		src, err = repo.Worktree()
		linesOf = "the files of the working tree at " + s.root
	default:
		src, err = repo.Revision(base)
		if linesOf == "" {
			linesOf = "the files of " + base
		}
	}
	if err != nil {
		return nil, "", err
	}
	res, err := llmapply.Resolve(ctx, in.Reply, src, s.options(in.Format, in.Fuzz, false))
	return res, linesOf, err
}

// branchAt names the branch at a commit, as line numbers speak of it.
func (s *Server) branchAt(repo *llmapply.Repository, branch, tip string) string {
	what := "the files of " + branch + " at " + repo.ShortID(tip)
	if branch == s.branch {
		what += ", the session's branch"
	}
	return what
}

// notAPath refuses a reply that is a file's name rather than its text
// (SPEC section 2, mcp): one line naming an existing file, or ending in
// .md, .diff, .patch or .txt. Such a reply holds no edit, and "no edit
// found" would send the agent looking in the wrong place.
func (s *Server) notAPath(reply string) error {
	t := strings.TrimSpace(reply)
	if t == "" || strings.ContainsAny(t, "\n\r") || len(t) > 4096 {
		return nil
	}
	isPath := false
	switch strings.ToLower(filepath.Ext(t)) {
	case ".md", ".diff", ".patch", ".txt":
		isPath = !strings.ContainsAny(t, " \t") || fileExists(t, s.dir, s.root)
	default:
		isPath = fileExists(t, s.dir, s.root)
	}
	if !isPath {
		return nil
	}
	return fmt.Errorf("reply must be the reply's text; this is a file name (%s): send the text of the reply, with its edits, as reply", t)
}

// fileExists reports whether name is a regular file, absolute or under
// one of dirs.
func fileExists(name string, dirs ...string) bool {
	try := []string{name}
	if !filepath.IsAbs(name) {
		try = try[:0]
		for _, d := range dirs {
			try = append(try, filepath.Join(d, name))
		}
	}
	for _, p := range try {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// failed is the result of a reply that was read but did not succeed:
// isError, with the report as text, and the structured output too.
func failed(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

// shellNote is what a failed reply's report adds when the reply has
// lines a shell block's file commands would be and the server takes
// none: the model is to do those with the format's own operations.
func (s *Server) shellNote(reply string) string {
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

// failureText is the report of a reply with a failed edit, as the
// model is to read it: the report, with the hints of stale edits in
// place of a looser fuzz, and which files its line numbers speak of.
func (s *Server) failureText(ctx context.Context, repo *llmapply.Repository, in checkInput, branch string, rep *llmapply.Report, linesOf string) string {
	hints := s.staleHints(ctx, repo, in, branch, rep)
	text := rep.String()
	for _, h := range hints {
		text += "  hint: " + h + "\n"
	}
	for _, e := range rep.Edits {
		if e.Closest != nil && linesOf != "" {
			text += "Line numbers are those of " + linesOf + ".\n"
			break
		}
	}
	return text + s.shellNote(in.Reply)
}

func (s *Server) check(ctx context.Context, _ *mcp.CallToolRequest, in checkInput) (*mcp.CallToolResult, CheckOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, err := s.repository()
	if err != nil {
		return nil, CheckOutput{}, err
	}
	res, linesOf, err := s.resolve(ctx, repo, in)
	if err != nil {
		return nil, CheckOutput{}, err
	}
	out := CheckOutput{OK: res.OK(), Diff: res.Diff, LinesOf: linesOf}
	if !out.OK {
		branch := ""
		if in.Base == "" {
			branch = s.branch
		}
		out.Advice = s.failureText(ctx, repo, in, branch, &res.Report, linesOf)
		out.Report = res.Report
		return failed(out.Advice), out, nil
	}
	out.Report = res.Report
	out.Advice = res.Report.String()
	return textResult(out.Advice + res.Diff), out, nil
}

func (s *Server) translate(ctx context.Context, _ *mcp.CallToolRequest, in checkInput) (*mcp.CallToolResult, TranslateOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, err := s.repository()
	if err != nil {
		return nil, TranslateOutput{}, err
	}
	res, linesOf, err := s.resolve(ctx, repo, in)
	if err != nil {
		return nil, TranslateOutput{}, err
	}
	if !res.OK() {
		branch := ""
		if in.Base == "" {
			branch = s.branch
		}
		out := TranslateOutput{Advice: s.failureText(ctx, repo, in, branch, &res.Report, linesOf)}
		return failed(out.Advice), out, nil
	}
	return textResult(res.Diff), TranslateOutput{Diff: res.Diff}, nil
}

func (s *Server) apply(ctx context.Context, _ *mcp.CallToolRequest, in applyInput) (*mcp.CallToolResult, ApplyOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.notAPath(in.Reply); err != nil {
		return nil, ApplyOutput{}, err
	}
	repo, err := s.repository()
	if err != nil {
		return nil, ApplyOutput{}, err
	}
	branch := in.Branch
	if branch == "" {
		branch = s.branch
	}
	before, exists, err := repo.BranchTip(branch)
	if err != nil {
		return nil, ApplyOutput{}, err
	}
	follow := ""
	if exists {
		follow, _ = repo.LinkedWorktree(branch)
	}
	res, err := repo.Record(ctx, in.Reply, llmapply.RecordOptions{Options: s.options(in.Format, in.Fuzz, in.Partial),
		Branch: branch, Onto: in.Onto, Base: in.Base, Message: in.Message,
		Trailers: []string{sessionTrailer + ": " + branch}, Worktree: follow})
	if err != nil {
		return nil, ApplyOutput{}, err
	}
	out := ApplyOutput{OK: res.OK(), Commit: res.Commit, Branch: branch, Diffstat: shortstat(res.Report.Files), Report: res.Report}
	if exists {
		out.LinesOf = s.branchAt(repo, branch, before)
	} else {
		out.LinesOf = "the files of " + orDefault(in.Base, "the index")
	}
	var text string
	if !out.OK && res.Commit == "" {
		text = s.failureText(ctx, repo, in.checkInput, branch, &out.Report, out.LinesOf)
	} else {
		text = res.Report.String()
	}
	if res.Commit != "" {
		out.ShortCommit = repo.ShortID(res.Commit)
		text += fmt.Sprintf("Recorded as %s on %s (%s). Review with: git log -p %s\n", out.ShortCommit, branch, out.Diffstat,
			shellArg(s.reviewRange(repo, branch, res.Commit)))
		out.Worktree = s.follow(ctx, repo, branch, follow, before, res.Commit)
		if out.Worktree != nil {
			text += out.Worktree.Note + "\n"
		}
	}
	out.Advice = text
	if !out.OK {
		return failed(text + s.shellNote(in.Reply)), out, nil
	}
	return textResult(text), out, nil
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// reviewRange is what git log -p shows of the session's commits on
// branch, now at tip: from the parent of its first commit to the
// branch (SPEC section 2, mcp); the branch alone when that first commit
// is a root commit.
func (s *Server) reviewRange(repo *llmapply.Repository, branch, tip string) string {
	_, commits, err := repo.CommitsWithTrailer(branch, sessionTrailer, branch)
	if err != nil || len(commits) == 0 {
		return branch
	}
	if p := commits[0].Parent; p != "" {
		return repo.ShortID(p) + ".." + branch
	}
	return branch
}

// staleHints are the hints for failed edits of rep that match their
// file as it was before a commit of the session on branch changed it
// (SPEC section 8): the model quoted lines it read before that commit.
// Such an edit's looser fuzz is not proposed: its lines are stale, not
// loosely written. A session's commit is tried newest first, at most
// five of them.
func (s *Server) staleHints(ctx context.Context, repo *llmapply.Repository, in checkInput, branch string, rep *llmapply.Report) []string {
	if branch == "" {
		return nil
	}
	failedPaths := map[string]bool{}
	for _, e := range rep.Edits {
		if e.Status == "failed" && e.Path != "" {
			failedPaths[e.Path] = true
		}
	}
	if len(failedPaths) == 0 {
		return nil
	}
	_, commits, err := repo.CommitsWithTrailer(branch, sessionTrailer, branch)
	if err != nil || len(commits) == 0 {
		return nil
	}
	var hints []string
	hinted := map[int]bool{}
	tried := 0
	for i := len(commits) - 1; i >= 0 && tried < 5; i-- {
		c := commits[i]
		if c.Parent == "" {
			continue
		}
		files, err := repo.CommitFiles(c.ID)
		if err != nil {
			continue
		}
		touches := false
		for _, f := range files {
			touches = touches || failedPaths[f.Path] || failedPaths[f.OldPath]
		}
		if !touches {
			continue
		}
		tried++
		src, err := repo.Revision(c.Parent)
		if err != nil {
			continue
		}
		there, err := llmapply.Resolve(ctx, in.Reply, src, s.options(in.Format, in.Fuzz, true))
		if err != nil {
			continue
		}
		for k, e := range rep.Edits {
			if e.Status != "failed" || hinted[e.N] || k >= len(there.Report.Edits) {
				continue
			}
			if t := there.Report.Edits[k]; t.N == e.N && t.Status == "applied" {
				hinted[e.N] = true
				if rep.Edits[k].Closest != nil {
					rep.Edits[k].Closest.Fuzz = ""
				}
				hints = append(hints, fmt.Sprintf("edit %d matches %s as it was before %s of this session (%s), which changed it since: its lines are stale. Read %s as it is on %s now (the read tool, or the session's worktree) and send the edit again with its lines copied from there.",
					e.N, e.Path, repo.ShortID(c.ID), c.Subject, e.Path, branch))
			}
		}
	}
	return hints
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

func (s *Server) formats(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, FormatsOutput, error) {
	out := FormatsOutput{Formats: llmapply.Formats()}
	var b strings.Builder
	for _, f := range out.Formats {
		fmt.Fprintf(&b, "%s: %s (%s)\n", f.Name, f.Markers, f.Spec)
	}
	return textResult(b.String()), out, nil
}

func (s *Server) prompt(_ context.Context, _ *mcp.CallToolRequest, in promptInput) (*mcp.CallToolResult, PromptOutput, error) {
	p, err := llmapply.Prompt(in.Format)
	if err != nil {
		return nil, PromptOutput{}, err
	}
	return textResult(p), PromptOutput{Format: in.Format, Prompt: p}, nil
}

func (s *Server) branchOf(in branchInput) string {
	if in.Branch != "" {
		return in.Branch
	}
	return s.branch
}

// sessionCommits are the commits of the session on branch, oldest
// first, and the commit the branch is at.
func (s *Server) sessionCommits(repo *llmapply.Repository, branch string) (string, []SessionCommit, error) {
	tip, commits, err := repo.CommitsWithTrailer(branch, sessionTrailer, branch)
	if err != nil {
		return "", nil, err
	}
	out := []SessionCommit{}
	for _, c := range commits {
		files, err := repo.CommitFiles(c.ID)
		if err != nil {
			return "", nil, err
		}
		out = append(out, SessionCommit{ID: c.ID, Short: repo.ShortID(c.ID), Subject: c.Subject, Diffstat: shortstat(files), Files: files})
	}
	return tip, out, nil
}

func (s *Server) log(_ context.Context, _ *mcp.CallToolRequest, in branchInput) (*mcp.CallToolResult, LogOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	repo, err := s.repository()
	if err != nil {
		return nil, LogOutput{}, err
	}
	out := LogOutput{Branch: s.branchOf(in)}
	out.Tip, out.Commits, err = s.sessionCommits(repo, out.Branch)
	if err != nil {
		return nil, LogOutput{}, err
	}
	var b strings.Builder
	if len(out.Commits) == 0 {
		fmt.Fprintf(&b, "This session has recorded nothing on %s yet.\n", out.Branch)
	}
	for _, c := range out.Commits {
		fmt.Fprintf(&b, "%s %s (%s)\n", c.Short, c.Subject, c.Diffstat)
	}
	if n := len(out.Commits); n > 0 && out.Commits[n-1].ID != out.Tip {
		out.Moved = true
		fmt.Fprintf(&b, "%s has moved since (it is at %s): someone else changed it.\n", out.Branch, orNone(repo.ShortID(out.Tip)))
	}
	return textResult(b.String()), out, nil
}

func orNone(id string) string {
	if id == "" {
		return "nothing: it was deleted"
	}
	return id
}

func (s *Server) undo(ctx context.Context, _ *mcp.CallToolRequest, in branchInput) (*mcp.CallToolResult, UndoOutput, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	branch := s.branchOf(in)
	repo, err := s.repository()
	if err != nil {
		return nil, UndoOutput{}, err
	}
	tip, cs, err := repo.CommitsWithTrailer(branch, sessionTrailer, branch)
	if err != nil {
		return nil, UndoOutput{}, err
	}
	if len(cs) == 0 {
		return nil, UndoOutput{}, fmt.Errorf("this session has recorded nothing on %s to undo", branch)
	}
	last := cs[len(cs)-1]
	if last.ID != tip {
		return nil, UndoOutput{}, fmt.Errorf("%s moved since this session's last commit %s (someone else changed it; it is at %s); nothing was undone: %w",
			branch, repo.ShortID(last.ID), orNone(repo.ShortID(tip)), llmapply.ErrBranchMoved)
	}
	follow, _ := repo.LinkedWorktree(branch)
	parent, err := repo.UndoIn(branch, last.ID, follow)
	if errors.Is(err, llmapply.ErrBranchMoved) {
		return nil, UndoOutput{}, fmt.Errorf("%s moved since this session's last commit %s (someone else changed it); nothing was undone: %w", branch, repo.ShortID(last.ID), err)
	}
	if err != nil {
		return nil, UndoOutput{}, err
	}
	out := UndoOutput{Branch: branch, Undone: last.ID, Tip: parent}
	text := fmt.Sprintf("%s is back at %s; %s %s is taken back (git reflog %s still shows it).\n",
		branch, repo.ShortID(parent), repo.ShortID(last.ID), last.Subject, branch)
	if out.Worktree = s.follow(ctx, repo, branch, follow, last.ID, parent); out.Worktree != nil {
		text += out.Worktree.Note + "\n"
	}
	return textResult(text), out, nil
}
