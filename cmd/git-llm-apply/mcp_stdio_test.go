package main

import (
	"bytes"
	"context"
	"github.com/git-llm-apply/git-llm-apply/internal/mcpserver"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPStdio is a session of the built binary's mcp command with the
// SDK's client over standard input and output, as an agent's client
// starts it. MCP_TRANSCRIPT=FILE writes the messages exchanged there.
func TestMCPStdio(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	before := r.snapshot()
	cmd := exec.Command(binary(), "-C", r.dir, "mcp", "-b", "llm/agent")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	var transcript bytes.Buffer
	transport := &mcp.LoggingTransport{Transport: &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, Writer: &transcript}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "transcript", Version: "v1"}, nil).Connect(ctx, transport, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 9 {
		t.Fatalf("tools/list: %v %v", tools, err)
	}
	var first, second mcpserver.ApplyOutput
	res := callTool(t, cs, "apply", map[string]any{"reply": mcpReply1})
	res.decode(t, &first)
	if res.isError || first.Branch != "llm/agent" {
		t.Fatalf("apply 1: %s", res.text)
	}
	if res := callTool(t, cs, "check", map[string]any{"reply": mcpMiss}); !res.isError || !strings.Contains(res.text, "line 2 of hello.py") {
		t.Fatalf("check of a failing edit: %s", res.text)
	}
	res = callTool(t, cs, "apply", map[string]any{"reply": mcpReply2})
	res.decode(t, &second)
	if res.isError {
		t.Fatalf("apply 2: %s", res.text)
	}
	if res := callTool(t, cs, "log", nil); res.isError || !strings.Contains(res.text, second.ShortCommit+" Greet in French too.") {
		t.Fatalf("log: %s", res.text)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if !cmd.ProcessState.Success() {
		t.Errorf("the server ended with %v:\n%s", cmd.ProcessState, stderr.String())
	}
	if got := r.git("log", "--format=%H", "main..llm/agent"); got != second.Commit+"\n"+first.Commit+"\n" {
		t.Fatalf("git log main..llm/agent:\n%s", got)
	}
	if !strings.HasPrefix(stderr.String(), "git llm-apply mcp: serving ") {
		t.Errorf("stderr: %q", stderr.String())
	}
	r.fsck()
	r.assertUntouched(before)
	if p := os.Getenv("MCP_TRANSCRIPT"); p != "" {
		os.WriteFile(p, transcript.Bytes(), 0o644)
	}
}
