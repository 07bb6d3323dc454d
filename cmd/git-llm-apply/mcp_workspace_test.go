package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/git-llm-apply/git-llm-apply/internal/mcpserver"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpStale quotes the line mcpReply1 changed: the agent read hello.py
// before its first apply.
const mcpStale = "Greet loudly.\n\nhello.py\n```python\n<<<<<<< SEARCH\n    print(\"hello\")\n=======\n    print(\"HELLO\")\n>>>>>>> REPLACE\n```\n"

// mcpNotes edits old.txt, a file the other replies leave alone.
const mcpNotes = "Note it.\n\nold.txt\n```\n<<<<<<< SEARCH\nold\n=======\nold\nnew\n>>>>>>> REPLACE\n```\n"

// TestMCPWorktreeFollows: with --worktree the session's branch is
// checked out in a linked worktree once apply made it; after each apply
// and undo its files are the branch's; a file the agent changed there
// is never overwritten, and the update that would have names it.
func TestMCPWorktreeFollows(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	before := r.snapshot()
	wt := filepath.Join(t.TempDir(), "session")
	cs, srv := mcpClient(t, r.dir, mcpserver.Options{Worktree: wt})
	read := func(p string) string {
		t.Helper()
		data, _ := os.ReadFile(filepath.Join(wt, p))
		return string(data)
	}

	var ws mcpserver.WorkspaceOutput
	callTool(t, cs, "workspace", nil).decode(t, &ws)
	if ws.Branch != srv.Branch() || ws.Tip != "" || ws.Worktree != wt || !strings.Contains(ws.Note, "first apply") {
		t.Fatalf("workspace before apply: %+v", ws)
	}

	var a1, a2 mcpserver.ApplyOutput
	res := callTool(t, cs, "apply", map[string]any{"reply": mcpReply1})
	res.decode(t, &a1)
	if res.isError || a1.Worktree == nil || !a1.Worktree.Current || a1.Worktree.Path != wt {
		t.Fatalf("apply 1: %+v\n%s", a1, res.text)
	}
	if got := read("hello.py"); !strings.Contains(got, "hello, world") {
		t.Fatalf("the worktree was not added with the commit: %q", got)
	}
	if got := strings.TrimSpace(r.git("-C", wt, "symbolic-ref", "HEAD")); got != "refs/heads/"+srv.Branch() {
		t.Fatalf("HEAD in the worktree: %s", got)
	}
	// Test output and a manual fix elsewhere stay, and do not stop it.
	os.WriteFile(filepath.Join(wt, "test.log"), []byte("ok\n"), 0o644)
	os.WriteFile(filepath.Join(wt, "old.txt"), []byte("old, fixed by hand\n"), 0o644)
	res = callTool(t, cs, "apply", map[string]any{"reply": mcpReply2})
	res.decode(t, &a2)
	if res.isError || a2.Worktree == nil || !a2.Worktree.Current {
		t.Fatalf("apply 2: %+v\n%s", a2, res.text)
	}
	if got := read("hello.py"); !strings.Contains(got, "bonjour") {
		t.Fatalf("the worktree did not follow: %q", got)
	}
	if st := r.git("-C", wt, "status", "--porcelain"); st != " M old.txt\n?? test.log\n" {
		t.Fatalf("status after apply 2: %q", st)
	}

	// An apply changing the file fixed by hand is recorded; the file
	// stays as the agent left it, and the result names it.
	var a3 mcpserver.ApplyOutput
	res = callTool(t, cs, "apply", map[string]any{"reply": mcpNotes})
	res.decode(t, &a3)
	if res.isError || a3.Commit == "" || a3.Worktree == nil || a3.Worktree.Current || !slices.Equal(a3.Worktree.Kept, []string{"old.txt"}) ||
		!strings.Contains(res.text, "old.txt has changes of its own") || !strings.Contains(a3.Advice, "old.txt has changes of its own") {
		t.Fatalf("apply 3 over a manual fix: %+v\n%s", a3, res.text)
	}
	if got := read("old.txt"); got != "old, fixed by hand\n" {
		t.Fatalf("the manual fix was overwritten: %q", got)
	}
	// Once the fix is put away, undo brings the worktree along.
	r.git("-C", wt, "checkout", "--", "old.txt")
	r.git("-C", wt, "read-tree", "-m", "-u", a2.Commit, a3.Commit)
	var un mcpserver.UndoOutput
	res = callTool(t, cs, "undo", nil)
	res.decode(t, &un)
	if res.isError || un.Undone != a3.Commit || un.Worktree == nil || !un.Worktree.Current {
		t.Fatalf("undo: %+v\n%s", un, res.text)
	}
	if got := read("old.txt"); got != "old\n" {
		t.Fatalf("the worktree did not follow undo: %q", got)
	}
	res = callTool(t, cs, "undo", nil)
	res.decode(t, &un)
	if res.isError || un.Undone != a2.Commit || !un.Worktree.Current || strings.Contains(read("hello.py"), "bonjour") {
		t.Fatalf("second undo: %+v\n%s\n%s", un, res.text, read("hello.py"))
	}
	if st := r.git("-C", wt, "status", "--porcelain"); st != "?? test.log\n" {
		t.Fatalf("status after undo: %q", st)
	}
	r.fsck()
	r.assertUntouched(before)
}

// TestMCPWorktreeRefused: --worktree names a directory that is neither
// new, empty, nor the branch's worktree.
func TestMCPWorktreeRefused(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "x"), []byte("x\n"), 0o644)
	if _, err := mcpserver.New(mcpserver.Options{Dir: r.dir, Worktree: full}); err == nil || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a full directory: %v", err)
	}
	// -b names a branch with a worktree: it follows, as the CLI's does.
	r.git("branch", "feature")
	wt := filepath.Join(t.TempDir(), "feature")
	r.git("worktree", "add", "-q", wt, "feature")
	cs, _ := mcpClient(t, r.dir, mcpserver.Options{Branch: "feature"})
	var a mcpserver.ApplyOutput
	res := callTool(t, cs, "apply", map[string]any{"reply": mcpReply1})
	res.decode(t, &a)
	if res.isError || a.Worktree == nil || !a.Worktree.Current {
		t.Fatalf("apply on a branch with a worktree: %+v\n%s", a, res.text)
	}
	if data, _ := os.ReadFile(filepath.Join(wt, "hello.py")); !strings.Contains(string(data), "hello, world") {
		t.Fatalf("the worktree did not follow: %s", data)
	}
	if _, err := mcpserver.New(mcpserver.Options{Dir: r.dir, Branch: "feature", Worktree: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "already checked out") {
		t.Errorf("a second worktree for the branch: %v", err)
	}
}

// TestMCPRead: read gives a file as the session's branch has it (the
// index before the branch exists), numbered, and refuses every path an
// edit may not name.
func TestMCPRead(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	r.write("hello.py", "def main():\n    print(\"hello\")\n# staged\n")
	r.git("add", "hello.py")
	cs, srv := mcpClient(t, r.dir, mcpserver.Options{})
	var rd mcpserver.ReadOutput
	res := callTool(t, cs, "read", map[string]any{"path": "hello.py"})
	res.decode(t, &rd)
	if res.isError || rd.Lines != 3 || rd.Text != "     1\tdef main():\n     2\t    print(\"hello\")\n     3\t# staged\n" || !strings.Contains(rd.Of, "index") {
		t.Fatalf("read before apply: %+v\n%s", rd, res.text)
	}
	var a mcpserver.ApplyOutput
	callTool(t, cs, "apply", map[string]any{"reply": mcpReply1}).decode(t, &a)
	r.write("hello.py", "changed in the checkout\n") // not what read gives
	res = callTool(t, cs, "read", map[string]any{"path": filepath.Join(r.dir, "hello.py"), "from": 2, "to": 9})
	res.decode(t, &rd)
	if res.isError || rd.Path != "hello.py" || rd.From != 2 || rd.To != 3 || rd.Text != "     2\t    print(\"hello, world\")\n     3\t# staged\n" ||
		!strings.Contains(rd.Of, srv.Branch()+" at "+a.ShortCommit) || !strings.Contains(res.text, "lines 2-3 of 3") {
		t.Fatalf("read after apply: %+v\n%s", rd, res.text)
	}
	for _, p := range []string{"../outside.txt", ".git/config", "/etc/passwd", "sub/../../x", ".GIT/HEAD", "no-such.py", ""} {
		if res := callTool(t, cs, "read", map[string]any{"path": p}); !res.isError {
			t.Errorf("read %q: %s", p, res.text)
		}
	}
	if res := callTool(t, cs, "read", map[string]any{"path": "hello.py", "from": 7}); !res.isError || !strings.Contains(res.text, "has 3 lines") {
		t.Errorf("read past the end: %s", res.text)
	}
}

// TestMCPStaleEdit: an edit quoting lines a commit of the session has
// changed since is told so, naming the commit, instead of being offered
// a looser fuzz; the line numbers are said to be the branch's.
func TestMCPStaleEdit(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	cs, srv := mcpClient(t, r.dir, mcpserver.Options{})
	var a mcpserver.ApplyOutput
	callTool(t, cs, "apply", map[string]any{"reply": mcpReply1}).decode(t, &a)
	for _, tool := range []string{"check", "apply"} {
		res := callTool(t, cs, tool, map[string]any{"reply": mcpStale, "fuzz": "exact"})
		var out mcpserver.CheckOutput
		res.decode(t, &out)
		want := "edit 1 matches hello.py as it was before " + a.ShortCommit + " of this session (Greet the world.)"
		if !res.isError || !strings.Contains(res.text, want) || !strings.Contains(out.Advice, want) {
			t.Errorf("%s of a stale edit:\n%s", tool, res.text)
		}
		if strings.Contains(res.text, "With fuzz") {
			t.Errorf("%s of a stale edit offers a looser fuzz:\n%s", tool, res.text)
		}
		if lines := "Line numbers are those of the files of " + srv.Branch() + " at " + a.ShortCommit; !strings.Contains(res.text, lines) || !strings.Contains(out.LinesOf, srv.Branch()) {
			t.Errorf("%s does not say whose line numbers:\n%s", tool, res.text)
		}
	}
	// An edit that matched nothing before either gets no such hint.
	if res := callTool(t, cs, "check", map[string]any{"reply": mcpMiss}); strings.Contains(res.text, "as it was before") {
		t.Errorf("a plain miss is called stale:\n%s", res.text)
	}
}

// TestMCPReplyIsAPath: a file's name sent as the reply is told so.
func TestMCPReplyIsAPath(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	r.write("fix.md", mcpReply1)
	cs, _ := mcpClient(t, r.dir, mcpserver.Options{})
	for _, reply := range []string{"fix.md", "  fix.md\n", filepath.Join(r.dir, "fix.md"), "hello.py", "changes.diff", "my/reply.patch", "notes.txt"} {
		for _, tool := range []string{"check", "apply", "translate"} {
			res := callTool(t, cs, tool, map[string]any{"reply": reply})
			if !res.isError || !strings.Contains(res.text, "reply must be the reply's text; this is a file name") {
				t.Errorf("%s %q: %s", tool, reply, res.text)
			}
		}
	}
	// Prose that is no file name still says no edit was found.
	if res := callTool(t, cs, "check", map[string]any{"reply": "Done, see the notes.txt file for details"}); strings.Contains(res.text, "file name") {
		t.Errorf("prose taken for a file name: %s", res.text)
	}
}

// TestMCPStructuredAdvice: the structured result carries the advice a
// model needs (Codex hands the model only structuredContent), and the
// content holds the structured result serialized as JSON too.
func TestMCPStructuredAdvice(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	cs, _ := mcpClient(t, r.dir, mcpserver.Options{})
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"check", map[string]any{"reply": mcpMiss}, "Send this edit again"},
		{"apply", map[string]any{"reply": mcpMiss}, "Send this edit again"},
		{"translate", map[string]any{"reply": mcpMiss}, "Send this edit again"},
		{"apply", map[string]any{"reply": mcpReply1}, "Review with: git log -p "},
		{"log", nil, ""},
		{"read", map[string]any{"path": "hello.py"}, ""},
		{"workspace", nil, ""},
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tc.tool, Arguments: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		structured, _ := json.Marshal(res.StructuredContent)
		var advice struct {
			Advice string `json:"advice"`
		}
		json.Unmarshal(structured, &advice)
		if !strings.Contains(advice.Advice, tc.want) {
			t.Errorf("%s: structured advice %q lacks %q", tc.tool, advice.Advice, tc.want)
		}
		found := false
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok && json.Valid([]byte(tc.Text)) {
				var a, b any
				json.Unmarshal([]byte(tc.Text), &a)
				json.Unmarshal(structured, &b)
				x, _ := json.Marshal(a)
				y, _ := json.Marshal(b)
				found = found || bytes.Equal(x, y)
			}
		}
		if !found {
			t.Errorf("%s: no text block holds the structured result as JSON", tc.tool)
		}
	}
}

// TestMCPSessionAcrossProcesses: a new server on the same branch lists
// and undoes what an earlier one recorded (their LLM-MCP-Branch
// trailers), and the review range starts where the session did.
func TestMCPSessionAcrossProcesses(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	main := strings.TrimSpace(r.git("rev-parse", "--short", "main"))
	cs1, _ := mcpClient(t, r.dir, mcpserver.Options{Branch: "llm/agent"})
	var a1, a2 mcpserver.ApplyOutput
	callTool(t, cs1, "apply", map[string]any{"reply": mcpReply1}).decode(t, &a1)
	res := callTool(t, cs1, "apply", map[string]any{"reply": mcpReply2})
	res.decode(t, &a2)
	if !strings.Contains(res.text, "Review with: git log -p "+main+"..llm/agent\n") {
		t.Errorf("review hint:\n%s", res.text)
	}
	if got := r.git("log", "-1", "--format=%(trailers:key=LLM-MCP-Branch,valueonly)", "llm/agent"); strings.TrimSpace(got) != "llm/agent" {
		t.Errorf("trailer: %q", got)
	}
	// A second server, as a host's next run starts one.
	cs2, _ := mcpClient(t, r.dir, mcpserver.Options{Branch: "llm/agent"})
	var lg mcpserver.LogOutput
	callTool(t, cs2, "log", nil).decode(t, &lg)
	if len(lg.Commits) != 2 || lg.Commits[0].ID != a1.Commit || lg.Commits[1].ID != a2.Commit || lg.Moved ||
		lg.Commits[1].Diffstat != "1 file changed, 1 insertion(+)" {
		t.Fatalf("log of a new server: %+v", lg)
	}
	var un mcpserver.UndoOutput
	callTool(t, cs2, "undo", nil).decode(t, &un)
	if un.Undone != a2.Commit || un.Tip != a1.Commit {
		t.Fatalf("undo of a new server: %+v", un)
	}
	callTool(t, cs2, "undo", nil).decode(t, &un)
	if un.Undone != a1.Commit {
		t.Fatalf("second undo: %+v", un)
	}
	if res := callTool(t, cs2, "undo", nil); !res.isError || !strings.Contains(res.text, "nothing") {
		t.Fatalf("undo past the session: %s", res.text)
	}
	if tip, _ := r.branchTip("llm/agent"); tip != strings.TrimSpace(r.git("rev-parse", "main")) {
		t.Fatalf("the branch is at %s", tip)
	}
}

// TestMCPConfig: mcp --config HOST prints a configuration that starts
// the MCP server's binary beside this very binary, in the host's shape.
func TestMCPConfig(t *testing.T) {
	t.Parallel()
	exe := binary()
	real, _ := filepath.EvalSymlinks(exe)
	real = filepath.Join(filepath.Dir(real), "git-llm-apply-mcp")
	for _, host := range []string{"claude", "cursor", "gemini", "codex"} {
		cmd := exec.Command(exe, "mcp", "--config", host)
		var note bytes.Buffer
		cmd.Stderr = &note
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", host, err)
		}
		if host == "codex" {
			want := "[mcp_servers.git-llm-apply]\ncommand = \"" + real + "\"\nargs = []\n"
			if string(out) != want {
				t.Errorf("codex:\n%s\nwant:\n%s", out, want)
			}
			if !strings.HasSuffix(note.String(), "\n[mcp_servers.git-llm-apply.tools.undo]\napproval_mode = \"approve\"\n") {
				t.Errorf("codex's note does not end with undo's approval:\n%s", note.String())
			}
			continue
		}
		var cfg struct {
			MCPServers map[string]struct {
				Command string   `json:"command"`
				Args    []string `json:"args"`
			} `json:"mcpServers"`
		}
		if err := json.Unmarshal(out, &cfg); err != nil {
			t.Fatalf("%s: %v\n%s", host, err, out)
		}
		want := []string{}
		if host == "cursor" {
			want = []string{"-C", "${workspaceFolder}"}
		}
		if s := cfg.MCPServers["git-llm-apply"]; s.Command != real || !slices.Equal(s.Args, want) {
			t.Errorf("%s:\n%s", host, out)
		}
	}
	if err := exec.Command(exe, "mcp", "--config", "vim").Run(); err == nil {
		t.Error("an unknown host was accepted")
	}
}

// TestMCPScriptedHost is an agent's session as a host runs it: the
// built binary's mcp over stdio with the SDK's client and --worktree;
// two edits applied, the files read in the worktree and through read,
// a command run in the worktree that sees the edits, one edit undone
// and the worktree following.
func TestMCPScriptedHost(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"hello.py": "def main():\n    print(\"hello\")\n\nmain()\n", "old.txt": "old\n"})
	before := r.snapshot()
	wt := filepath.Join(t.TempDir(), "agent")
	cmd := exec.Command(binary(), "mcp", "--worktree", wt)
	cmd.Dir = r.dir // as Codex starts it: in the session's directory, no -C
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "scripted-host", Version: "v1"}, nil).Connect(ctx,
		&mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	var a1, a2 mcpserver.ApplyOutput
	callTool(t, cs, "apply", map[string]any{"reply": mcpReply1}).decode(t, &a1)
	callTool(t, cs, "apply", map[string]any{"reply": mcpReply2}).decode(t, &a2)
	if a1.Commit == "" || a2.Commit == "" || a2.Worktree == nil || !a2.Worktree.Current {
		t.Fatalf("applies: %+v %+v\n%s", a1, a2, stderr.String())
	}
	data, _ := os.ReadFile(filepath.Join(wt, "hello.py"))
	var rd mcpserver.ReadOutput
	callTool(t, cs, "read", map[string]any{"path": "hello.py"}).decode(t, &rd)
	if !strings.Contains(string(data), "bonjour") || !strings.Contains(rd.Text, "     3\t    print(\"bonjour\")\n") {
		t.Fatalf("worktree:\n%s\nread:\n%s", data, rd.Text)
	}
	// The agent runs a command there, and it sees both edits.
	run := func() string {
		c := exec.Command("grep", "-c", "print(", "hello.py")
		c.Dir = wt
		out, _ := c.Output()
		return strings.TrimSpace(string(out))
	}
	if got := run(); got != "2" {
		t.Fatalf("grep in the worktree counts %s print calls, want 2", got)
	}
	var un mcpserver.UndoOutput
	callTool(t, cs, "undo", nil).decode(t, &un)
	if un.Undone != a2.Commit || un.Worktree == nil || !un.Worktree.Current {
		t.Fatalf("undo: %+v", un)
	}
	if got := run(); got != "1" {
		t.Fatalf("after undo grep counts %s print calls, want 1", got)
	}
	callTool(t, cs, "read", map[string]any{"path": "hello.py"}).decode(t, &rd)
	if strings.Contains(rd.Text, "bonjour") {
		t.Fatalf("read after undo:\n%s", rd.Text)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	r.fsck()
	r.assertUntouched(before)
}
