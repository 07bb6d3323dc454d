package mcpserver

import (
	"bytes"
	"strings"
	"testing"
)

// TestRPCFilterLongLine: a line over the limit is answered and skipped
// whole, and the next line is read as usual.
func TestRPCFilterLongLine(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", 200<<10) + `"}}`
	in := long + "\n" + `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"ping"}`
	var good, answers bytes.Buffer
	if err := rpcFilter(strings.NewReader(in), &good, &answers, 100<<10); err != nil {
		t.Fatal(err)
	}
	if want := `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":3,"method":"ping"}` + "\n"; good.String() != want {
		t.Errorf("passed on %q, want %q", good.String(), want)
	}
	if !strings.Contains(answers.String(), `"code":-32600`) || strings.Count(answers.String(), "\n") != 1 {
		t.Errorf("answers: %q", answers.String())
	}
}
