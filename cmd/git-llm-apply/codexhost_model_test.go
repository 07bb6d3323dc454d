package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// scriptedModel is a model server on 127.0.0.1 that speaks the OpenAI
// Responses API as Codex CLI reads it, and calls the tools a script
// names instead of thinking. Every shape is Codex's own (openai/codex,
// codex-rs):
//   - the request: POST {base_url}/responses with stream true, the
//     conversation so far in input (0.171.0 sends no
//     previous_response_id: every request holds it whole), the tools
//     in tools; an MCP server's tools are one {"type":"namespace",
//     "name":"mcp__<server>", "tools":[...]} entry, the server's name
//     sanitized (codex-mcp/src/tools.rs,
//     normalize_tools_for_model_with_prefix);
//   - the answer: server-sent events whose data is a JSON object with
//     its type, of which Codex reads response.created,
//     response.output_item.done (the item: a ResponseItem,
//     protocol/src/models.rs) and response.completed (the response's
//     id and usage), in codex-api/src/sse/responses.rs, process_sse;
//   - a tool call: a function_call item with name, namespace, call_id
//     and arguments as a JSON string; Codex routes it by
//     ToolName::new(namespace, name) (core/src/tools/router.rs,
//     build_tool_call);
//   - the result: the next request's input holds a
//     function_call_output item with that call_id, whose output is a
//     string or an array of content items (models.rs,
//     FunctionCallOutputPayload).
type scriptedModel struct {
	srv *httptest.Server

	mu     sync.Mutex
	server string       // the MCP server's name in Codex's config
	steps  []scriptStep // the tool calls of the current run
	run    int          // which codex exec: call ids stay unique across runs
	seen   map[string]modelSaw
	order  []string // call ids in the order their results came
	misses []string // requests and events that did not fit the script
}

// scriptStep is one tool call of the script: the MCP tool's own name
// and its arguments.
type scriptStep struct {
	tool string
	args map[string]any
}

// modelSaw is what Codex sent back for one call: the step it
// answers and the output as the model reads it.
type modelSaw struct {
	run    int
	step   scriptStep
	output string
	// wall is how long the call took as Codex measured it: Codex 0.171
	// puts "Wall time: 0.0190 seconds" and "Output:" on lines before
	// an MCP tool's result; output is the result alone.
	wall time.Duration
}

func newScriptedModel(t *testing.T, server string) *scriptedModel {
	m := &scriptedModel{server: server, seen: map[string]modelSaw{}}
	// httptest listens on 127.0.0.1 only.
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

// baseURL is what the provider's base_url names: Codex appends
// /responses to it.
func (m *scriptedModel) baseURL() string { return m.srv.URL + "/v1" }

// script sets the tool calls of the next codex exec, in order; after
// the last result the model answers in words and the turn ends.
func (m *scriptedModel) script(steps ...scriptStep) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.run++
	m.steps = steps
}

// results are the tool results Codex sent back, in the order they came.
func (m *scriptedModel) results() []modelSaw {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []modelSaw
	for _, id := range m.order {
		out = append(out, m.seen[id])
	}
	return out
}

type responsesRequest struct {
	Model  string            `json:"model"`
	Stream bool              `json:"stream"`
	Input  []json.RawMessage `json:"input"`
	Tools  []json.RawMessage `json:"tools"`
}

type inputItem struct {
	Type   string          `json:"type"`
	CallID string          `json:"call_id"`
	Output json.RawMessage `json:"output"`
}

type toolSpec struct {
	Type  string     `json:"type"`
	Name  string     `json:"name"`
	Tools []toolSpec `json:"tools"`
}

func (m *scriptedModel) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		m.miss("%s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	var req responsesRequest
	if err := json.Unmarshal(body, &req); err != nil || !req.Stream {
		m.miss("a request that is no streamed Responses request (%v): %.200s", err, body)
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	m.mu.Lock()
	run, steps := m.run, m.steps
	answered := 0
	for _, raw := range req.Input {
		var it inputItem
		if json.Unmarshal(raw, &it) != nil || it.Type != "function_call_output" {
			continue
		}
		var r, i int
		if _, err := fmt.Sscanf(it.CallID, "call_%d_%d", &r, &i); err != nil || r != run || i >= len(steps) {
			m.misses = append(m.misses, "a result for a call of no step: "+it.CallID)
			continue
		}
		answered++
		if _, ok := m.seen[it.CallID]; !ok {
			saw := modelSaw{run: run, step: steps[i], output: outputText(it.Output)}
			saw.wall, saw.output = wallTime(saw.output)
			m.seen[it.CallID] = saw
			m.order = append(m.order, it.CallID)
		}
	}
	// What Codex sent, to read when a new Codex version no longer fits
	// the script: the tools it offers, the results it sends back.
	if dir := os.Getenv("SCRIPTED_MODEL_DUMP"); dir != "" {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("request-%d-%d.json", run, answered)), body, 0o644)
	}
	namespace, name := m.toolNames(req.Tools)
	m.mu.Unlock()

	w.Header().Set("Content-Type", "text/event-stream")
	id := fmt.Sprintf("resp_%d_%d", run, answered)
	event(w, map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	var item map[string]any
	if answered < len(steps) {
		s := steps[answered]
		args, _ := json.Marshal(s.args)
		item = map[string]any{"type": "function_call", "id": "fc_" + id, "call_id": fmt.Sprintf("call_%d_%d", run, answered),
			"name": name(s.tool), "arguments": string(args)}
		if namespace != "" {
			item["namespace"] = namespace
		}
	} else {
		item = map[string]any{"type": "message", "role": "assistant", "id": "msg_" + id,
			"content": []map[string]any{{"type": "output_text", "text": "Done."}}}
	}
	event(w, map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
	event(w, map[string]any{"type": "response.completed", "response": map[string]any{"id": id, "usage": map[string]any{
		"input_tokens": 100, "input_tokens_details": map[string]any{"cached_tokens": 0},
		"output_tokens": 10, "output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 110}}})
}

// toolNames finds how the request offers the MCP server's tools: as a
// namespace entry (Codex today), or as flat functions named
// mcp__<server>__<tool> (Codex before namespaces). It returns the
// namespace to put in a call, and the name to call a tool by.
func (m *scriptedModel) toolNames(tools []json.RawMessage) (string, func(string) string) {
	// Codex keeps [A-Za-z0-9_] of a server's name and writes _ for any
	// other character (codex-mcp/src/mcp/mod.rs,
	// sanitize_responses_api_tool_name): git-llm-apply is git_llm_apply.
	server := strings.Map(func(r rune) rune {
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return r
		}
		return '_'
	}, m.server)
	namespace, flat := "", false
	for _, raw := range tools {
		var s toolSpec
		if json.Unmarshal(raw, &s) != nil {
			continue
		}
		switch {
		case s.Type == "namespace" && strings.TrimSuffix(strings.TrimPrefix(s.Name, "mcp__"), "__") == server:
			namespace = s.Name
		case strings.HasPrefix(s.Name, "mcp__"+server+"__"):
			flat = true
		}
	}
	if namespace == "" && !flat {
		m.misses = append(m.misses, fmt.Sprintf("no tools of %s among the %d offered", m.server, len(tools)))
	}
	if flat && namespace == "" {
		return "", func(tool string) string { return "mcp__" + server + "__" + tool }
	}
	return namespace, func(tool string) string { return tool }
}

// misfits are the requests and events that did not fit the script.
func (m *scriptedModel) misfits() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.misses...)
}

func (m *scriptedModel) miss(format string, args ...any) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.misses = append(m.misses, fmt.Sprintf(format, args...))
}

// outputText is a function_call_output's output as the model reads
// it: the string, or the text items of an array joined.
func outputText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var items []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &items) == nil {
		var b strings.Builder
		for _, it := range items {
			b.WriteString(it.Text)
		}
		return b.String()
	}
	return string(raw)
}

// wallTime takes the wall time Codex put before a tool's output off
// it; an output without one comes back whole.
func wallTime(out string) (time.Duration, string) {
	head, rest, ok := strings.Cut(out, "\nOutput:\n")
	secs, isTime := strings.CutPrefix(head, "Wall time: ")
	if !ok || !isTime {
		return 0, out
	}
	var s float64
	if _, err := fmt.Sscanf(secs, "%g seconds", &s); err != nil {
		return 0, out
	}
	return time.Duration(s * float64(time.Second)), rest
}

// event writes one server-sent event, named by its type as the
// Responses API names them.
func event(w http.ResponseWriter, v map[string]any) {
	data, _ := json.Marshal(v)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", v["type"], data)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}
