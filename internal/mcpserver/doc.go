// Package mcpserver is git llm-apply's Model Context Protocol server:
// one session's tools (check, apply, translate, formats, prompt, read,
// workspace, log, undo) over the public Go API llmapply, served on a
// line-per-message stdio transport (SPEC section 2, mcp). It is
// linked into its own binary, git-llm-apply-mcp, so that no other
// command of git-llm-apply links the MCP SDK, net/http or crypto/tls;
// git llm-apply mcp parses the command line and executes that binary.
package mcpserver
