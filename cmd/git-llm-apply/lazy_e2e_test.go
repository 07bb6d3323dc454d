package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// Lazy edits through the built binary, against real git (SPEC section
// 5): Cursor's, Windsurf's and Morph's edit_file as an OpenAI tool
// call, an Anthropic tool_use and the bare JSON shapes, a fenced lazy
// edit under --format lazy, and a whole fence holding markers under
// auto. Each is committed on a branch that git fsck --strict accepts,
// its diff is the merge, the checkout is untouched, and the call's
// instructions are the commit message when the reply says nothing else.
func TestLazyEditsEndToEnd(t *testing.T) {
	t.Parallel()
	const file = "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n"
	const code = "// ... existing code ...\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n// ... existing code ...\n"
	const want = "package calc\n\nfunc Add(a, b int) int {\n\treturn a + b\n}\n\nfunc Sub(a, b int) int {\n\treturn a - b\n}\n\nfunc Mul(a, b int) int {\n\treturn a * b\n}\n"
	// The description drops the call's "I will" (as for every
	// description): "Add Sub after Add.".
	const instr, instrMsg = "I will add Sub after Add.", "Add Sub after Add."
	args := func(pathKey string) map[string]string {
		return map[string]string{pathKey: "calc/calc.go", "instructions": instr, "code_edit": code}
	}
	js := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	openai := js(map[string]any{"choices": []any{map[string]any{"index": 0, "message": map[string]any{
		"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
			"function": map[string]any{"name": "edit_file", "arguments": js(args("target_file"))}}}}}}})
	anthropic := js(map[string]any{"id": "msg_1", "type": "message", "role": "assistant", "content": []any{
		map[string]any{"type": "tool_use", "id": "toolu_1", "name": "edit_file", "input": args("target_filepath")}}})
	tests := []struct {
		name, reply, format, msg string
	}{
		{"OpenAI tool_calls, target_file", openai, "auto", instrMsg},
		{"OpenAI tool_calls under --format tool-calls", openai, "tool-calls", instrMsg},
		{"Anthropic tool_use, target_filepath", anthropic, "auto", instrMsg},
		{"bare JSON, target_file", js(map[string]any{"name": "edit_file", "arguments": args("target_file")}), "auto", instrMsg},
		{"bare JSON, path", js(map[string]any{"name": "edit_file", "input": args("path")}), "auto", instrMsg},
		{"bare JSON, target_filepath, under --format tool-calls", js(map[string]any{"name": "edit_file", "input": args("target_filepath")}), "tool-calls", instrMsg},
		{"a fenced lazy edit under --format lazy", "Add Sub.\n\ncalc/calc.go\n```go\n" + code + "```\n", "lazy", "Add Sub."},
		{"a whole fence with markers under auto", "Add Sub.\n\ncalc/calc.go\n```go\n" + code + "```\n", "auto", "Add Sub."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := newRepo(t, map[string]string{"calc/calc.go": file})
			before := r.snapshot()
			res := r.runBinary("apply", "--format", tt.format, "-b", "t", r.reply("reply.txt", tt.reply))
			if res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			r.assertUntouched(before)
			r.fsck()
			if got := r.show("t", "calc/calc.go"); got != want {
				t.Errorf("calc/calc.go at the tip:\n%s\nwant:\n%s", got, want)
			}
			patch := r.git("log", "-p", "-1", "--format=%B", "t")
			if !strings.Contains(patch, "+func Sub(a, b int) int {\n+\treturn a - b\n+}\n+\n") {
				t.Errorf("the commit's diff is not the new function alone:\n%s", patch)
			}
			for _, l := range strings.Split(patch, "\n") {
				if strings.HasPrefix(l, "-") && !strings.HasPrefix(l, "---") {
					t.Errorf("the commit deletes %q:\n%s", l, patch)
				}
			}
			if msg := r.git("log", "-1", "--format=%B", "t"); !strings.HasPrefix(msg, tt.msg) {
				t.Errorf("commit message %q, want it to start with %q", msg, tt.msg)
			}
		})
	}
}

// A lazy edit that cannot be placed is refused by the binary, naming
// the segment and its places, and records nothing.
func TestLazyEditRefusedEndToEnd(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"h.go": "package h\n\nfunc A() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n\nfunc B() error {\n\tif err != nil {\n\t\treturn err\n\t}\n\treturn nil\n}\n"})
	before := r.snapshot()
	call := `{"name":"edit_file","arguments":{"target_file":"h.go","instructions":"Log.","code_edit":"// ... existing code ...\n\tif err != nil {\n\t\tlog.Print(err)\n\t\treturn err\n\t}\n// ... existing code ...\n"}}`
	res := r.runBinary("apply", "-b", "t", r.reply("calls.json", call+"\n"))
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
	}
	for _, w := range []string{"segment 1 of the lazy edit", "lines 4, 11"} {
		if !strings.Contains(res.stderr, w) {
			t.Errorf("the report does not say %q:\n%s", w, res.stderr)
		}
	}
	r.assertUntouched(before)
	if b := r.branches(); b != "main" {
		t.Errorf("branches %q: a refused reply recorded something", b)
	}
}
