package main

import (
	"context"
	"encoding/json"
	"github.com/git-llm-apply/git-llm-apply/internal/mcpserver"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The two replies of an agent's session: the second edits what the
// first wrote.
const (
	mcpReply1 = "Greet the world.\n\nhello.py\n```python\n<<<<<<< SEARCH\n    print(\"hello\")\n=======\n    print(\"hello, world\")\n>>>>>>> REPLACE\n```\n"
	mcpReply2 = "Greet in French too.\n\nhello.py\n```python\n<<<<<<< SEARCH\n    print(\"hello, world\")\n=======\n    print(\"hello, world\")\n    print(\"bonjour\")\n>>>>>>> REPLACE\n```\n"
	// mcpMiss looks for a line the file does not have.
	mcpMiss = "Greet loudly.\n\nhello.py\n```python\n<<<<<<< SEARCH\n    print(\"hullo\")\n=======\n    print(\"HELLO\")\n>>>>>>> REPLACE\n```\n"
)

var mcpFiles = map[string]string{"hello.py": "def main():\n    print(\"hello\")\n", "old.txt": "old\n"}

// mcpClient connects an SDK client to a server for r over the
// in-memory transport.
func mcpClient(t testing.TB, dir string, o mcpserver.Options) (*mcp.ClientSession, *mcpserver.Server) {
	t.Helper()
	o.Dir = dir
	srv, err := mcpserver.New(o)
	if err != nil {
		t.Fatal(err)
	}
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs, srv
}

// toolResult is a tool call's result: its text, isError and its
// structured output decoded into out.
type toolResult struct {
	text    string
	isError bool
	raw     json.RawMessage
}

func callTool(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) toolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	var r toolResult
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			r.text += tc.Text
		}
	}
	r.isError = res.IsError
	if res.StructuredContent != nil {
		r.raw, _ = json.Marshal(res.StructuredContent)
	}
	return r
}

func (r toolResult) decode(t *testing.T, out any) {
	t.Helper()
	if err := json.Unmarshal(r.raw, out); err != nil {
		t.Fatalf("structured output %s: %v", r.raw, err)
	}
}

func TestMCPTools(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	cs, _ := mcpClient(t, r.dir, mcpserver.Options{})
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" || tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s: description, input or output schema missing", tool.Name)
		}
	}
	slices.Sort(names)
	if want := []string{"apply", "check", "formats", "log", "prompt", "read", "translate", "undo", "workspace"}; !slices.Equal(names, want) {
		t.Fatalf("tools %v, want %v", names, want)
	}
	for _, tool := range tools.Tools {
		schema, _ := json.Marshal(tool.InputSchema)
		var s struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
			Required []string `json:"required"`
		}
		json.Unmarshal(schema, &s)
		switch tool.Name {
		case "check", "translate", "apply":
			if !slices.Equal(s.Required, []string{"reply"}) {
				t.Errorf("%s requires %v, want reply only", tool.Name, s.Required)
			}
			want := []string{"reply", "format", "base", "fuzz"}
			if tool.Name == "apply" {
				want = append(want, "branch", "onto", "message", "partial")
			}
			for _, p := range want {
				if s.Properties[p].Description == "" {
					t.Errorf("%s: input %s missing or undocumented: %s", tool.Name, p, schema)
				}
			}
			if len(s.Properties) != len(want) {
				t.Errorf("%s: inputs %s, want %v", tool.Name, schema, want)
			}
		}
	}
}

// TestMCPSession: an agent applies two replies, reviews them with log
// and takes the second back with undo; the branch holds what git says,
// and the checkout never changes.
func TestMCPSession(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	before := r.snapshot()
	cs, srv := mcpClient(t, r.dir, mcpserver.Options{})

	res := callTool(t, cs, "check", map[string]any{"reply": mcpReply1})
	var chk mcpserver.CheckOutput
	res.decode(t, &chk)
	if res.isError || !chk.OK || chk.Report.Edits[0].Status != "applied" || chk.Report.Edits[0].Rung != "exact" ||
		!strings.Contains(chk.Diff, "+    print(\"hello, world\")") {
		t.Fatalf("check: %+v\n%s", chk, res.text)
	}
	if res := callTool(t, cs, "translate", map[string]any{"reply": mcpReply1, "format": "diff", "base": "HEAD"}); res.isError ||
		!strings.HasPrefix(res.text, "diff --git a/hello.py b/hello.py\n") {
		t.Fatalf("translate: %+v", res)
	}
	if _, exists := r.branchTip(srv.Branch()); exists {
		t.Fatal("check or translate created the branch")
	}

	var first, second mcpserver.ApplyOutput
	res = callTool(t, cs, "apply", map[string]any{"reply": mcpReply1})
	res.decode(t, &first)
	if res.isError || !first.OK || first.Branch != srv.Branch() || len(first.Commit) != 40 || first.Diffstat != "1 file changed, 1 insertion(+), 1 deletion(-)" {
		t.Fatalf("apply 1: %+v\n%s", first, res.text)
	}
	// check now resolves against the branch, as apply will.
	if res := callTool(t, cs, "check", map[string]any{"reply": mcpReply2}); res.isError {
		t.Fatalf("check of the second reply: %s", res.text)
	}
	if res := callTool(t, cs, "check", map[string]any{"reply": mcpReply2, "base": "index"}); !res.isError {
		t.Fatalf("check of the second reply against the index: %s", res.text)
	}
	res = callTool(t, cs, "apply", map[string]any{"reply": mcpReply2, "message": "Say bonjour"})
	res.decode(t, &second)
	if res.isError || !second.OK || second.Branch != srv.Branch() || !strings.Contains(res.text, "Recorded as "+second.ShortCommit) {
		t.Fatalf("apply 2: %+v\n%s", second, res.text)
	}
	if got := r.git("log", "--format=%H %s", "main.."+srv.Branch()); got != second.Commit+" Say bonjour\n"+first.Commit+" Greet the world.\n" {
		t.Fatalf("git log main..%s:\n%s", srv.Branch(), got)
	}
	if got := r.show(srv.Branch(), "hello.py"); got != "def main():\n    print(\"hello, world\")\n    print(\"bonjour\")\n" {
		t.Fatalf("hello.py on the branch: %q", got)
	}
	r.fsck()
	r.assertUntouched(before)

	var lg mcpserver.LogOutput
	res = callTool(t, cs, "log", nil)
	res.decode(t, &lg)
	if res.isError || lg.Moved || lg.Tip != second.Commit || len(lg.Commits) != 2 || lg.Commits[0].ID != first.Commit ||
		lg.Commits[1].Subject != "Say bonjour" || lg.Commits[1].Diffstat != "1 file changed, 1 insertion(+)" {
		t.Fatalf("log: %+v\n%s", lg, res.text)
	}

	var un mcpserver.UndoOutput
	res = callTool(t, cs, "undo", nil)
	res.decode(t, &un)
	if res.isError || un.Undone != second.Commit || un.Tip != first.Commit {
		t.Fatalf("undo: %+v\n%s", un, res.text)
	}
	if tip, _ := r.branchTip(srv.Branch()); tip != first.Commit {
		t.Fatalf("after undo the branch is at %s, want %s", tip, first.Commit)
	}
	if got := r.git("reflog", "-1", "--format=%gs", srv.Branch()); !strings.HasPrefix(got, "llm-apply: undo ") {
		t.Errorf("reflog: %q", got)
	}
	res = callTool(t, cs, "log", nil)
	res.decode(t, &lg)
	if len(lg.Commits) != 1 || lg.Tip != first.Commit {
		t.Fatalf("log after undo: %+v", lg)
	}
	// The next apply continues from where undo left the branch.
	res = callTool(t, cs, "apply", map[string]any{"reply": mcpReply2})
	res.decode(t, &second)
	if res.isError || r.git("rev-parse", srv.Branch()+"^") != first.Commit+"\n" {
		t.Fatalf("apply after undo: %+v\n%s", second, res.text)
	}
	r.fsck()
	r.assertUntouched(before)

	var f mcpserver.FormatsOutput
	res = callTool(t, cs, "formats", nil)
	res.decode(t, &f)
	if res.isError || len(f.Formats) < 5 || f.Formats[0].Name != "diff" {
		t.Fatalf("formats: %+v", f)
	}
	if res := callTool(t, cs, "prompt", map[string]any{"format": "diff"}); res.isError || !strings.Contains(res.text, "SEARCH") {
		t.Fatalf("prompt diff: %+v", res)
	}
}

func (r *repo) branchTip(name string) (string, bool) {
	out, err := exec.Command("git", "-C", r.dir, "rev-parse", "--verify", "-q", "refs/heads/"+name).Output()
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(out)), true
}

// TestMCPErrors: every failure is a result with isError and the
// report as text; the server keeps serving, and nothing is recorded.
func TestMCPErrors(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	before := r.snapshot()
	cs, srv := mcpClient(t, r.dir, mcpserver.Options{})
	errorCase := func(tool string, args map[string]any, want ...string) toolResult {
		t.Helper()
		res := callTool(t, cs, tool, args)
		if !res.isError {
			t.Errorf("%s %v: not an error: %s", tool, args, res.text)
		}
		for _, w := range want {
			if !strings.Contains(res.text, w) {
				t.Errorf("%s %v: %q does not say %q", tool, args, res.text, w)
			}
		}
		return res
	}
	errorCase("check", map[string]any{"reply": mcpReply1, "format": "nonsense"}, "unknown format \"nonsense\"")
	errorCase("apply", map[string]any{"reply": mcpReply1, "fuzz": "very"}, "fuzz \"very\"")
	errorCase("check", map[string]any{"reply": mcpReply1, "base": "no-such-rev"}, "no-such-rev")
	errorCase("prompt", map[string]any{"format": "nonsense"}, "unknown format")
	errorCase("check", map[string]any{}, "reply")
	errorCase("undo", nil, "nothing")
	errorCase("check", map[string]any{"reply": "Just prose, no edit."}, "error:")

	// A failed edit gives the closest place, with its lines, in the
	// text and in the structured report.
	res := errorCase("check", map[string]any{"reply": mcpMiss}, "edit 1 (replace hello.py, reply line 5) failed", "line 2 of hello.py", "!     print(\"hello\")")
	var chk mcpserver.CheckOutput
	res.decode(t, &chk)
	if c := chk.Report.Edits[0].Closest; chk.OK || c == nil || !slices.Equal(c.Lines, []int{2, 2}) || c.Text != "    print(\"hello\")" {
		t.Errorf("check of a failing edit: %+v", chk)
	}
	res = errorCase("apply", map[string]any{"reply": mcpMiss}, "nothing recorded", "line 2 of hello.py")
	var app mcpserver.ApplyOutput
	res.decode(t, &app)
	if app.OK || app.Commit != "" || app.Report.Edits[0].Closest == nil {
		t.Errorf("apply of a failing edit: %+v", app)
	}

	// Paths stay inside the repository.
	for _, p := range []string{"../outside.txt", ".git/hooks/post-checkout", "/etc/passwd-llm"} {
		reply := "Write a file.\n\n" + p + "\n```\n<<<<<<< SEARCH\n=======\nboo\n>>>>>>> REPLACE\n```\n"
		errorCase("apply", map[string]any{"reply": reply, "format": "diff"}, p)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(r.dir), "outside.txt")); err == nil {
		t.Error("a file was written outside the repository")
	}

	// File commands of shell blocks are suggestions unless --shell-ops.
	shell := "Remove the old file.\n\n```sh\ngit rm old.txt\n```\n"
	errorCase("apply", map[string]any{"reply": shell}, "no edit", "--shell-ops")
	if _, exists := r.branchTip(srv.Branch()); exists {
		t.Fatal("a failed apply created the branch")
	}
	cs2, srv2 := mcpClient(t, r.dir, mcpserver.Options{ShellOps: true})
	if res := callTool(t, cs2, "apply", map[string]any{"reply": shell}); res.isError {
		t.Fatalf("apply with --shell-ops: %s", res.text)
	}
	if got := r.tree(srv2.Branch()); !slices.Equal(got, []string{"100644 hello.py"}) {
		t.Errorf("with --shell-ops the branch holds %v", got)
	}

	// Options that do not apply to an existing branch are refused, and
	// undo refuses a branch someone else moved.
	if res := callTool(t, cs, "apply", map[string]any{"reply": mcpReply1}); res.isError {
		t.Fatal(res.text)
	}
	errorCase("apply", map[string]any{"reply": mcpReply2, "base": "HEAD"}, "exists")
	errorCase("apply", map[string]any{"reply": mcpReply1, "branch": "bad..name"}, "bad..name")
	errorCase("apply", map[string]any{"reply": mcpReply1, "branch": "main"}, "checked out")
	tip, _ := r.branchTip(srv.Branch())
	other := strings.TrimSpace(r.git("commit-tree", "-p", tip, "-m", "someone else", tip+"^{tree}"))
	r.git("update-ref", "refs/heads/"+srv.Branch(), other)
	errorCase("undo", nil, "moved")
	if got, _ := r.branchTip(srv.Branch()); got != other {
		t.Errorf("a refused undo moved the branch to %s", got)
	}
	var lg mcpserver.LogOutput
	callTool(t, cs, "log", nil).decode(t, &lg)
	if !lg.Moved {
		t.Errorf("log does not say the branch moved: %+v", lg)
	}
	r.fsck()
	r.assertUntouched(before)
}

// FuzzMCPTools sends arbitrary replies, formats, bases and fuzz levels
// to the tools through the client: every call gets a result (never a
// protocol error, never a crash), and HEAD, the index and main stay.
func FuzzMCPTools(f *testing.F) {
	f.Add(mcpReply1, "", "", "")
	f.Add(mcpMiss, "diff", "HEAD", "loose")
	f.Add("hello.py\n```\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n```\n", "diff-fenced", "worktree", "exact")
	f.Add("--- a/hello.py\n+++ b/hello.py\n@@ -1 +1 @@\n-def main():\n+def main2():\n", "udiff", "index", "format")
	f.Add("../x\n```\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n```\n", "auto", "HEAD~9", "")
	f.Add("\x00\xff<<<<<<< SEARCH", "edit-v2", "@{-1}", "??")
	dir := f.TempDir()
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			f.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q", "-b", "main")
	for p, c := range mcpFiles {
		os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "initial")
	state := func() string {
		index, _ := os.ReadFile(filepath.Join(dir, ".git", "index"))
		head, _ := os.ReadFile(filepath.Join(dir, ".git", "HEAD"))
		main, _ := os.ReadFile(filepath.Join(dir, ".git", "refs", "heads", "main"))
		return string(index) + string(head) + string(main)
	}
	before := state()
	cs, _ := mcpClient(f, dir, mcpserver.Options{})
	f.Fuzz(func(t *testing.T, reply, format, base, fuzz string) {
		args := map[string]any{"reply": reply, "format": format, "base": base, "fuzz": fuzz}
		for _, tool := range []string{"check", "translate", "apply", "prompt"} {
			if tool == "prompt" {
				args = map[string]any{"format": format}
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
			if err != nil {
				t.Fatalf("%s: %v", tool, err)
			}
			if len(res.Content) == 0 {
				t.Fatalf("%s: a result without text", tool)
			}
		}
		if state() != before {
			t.Fatal("HEAD, the index or main changed")
		}
	})
}

// TestMCPAnnotations: undo takes a commit off the branch, so it is
// marked destructive and clients ask their user first; apply only adds.
func TestMCPAnnotations(t *testing.T) {
	r := newRepo(t, mcpFiles)
	cs, _ := mcpClient(t, r.dir, mcpserver.Options{})
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		a := tool.Annotations
		destructive := a.DestructiveHint == nil || *a.DestructiveHint // MCP's default is true
		if want := tool.Name == "undo"; !a.ReadOnlyHint && destructive != want {
			t.Errorf("%s: destructive %v, want %v", tool.Name, destructive, want)
		}
	}
}
