package session

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// detect tells the kind of log from its first bytes (whole: head is all
// of the log), or returns "" and why it is none.
func detect(head []byte, whole bool) (Kind, string) {
	head = bytes.TrimPrefix(head, []byte("\uFEFF"))
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if len(trimmed) == 0 {
		return "", "the input is empty"
	}
	if !utf8.Valid(cutPartialRune(head)) || bytes.IndexByte(head, 0) >= 0 {
		return "", "the input is not text"
	}
	switch trimmed[0] {
	case '[':
		return detectArray(trimmed)
	case '{':
		return detectObjects(trimmed, whole)
	}
	if isAiderHistory(head) {
		return Aider, ""
	}
	return "", "no line of an aider chat history (\"# aider chat started at\", \"#### \" requests), and not JSON"
}

// cutPartialRune drops a rune the peek cut in two.
func cutPartialRune(b []byte) []byte {
	for i := 0; i < utf8.UTFMax && i < len(b); i++ {
		if utf8.RuneStart(b[len(b)-1-i]) {
			if !utf8.FullRune(b[len(b)-1-i:]) {
				return b[:len(b)-1-i]
			}
			break
		}
	}
	return b
}

// isAiderHistory: aider's io writes "# aider chat started at" when it
// starts, and every request as "#### " lines ending in the two spaces
// of a Markdown line break (aider/io.py, user_input and
// append_chat_history).
func isAiderHistory(head []byte) bool {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if bytes.HasPrefix(line, []byte("# aider chat started at")) {
			return true
		}
		if bytes.HasPrefix(line, []byte("#### ")) && bytes.HasSuffix(line, []byte("  ")) {
			return true
		}
	}
	return false
}

// detectArray: a messages array starts with an object holding "role".
func detectArray(b []byte) (Kind, string) {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return "", "not JSON"
	}
	if !dec.More() {
		return "", "an empty JSON array"
	}
	if ok, why := firstObjectHasRole(dec); !ok {
		return "", why
	}
	if clineTask(b) {
		return Cline, ""
	}
	return Messages, ""
}

// clineTask reports whether the array b opens with Cline's first user
// message, the task in <task> tags (Cline's src/core/task/index.ts,
// startTask). A first message cut by the peek leaves it Messages; the
// reader still tells the task from its text.
func clineTask(b []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		return false
	}
	var msg chatMessage
	if dec.Decode(&msg) != nil || msg.Role != "user" {
		return false
	}
	items, text, err := contentItems(msg.Content)
	if err != nil {
		return false
	}
	return isClineTask(items, text)
}

// firstObjectHasRole reads the keys of the object dec is at, looking
// for "role" (a message) before the peek runs out.
func firstObjectHasRole(dec *json.Decoder) (bool, string) {
	tok, err := dec.Token()
	if d, ok := tok.(json.Delim); err != nil || !ok || d != '{' {
		return false, "a JSON array whose first element is not a message object"
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			break
		}
		if key == "role" {
			return true, ""
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			break
		}
	}
	return false, "a JSON array whose first element has no \"role\""
}

// detectObjects tells JSON Lines logs (Claude Code, Codex) by their
// first lines, and an object wrapping a "messages" array.
func detectObjects(b []byte, whole bool) (Kind, string) {
	// A JSON Lines log: look at the complete lines of the head.
	all := b
	sawLine := false
	for n := 0; len(b) > 0 && n < 64; n++ {
		line := b
		i := bytes.IndexByte(b, '\n')
		if i >= 0 {
			line, b = b[:i], b[i+1:]
		} else if whole {
			b = nil
		} else {
			break // cut by the peek
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(line, &obj) != nil {
			if sawLine {
				return "", "a line that is not a JSON object"
			}
			break // maybe one object over several lines
		}
		sawLine = true
		if k := lineKind(obj); k != "" {
			return k, ""
		}
	}
	if sawLine {
		return "", "JSON lines that are neither Claude Code, Codex CLI nor Gemini CLI session records"
	}
	// One object over several lines: {"messages": [...]}.
	dec := json.NewDecoder(bytes.NewReader(all))
	if _, err := dec.Token(); err == nil {
		for dec.More() {
			key, err := dec.Token()
			if err != nil {
				break
			}
			if key == "messages" {
				if t, err := dec.Token(); err == nil && t == json.Delim('[') {
					if !dec.More() {
						return "", "an empty \"messages\" array"
					}
					if ok, why := firstObjectHasRole(dec); !ok {
						return "", why
					}
					return Messages, ""
				}
				break
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				break
			}
		}
	}
	return "", "a JSON object that is no session log"
}

// lineKind tells a JSON Lines record: Gemini CLI's stream-json events,
// Codex's RolloutLine envelope
// (codex-rs/protocol/src/protocol.rs: {"timestamp", "type", "payload"}),
// Codex's older records (the session meta line, ResponseItems of
// codex-rs/protocol/src/models.rs, {"record_type": "state"}), or Claude
// Code's (a "type" and the uuid chain, or a summary with its leafUuid).
func lineKind(obj map[string]json.RawMessage) Kind {
	typ := jsonString(obj["type"])
	if _, ok := obj["payload"]; ok {
		switch typ {
		case "session_meta", "response_item", "event_msg", "turn_context", "compacted":
			return Codex
		}
	}
	for _, k := range []string{"parentUuid", "leafUuid", "sessionId", "isSidechain"} {
		if _, ok := obj[k]; ok && typ != "" {
			return ClaudeCode
		}
	}
	if isGeminiEvent(obj, typ) {
		return Gemini
	}
	if _, ok := obj["record_type"]; ok {
		return Codex
	}
	if _, ok := obj["instructions"]; ok && typ == "" {
		if _, ok := obj["id"]; ok {
			return Codex // the old session meta line
		}
	}
	switch typ {
	case "message", "function_call", "function_call_output", "custom_tool_call", "custom_tool_call_output", "local_shell_call", "reasoning":
		if _, ok := obj["role"]; ok || typ != "message" {
			return Codex
		}
	}
	return ""
}

// isGeminiEvent tells an event of Gemini CLI's stream-json
// (packages/core/src/output/types.ts): init names session_id and model,
// a call tool_name and tool_id, a result tool_id and status, a message
// a role and a string content (Codex's message items hold a list).
func isGeminiEvent(obj map[string]json.RawMessage, typ string) bool {
	has := func(k string) bool { _, ok := obj[k]; return ok }
	switch typ {
	case "init":
		return has("session_id") && has("model")
	case "tool_use":
		return has("tool_name") && has("tool_id")
	case "tool_result":
		return has("tool_id") && has("status")
	case "message":
		c := obj["content"]
		return has("role") && has("timestamp") && len(c) > 0 && c[0] == '"'
	}
	return false
}

// jsonString is the string a raw JSON value holds, or "".
func jsonString(raw json.RawMessage) string {
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// firstLine is s up to its first line break.
func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
