package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/git-llm-apply/git-llm-apply/internal/mcpserver"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// codexBin is Codex CLI: $CODEX_BIN, else codex on PATH. npm's
// @openai/codex is about 420 MB, so the suite does not install it:
// scripts/codex-host installs the pinned version and runs this test.
func codexBin(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("CODEX_BIN"); p != "" {
		return p
	}
	p, err := exec.LookPath("codex")
	if err != nil {
		t.Skip("Codex CLI not found (set CODEX_BIN, or run scripts/codex-host)")
	}
	return p
}

// TestCodexHost runs Codex CLI itself against the MCP server, with a
// scripted model (codexhost_model_test.go) in place of OpenAI's: the
// server is configured from what `mcp --config codex` prints, started
// by Codex in the repository as it starts it, and each codex exec is a
// new server on the same branch. The first run applies a reply, sends
// an edit quoting the line that reply changed (the advice must reach
// the model), and applies a second reply; the second run lists the
// session's commits and undoes the last (refused until the user
// approves undo as mcp --config codex says: a third run does).
func TestCodexHost(t *testing.T) {
	codex := codexBin(t)
	t.Parallel()
	r := newRepo(t, mcpFiles)
	// Codex hands an MCP server only a few variables of its own
	// environment (PATH, HOME, ...), not TestMain's GIT_AUTHOR_*: the
	// identity is the repository's, as a user's would be.
	r.git("config", "user.name", "Ada Author")
	r.git("config", "user.email", "ada@example.com")
	before := r.snapshot()
	const branch = "llm/codex"
	wt := filepath.Join(t.TempDir(), "codex-wt") // the session's worktree, following the branch

	var note bytes.Buffer
	printConfig := exec.Command(binary(), "mcp", "--config", "codex")
	printConfig.Stderr = &note
	snippet, err := printConfig.Output()
	if err != nil {
		t.Fatalf("mcp --config codex: %v", err)
	}
	_, undoApproval, ok := strings.Cut(note.String(), "\n[mcp_servers.git-llm-apply.tools.undo]\n")
	if !ok {
		t.Fatalf("mcp --config codex says nothing of undo's approval:\n%s", note.String())
	}
	undoApproval = "\n[mcp_servers.git-llm-apply.tools.undo]\n" + undoApproval
	model := newScriptedModel(t, "git-llm-apply")
	home := t.TempDir()
	config := `model = "scripted"
model_provider = "scripted"
approval_policy = "never"
sandbox_mode = "workspace-write"

[model_providers.scripted]
name = "scripted"
base_url = "` + model.baseURL() + `"
wire_api = "responses"
env_key = "SCRIPTED_MODEL_KEY"
request_max_retries = 0
stream_max_retries = 0

[features]
# Codex fetches plugins and apps from the network at start-up: none here.
plugins = false
apps = false

` + string(snippet)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	runCodex := func(prompt string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		// -b keeps the runs on one branch; the rest is the snippet's.
		// (%q quotes these paths as TOML's basic strings do.)
		cmd := exec.CommandContext(ctx, codex, "exec", "--json",
			"-c", fmt.Sprintf(`mcp_servers.git-llm-apply.args=["-b",%q,"--worktree",%q]`, branch, wt), prompt)
		cmd.Dir = r.dir
		cmd.Env = append(os.Environ(), "CODEX_HOME="+home, "SCRIPTED_MODEL_KEY=scripted", "RUST_LOG=warn")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("codex exec: %v\nstdout:\n%s\nstderr:\n%s\nthe model server's misfits: %q", err, stdout.String(), stderr.String(), model.misfits())
		}
		t.Logf("codex exec stdout:\n%s\nstderr:\n%s", stdout.String(), stderr.String())
	}

	model.script(
		scriptStep{"apply", map[string]any{"reply": mcpReply1}},
		scriptStep{"apply", map[string]any{"reply": mcpStale}},
		scriptStep{"apply", map[string]any{"reply": mcpReply2}},
	)
	runCodex("Greet the world, through the git-llm-apply tools only.")
	var a1, stale, a2 mcpserver.ApplyOutput
	decodeSaw(t, model, 3, 0, &a1, &stale, &a2)
	if !a1.OK || !a2.OK || a1.Commit == "" || a2.Commit == "" {
		t.Fatalf("applies: %+v\n%+v", a1, a2)
	}
	// The failed apply's advice reaches the model in the structured
	// result (Codex gives it nothing else): what failed, where the
	// lines are now, and what to send next.
	for _, want := range []string{"failed: the SEARCH text does not match", "as it was before " + a1.ShortCommit + " of this session",
		"Send this edit again", "Read hello.py as it is on " + branch} {
		if !strings.Contains(stale.Advice, want) {
			t.Errorf("the failed apply's advice, as the model got it, lacks %q:\n%s", want, stale.Advice)
		}
	}
	if stale.OK || stale.Commit != "" || !strings.Contains(stale.LinesOf, branch+" at "+a1.ShortCommit) ||
		len(stale.Report.Edits) != 1 || stale.Report.Edits[0].Closest == nil {
		t.Errorf("the failed apply, as the model got it: %+v", stale)
	}
	if got := strings.TrimSpace(r.git("rev-parse", branch)); got != a2.Commit {
		t.Fatalf("%s is at %s, want the second apply's %s", branch, got, a2.Commit)
	}
	if got := r.show(branch, "hello.py"); !strings.Contains(got, "hello, world") || !strings.Contains(got, "bonjour") {
		t.Fatalf("hello.py on %s:\n%s", branch, got)
	}
	inWorktree := func() string {
		data, _ := os.ReadFile(filepath.Join(wt, "hello.py"))
		return string(data)
	}
	if a2.Worktree == nil || !a2.Worktree.Current || !strings.Contains(inWorktree(), "bonjour") {
		t.Fatalf("the worktree after run 1: %+v\n%s", a2.Worktree, inWorktree())
	}

	// A second codex exec starts a new server: it knows the first run's
	// commits from their trailers alone.
	model.script(scriptStep{"log", map[string]any{}}, scriptStep{"undo", map[string]any{}})
	runCodex("Show what the git-llm-apply session recorded, then take back its last commit.")
	var lg mcpserver.LogOutput
	decodeSaw(t, model, 5, 3, &lg)
	if len(lg.Commits) != 2 || lg.Commits[0].ID != a1.Commit || lg.Commits[1].ID != a2.Commit || lg.Moved {
		t.Fatalf("log in the second run: %+v", lg)
	}
	// undo is the one tool annotated destructive, and codex exec, which
	// asks no one, refuses a call that needs approval: the server never
	// sees it. The user approves it in the configuration.
	if res := model.results(); !strings.Contains(res[4].output, "requires approval") {
		t.Fatalf("undo without approval, as the model got it: %s", res[4].output)
	}
	if got := strings.TrimSpace(r.git("rev-parse", branch)); got != a2.Commit {
		t.Fatalf("an undo Codex refused moved %s to %s", branch, got)
	}
	// The approval mcp --config prints on stderr, added as it says.
	f, err := os.OpenFile(filepath.Join(home, "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err == nil {
		_, err = f.WriteString(undoApproval)
		f.Close()
	}
	if err != nil {
		t.Fatal(err)
	}
	model.script(scriptStep{"undo", map[string]any{}})
	runCodex("Take back the git-llm-apply session's last commit.")
	var un mcpserver.UndoOutput
	decodeSaw(t, model, 6, 5, &un)
	if un.Undone != a2.Commit || un.Tip != a1.Commit {
		t.Fatalf("undo in the third run: %+v", un)
	}
	if un.Worktree == nil || !un.Worktree.Current || strings.Contains(inWorktree(), "bonjour") {
		t.Fatalf("the worktree after undo: %+v\n%s", un.Worktree, inWorktree())
	}
	if got := strings.TrimSpace(r.git("rev-parse", branch)); got != a1.Commit {
		t.Fatalf("after undo %s is at %s, want %s", branch, got, a1.Commit)
	}
	if st := r.git("status", "--porcelain", "--untracked-files=all"); st != "" {
		t.Errorf("the checkout is not clean:\n%s", st)
	}
	r.assertUntouched(before)
	r.fsck()
	for _, s := range model.results() {
		t.Logf("run %d %s: %v", s.run, s.step.tool, s.wall)
	}
	if m := model.misfits(); len(m) > 0 {
		t.Errorf("the model server saw what the script did not expect: %q", m)
	}
}

// decodeSaw decodes the results the model got, which must be n in
// all, from the one numbered from (0 is the first) into outs.
func decodeSaw(t *testing.T, model *scriptedModel, n, from int, outs ...any) {
	t.Helper()
	res := model.results()
	if len(res) != n {
		t.Fatalf("the model got %d tool results, want %d: %+v\nmisfits: %q", len(res), n, res, model.misfits())
	}
	for i, out := range outs {
		s := res[from+i]
		if err := json.Unmarshal([]byte(s.output), out); err != nil {
			t.Fatalf("the result of %s is no JSON object: %v\n%s", s.step.tool, err, s.output)
		}
	}
}
