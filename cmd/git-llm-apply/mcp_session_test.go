package main

import (
	"github.com/git-llm-apply/git-llm-apply/internal/mcpserver"
	"os"
	"path/filepath"
	"testing"
)

// TestMCPConfigChangeSeen: the session keeps its repository open, and
// a configuration edit made meanwhile, in an included file created
// after the server started, takes effect at the next call (SPEC
// section 2, mcp), as it would for a new git command.
func TestMCPConfigChangeSeen(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	r.git("config", "include.path", "extra.cfg") // missing for now
	cs, _ := mcpClient(t, r.dir, mcpserver.Options{})
	var a mcpserver.ApplyOutput
	callTool(t, cs, "apply", map[string]any{"reply": mcpReply1}).decode(t, &a)
	if len(a.ShortCommit) != 7 {
		t.Fatalf("first apply: short commit %q, want 7 characters", a.ShortCommit)
	}
	extra := filepath.Join(r.dir, ".git", "extra.cfg")
	if err := os.WriteFile(extra, []byte("[core]\n\tabbrev = 12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	callTool(t, cs, "apply", map[string]any{"reply": mcpReply2}).decode(t, &a)
	if len(a.ShortCommit) != 12 {
		t.Errorf("after core.abbrev = 12 in an included file: short commit %q, want 12 characters", a.ShortCommit)
	}
	r.git("config", "--unset", "include.path")
	r.git("config", "core.abbrev", "9") // the repository's own file
	var l mcpserver.LogOutput
	callTool(t, cs, "log", nil).decode(t, &l)
	if len(l.Commits) != 2 || len(l.Commits[0].Short) != 9 {
		t.Errorf("after core.abbrev = 9: log %+v, want two commits of 9-character ids", l.Commits)
	}
}
