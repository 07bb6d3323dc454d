package session

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	tests := []struct {
		name, in string
		want     Kind // "" : ErrNotSession
	}{
		{"empty", "", ""},
		{"blank lines", "\n\n  \n", ""},
		{"prose", "Here is my change to app.py.\n", ""},
		{"a reply in SEARCH/REPLACE", "app.py\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n", ""},
		{"markdown with h4 headers", "#### Usage\n\nRun it.\n> note\n", ""},
		{"binary", "\x00\x01\x02#### x  \n", ""},
		{"JSON number", "42\n", ""},
		{"JSON object, no log", `{"name": "x", "version": 1}` + "\n", ""},
		{"JSON lines, no log", `{"a": 1}` + "\n" + `{"b": 2}` + "\n", ""},
		{"JSON array of numbers", "[1, 2]", ""},
		{"empty array", "[]", ""},
		{"array of objects without role", `[{"name": "x"}]`, ""},
		{"truncated JSON", `{"type": "user", "sessionId": `, ""},
		{"aider header", "\n# aider chat started at 2024-08-01 10:00:00\n\n", Aider},
		{"aider request only", "#### fix it  \n", Aider},
		{"aider with CRLF", "#### fix it  \r\n\r\nok\r\n", Aider},
		{"claude summary first", `{"type":"summary","summary":"x","leafUuid":"u1"}` + "\n", ClaudeCode},
		{"claude user", `{"parentUuid":null,"isSidechain":false,"type":"user","message":{"role":"user","content":"hi"},"uuid":"u1","sessionId":"s"}` + "\n", ClaudeCode},
		{"codex envelope", `{"timestamp":"t","type":"session_meta","payload":{"id":"x","cwd":"/p"}}` + "\n", Codex},
		{"codex old meta", `{"id":"x","timestamp":"t","instructions":null}` + "\n", Codex},
		{"codex old item", `{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}` + "\n", Codex},
		{"openai messages", `[{"role":"user","content":"hi"}]`, Messages},
		{"messages after other keys", "{\n \"model\": \"m\",\n \"messages\": [\n  {\"role\": \"user\", \"content\": \"hi\"}\n ]\n}\n", Messages},
		{"BOM then aider", "\uFEFF#### fix it  \n", Aider},
		{"cline task", `[{"role":"user","content":[{"type":"text","text":"<task>\nfix it\n</task>"},{"type":"text","text":"<environment_details>\n</environment_details>"}]}]`, Cline},
		{"cline task as a string", `[{"role":"user","content":"  <task>\nfix it\n</task>"}]`, Cline},
		{"a task tag later is a messages array", `[{"role":"user","content":"see <task>"}]`, Messages},
		{"a task from the assistant is a messages array", `[{"role":"assistant","content":"<task>"}]`, Messages},
		{"gemini init", `{"type":"init","timestamp":"t","session_id":"s","model":"gemini-2.5-pro"}` + "\n", Gemini},
		{"gemini without init", `{"type":"message","timestamp":"t","role":"user","content":"hi"}` + "\n" + `{"type":"tool_use","timestamp":"t","tool_name":"replace","tool_id":"r","parameters":{}}` + "\n", Gemini},
		{"gemini tool_use first", `{"type":"tool_use","timestamp":"t","tool_name":"replace","tool_id":"r","parameters":{}}` + "\n", Gemini},
		{"a hook's tool_name is no log", `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{}}` + "\n", ""},
		{"init without a model is no log", `{"type":"init","session_id":"s"}` + "\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(strings.NewReader(tt.in), "log")
			if tt.want == "" {
				if !errors.Is(err, ErrNotSession) {
					t.Fatalf("Open = %v, want ErrNotSession", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Kind() != tt.want {
				t.Fatalf("kind %s, want %s", r.Kind(), tt.want)
			}
		})
	}
}

// TestErrorsNameTheLine: a broken record stops the reader with an
// error naming its log line.
func TestErrorsNameTheLine(t *testing.T) {
	tests := []struct {
		name, in string
		line     int
	}{
		{"claude", `{"type":"summary","summary":"x","leafUuid":"u1"}` + "\n" + `{"type":"user","sessionId":"s","message":{"role":"user","content":"hi"}}` + "\n\n" + `{"type": "assistant", ` + "\n", 4},
		{"claude content", `{"type":"user","sessionId":"s","message":{"role":"user","content":7}}` + "\n", 1},
		{"codex", `{"timestamp":"t","type":"session_meta","payload":{"id":"x","cwd":"/p"}}` + "\n" + "not json\n", 2},
		{"messages", "[\n{\"role\": \"user\", \"content\": \"hi\"},\n{\"role\": \"assistant\", \"content\": [1]}\n]", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Open(strings.NewReader(tt.in), "log")
			if err != nil {
				t.Fatal(err)
			}
			for {
				_, err = r.Next()
				if err != nil {
					break
				}
			}
			var le *LineError
			if !errors.As(err, &le) || le.Line != tt.line {
				t.Fatalf("error %v, want one at line %d", err, tt.line)
			}
		})
	}
}

// TestHeredoc: the shell forms of apply_patch Codex recognises.
func TestHeredoc(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n"
	tests := []struct {
		name string
		argv []string
		dir  string
		ok   bool
	}{
		{"argv", []string{"apply_patch", patch}, "", true},
		{"applypatch", []string{"applypatch", patch}, "", true},
		{"heredoc", []string{"bash", "-lc", "apply_patch <<'EOF'\n" + patch + "EOF\n"}, "", true},
		{"heredoc unquoted", []string{"bash", "-lc", "apply_patch <<EOF\n" + patch + "EOF"}, "", true},
		{"cd first", []string{"bash", "-lc", "cd sub && apply_patch <<\"EOF\"\n" + patch + "EOF\n"}, "sub", true},
		{"no end", []string{"bash", "-lc", "apply_patch <<'EOF'\n" + patch}, "", false},
		{"other command", []string{"bash", "-lc", "cat <<'EOF'\n" + patch + "EOF\n"}, "", false},
		{"other shell", []string{"fish", "-c", "apply_patch <<'EOF'\n" + patch + "EOF\n"}, "", false},
	}
	for _, tt := range tests {
		got, dir, ok := shellPatch(tt.argv)
		if ok != tt.ok || ok && (got != patch || dir != tt.dir) {
			t.Errorf("%s: shellPatch = %q, %q, %v", tt.name, got, dir, ok)
		}
	}
}

// genAider writes an aider history of n turns, each with one edit.
func genAider(w io.Writer, n int) {
	io.WriteString(w, "\n# aider chat started at 2024-08-01 10:00:00\n\n")
	for i := 0; i < n; i++ {
		s := strconv.Itoa(i)
		io.WriteString(w, "\n#### change line "+s+"  \n\nDone.\n\nf.py\n```\n<<<<<<< SEARCH\nx = "+s+"\n=======\nx = "+s+"1\n>>>>>>> REPLACE\n```\n\n> Applied edit to f.py  \n")
	}
}

// TestStreams: a 5,000-turn log is read turn by turn; the memory in use
// while reading stays far below the log's size, so that nothing keeps
// the turns already read.
func TestStreams(t *testing.T) {
	for _, kind := range []string{"aider", "claude"} {
		t.Run(kind, func(t *testing.T) {
			var buf bytes.Buffer
			if kind == "aider" {
				genAider(&buf, 5000)
			} else {
				for i := 0; i < 5000; i++ {
					s := strconv.Itoa(i)
					buf.WriteString(`{"type":"user","sessionId":"s","cwd":"/p","message":{"role":"user","content":"change ` + s + `"}}` + "\n")
					buf.WriteString(`{"type":"assistant","sessionId":"s","cwd":"/p","message":{"role":"assistant","content":[{"type":"text","text":"` + strings.Repeat("padding ", 40) + `"},{"type":"tool_use","id":"t` + s + `","name":"Write","input":{"file_path":"/p/f.txt","content":"` + s + `"}}]}}` + "\n")
					buf.WriteString(`{"type":"user","sessionId":"s","cwd":"/p","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t` + s + `","content":"ok"}]}}` + "\n")
				}
			}
			size := buf.Len()
			r, err := Open(&buf, "big")
			if err != nil {
				t.Fatal(err)
			}
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			base := ms.HeapAlloc
			var peak uint64
			turns := 0
			for {
				turn, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				turns++
				if turn.Reply == nil {
					t.Fatalf("turn %d has no edit", turn.N)
				}
				if turns%500 == 0 {
					runtime.GC()
					runtime.ReadMemStats(&ms)
					if ms.HeapAlloc > base && ms.HeapAlloc-base > peak {
						peak = ms.HeapAlloc - base
					}
				}
			}
			if turns != 5000 {
				t.Fatalf("%d turns, want 5000", turns)
			}
			// The log itself is still in buf (size bytes); what the
			// reader holds must be a small part of it.
			if peak > uint64(size)/4 {
				t.Errorf("heap grew by %d bytes reading a %d-byte log", peak, size)
			}
			t.Logf("log %d bytes, heap growth at most %d bytes", size, peak)
		})
	}
}
