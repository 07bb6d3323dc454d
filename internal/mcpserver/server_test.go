package mcpserver

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestMCPGuard: a tool that panics gives an error result, and the
// session goes on.
func TestMCPGuard(t *testing.T) {
	t.Parallel()
	h := guard(func(context.Context, *mcp.CallToolRequest, checkInput) (*mcp.CallToolResult, CheckOutput, error) {
		panic("boom")
	})
	res, _, err := h(context.Background(), nil, checkInput{})
	if res != nil || err == nil || !strings.Contains(err.Error(), "internal error") || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("%v %v", res, err)
	}
}
