package main

// The host configurations mcp --config prints.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// mcpHosts are the hosts mcp --config writes a configuration for, and
// where each reads it.
var mcpHosts = map[string]string{
	"claude": ".mcp.json at the project's top (Claude Code; or run: claude mcp add git-llm-apply -- %s)",
	"codex":  "~/.codex/config.toml (Codex CLI; or .codex/config.toml in a trusted project)",
	"cursor": ".cursor/mcp.json in the project (Cursor; or ~/.cursor/mcp.json for every project)",
	"gemini": ".gemini/settings.json in the project (Gemini CLI; or ~/.gemini/settings.json), merged into what it holds",
}

// writeMCPConfig writes host's configuration that starts the MCP
// server's binary, server (git-llm-apply-mcp, which mcp would execute:
// the host starts it directly, with one process less), to out, and
// where it goes to note (SPEC section 2, mcp).
// No -C: Claude Code, Codex and Gemini CLI start the server in the
// session's directory, so one configuration serves every repository;
// Cursor names the project with ${workspaceFolder}, which it fills in.
func writeMCPConfig(out, note io.Writer, host, server string) error {
	where, ok := mcpHosts[host]
	if !ok {
		return usageError("--config %s: no such host; the hosts are claude, codex, cursor and gemini", host)
	}
	switch host {
	case "codex":
		fmt.Fprintf(out, "[mcp_servers.git-llm-apply]\ncommand = %s\nargs = []\n", tomlString(server))
	default:
		args := []string{}
		if host == "cursor" {
			args = []string{"-C", "${workspaceFolder}"}
		}
		cfg := map[string]any{"mcpServers": map[string]any{"git-llm-apply": map[string]any{"command": server, "args": args}}}
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
		where = fmt.Sprintf(where, shellArg(server))
	}
	fmt.Fprintf(note, "Put this in %s.\n", where)
	if host == "codex" {
		// Codex asks before it calls a tool annotated destructive, and
		// codex exec asks no one: without this it answers the model
		// that the call needs approval, and never calls undo.
		fmt.Fprintf(note, "codex exec asks no one, so it refuses undo (which takes a commit back) unless this follows:\n%s", codexUndoApproval)
	}
	return nil
}

// codexUndoApproval is the Codex configuration that lets codex exec
// call undo (mcp_servers.<name>.tools.<tool>.approval_mode, Codex CLI
// 0.171.0; TestCodexHost runs with it).
const codexUndoApproval = "[mcp_servers.git-llm-apply.tools.undo]\napproval_mode = \"approve\"\n"

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
