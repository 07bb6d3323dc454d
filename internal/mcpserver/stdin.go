package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The SDK's stdio transport ends the session at the first line that is
// not a JSON-RPC message, and the agent's next request is never
// answered. JSON-RPC 2.0 answers such a line with an error and goes on
// (SPEC section 2, mcp): rpcFilter reads the lines first, answers the
// bad ones itself and hands the SDK only messages it can decode.

// JSON-RPC 2.0's error codes for what cannot be a request.
const (
	rpcParseError     = -32700
	rpcInvalidRequest = -32600
)

// lockedWriter serialises the SDK's writes and the filter's, so that
// each message stays one whole line (the SDK writes a message in one
// call).
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (*lockedWriter) Close() error { return nil }

// filteredStdio returns the transport the server runs on: in, filtered,
// and out shared by the SDK and the filter.
func filteredStdio(in io.Reader, out io.Writer) *mcp.IOTransport {
	w := &lockedWriter{w: out}
	pr, pw := io.Pipe()
	go func() { pw.CloseWithError(rpcFilter(in, pw, w, mcp.DefaultMaxLineLength)) }()
	return &mcp.IOTransport{Reader: pr, Writer: w}
}

// rpcFilter copies each line of in that is a JSON-RPC message to good,
// and answers every other line on answers. A line over limit bytes is
// answered and skipped whole. It returns nil at the end of in.
func rpcFilter(in io.Reader, good io.Writer, answers io.Writer, limit int) error {
	br := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	over := false // the line passed limit: answered, not kept
	for {
		chunk, err := br.ReadSlice('\n')
		if !over {
			if len(line)+len(chunk) > limit {
				over, line = true, line[:0]
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue // the line goes on
		}
		if over {
			answer(answers, nil, rpcInvalidRequest, fmt.Sprintf("Invalid Request: a message of more than %d bytes", limit))
		} else if len(bytes.TrimSpace(line)) > 0 {
			if msg, id, code, why := checkMessage(line); code != 0 {
				answer(answers, id, code, why)
			} else if _, werr := good.Write(msg); werr != nil {
				return werr
			}
		}
		line, over = line[:0], false
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// checkMessage decides a line: the message with its line break when
// the SDK can take it, else the id to answer (nil: null) and the error.
func checkMessage(line []byte) (msg []byte, id any, code int, why string) {
	t := bytes.TrimSpace(line)
	if !json.Valid(t) {
		return nil, nil, rpcParseError, "Parse error: the line is not JSON"
	}
	if t[0] == '[' {
		// MCP 2025-06-18 removed JSON-RPC batches, and the SDK ends the
		// session on one under that version.
		return nil, nil, rpcInvalidRequest, "Invalid Request: batches are not supported"
	}
	if _, err := jsonrpc.DecodeMessage(t); err != nil {
		return nil, requestID(t), rpcInvalidRequest, "Invalid Request: " + err.Error()
	}
	return append(t, '\n'), nil, 0, ""
}

// requestID is the line's id when it is one JSON-RPC allows (a string
// or an integer), so that the client can match the answer; else nil.
func requestID(t []byte) any {
	var m struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(t, &m) != nil || m.ID == nil {
		return nil
	}
	var s string
	if json.Unmarshal(m.ID, &s) == nil {
		return s
	}
	var n int64
	if json.Unmarshal(m.ID, &n) == nil {
		return n
	}
	return nil
}

// answer writes one JSON-RPC error response.
func answer(w io.Writer, id any, code int, message string) {
	b, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": code, "message": message},
	})
	w.Write(append(b, '\n'))
}
