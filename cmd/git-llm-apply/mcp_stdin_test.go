package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestMCPMalformedLines: a line that is no JSON-RPC message gets
// JSON-RPC's error answer and the session goes on; the well-formed
// requests around it are answered as usual (SPEC section 2, mcp). Run
// on the built binary, over its real standard input and output.
func TestMCPMalformedLines(t *testing.T) {
	t.Parallel()
	r := newRepo(t, mcpFiles)
	cmd := exec.Command(binary(), "-C", r.dir, "mcp", "-b", "llm/agent")
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"`, // cut short
		`not json at all`,
		`[]`,
		`[{"jsonrpc":"2.0","id":3,"method":"ping"}]`,
		`{"jsonrpc":"1.0","id":4,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":{"an":"object"},"method":"ping"}`,
		`{"jsonrpc":"2.0","id":"five","method":7}`,
		``,
		`  {"jsonrpc":"2.0","id":6,"method":"ping"}  `,
		`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
	}
	want := []string{
		"1 result",
		"null error -32700", "null error -32700",
		"null error -32600", "null error -32600",
		"4 error -32600", "null error -32600", `"five" error -32600`,
		"6 result", "7 result",
	}
	// Standard input stays open until every answer is in, as a client
	// keeps it: the server ends its session when it closes.
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	timer := time.AfterFunc(time.Minute, func() { cmd.Process.Kill() })
	defer timer.Stop()
	go io.WriteString(stdin, strings.Join(lines, "\n")+"\n")
	type reply struct {
		ID     any             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	var got []string
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for len(got) < len(want) && sc.Scan() {
		var m reply
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("an answer that is no JSON: %q", sc.Text())
		}
		id, _ := json.Marshal(m.ID)
		if m.Error != nil {
			got = append(got, fmt.Sprintf("%s error %d", id, m.Error.Code))
		} else {
			got = append(got, string(id)+" result")
		}
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("mcp ended with %v\n%s", err, stderr.String())
	}
	// JSON-RPC answers in any order: the filter's come before the
	// SDK's.
	slices.Sort(got)
	slices.Sort(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("answers:\n%s\nwant:\n%s\nstderr: %s", strings.Join(got, "\n"), strings.Join(want, "\n"), stderr.String())
	}
}
