package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate/session"
)

// BenchmarkSweep: one reply of n edits spread through a file of l
// lines, every format in its most common real shape: SEARCH/REPLACE
// blocks of three lines, unified-diff hunks with their numbers and
// three lines of context, apply-patch hunks under a scope line,
// edit-v2's anchors, fiup's anchors, Cline's SEARCH blocks, Roo Code's
// with :start_line: hints, udiffx's hunks, lazy edits' segments between
// marker comments. n goes from 100 to 10,000
// at 100,000 lines and l from 10,000 to 1,000,000 at 1,000 edits: the
// time should grow as n and as l (an exponent near 1 or below), never
// as their product. Run with -benchtime 3x; the exponents are the
// slopes of log time against log n and log l (cpu-ns/op, the
// process's processor time, when the machine is busy).
func BenchmarkSweep(b *testing.B) {
	type size struct{ n, l int }
	sizes := []size{{100, 100000}, {1000, 100000}, {10000, 100000}, {1000, 10000}, {1000, 1000000}}
	for _, format := range sweepFormats {
		for _, s := range sizes {
			b.Run(fmt.Sprintf("format=%s/n=%d/l=%d", format.name, s.n, s.l), func(b *testing.B) {
				file, reply := sweepCase(format, s.n, s.l)
				runtime.GC() // the file's making is not the reply's cost
				before := cpuTime()
				if format.name == "session" {
					benchSession(b, newOneFile("calc.py", file), reply)
				} else {
					benchRun(b, newOneFile("calc.py", file), reply)
				}
				b.ReportMetric(float64(cpuTime()-before)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// benchSession reads log, a Claude Code session of one turn, a turn
// at a time as replay does, and checks the turn's edits as check does.
func benchSession(b *testing.B, src Source, log string) {
	b.ReportAllocs()
	for b.Loop() {
		r, err := session.Open(strings.NewReader(log), "session.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		t, err := r.Next()
		if err != nil || t.Reply == nil {
			b.Fatalf("%v %+v", err, t)
		}
		res, err := Run(context.Background(), []Input{{Source: "session.jsonl", Reply: t.Reply}}, src, nil, RunOptions{Format: "auto", Fuzz: FuzzFormat})
		if err != nil || len(res) != 1 || res[0].Failed() || len(res[0].Patch) == 0 {
			b.Fatalf("%v %+v", err, res)
		}
		if _, err := r.Next(); err != io.EOF {
			b.Fatalf("a second turn: %v", err)
		}
	}
}

// sweepEdit writes edit k of a reply: line at (0-based) of the file
// becomes its new text; scope is the function it stands in.
type sweepEdit func(w *strings.Builder, k, at int, scope string)

// sweepFormat is a format's reply: head, the edits, tail.
type sweepFormat struct {
	name, head, tail string
	edit             sweepEdit
	// whole, when set, writes the reply from the file's new lines
	// instead of edit by edit (the whole format: the file, n lines
	// changed).
	whole func(w *strings.Builder, lines []string)
}

var sweepFormats []sweepFormat

func init() {
	old := hunkLine
	new := func(at int) string { return strings.Replace(hunkLine(at), "total", "sum", 1) }
	context := func(w *strings.Builder, prefix string, from, to int) {
		for i := from; i < to; i++ {
			w.WriteString(prefix + old(i) + "\n")
		}
	}
	add := func(name, head, tail string, edit sweepEdit) {
		sweepFormats = append(sweepFormats, sweepFormat{name: name, head: head, tail: tail, edit: edit})
	}
	add("diff", "", "", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("calc.py\n```python\n<<<<<<< SEARCH\n")
		context(w, "", at-1, at+2)
		w.WriteString("=======\n" + old(at-1) + "\n" + new(at) + "\n" + old(at+1) + "\n>>>>>>> REPLACE\n```\n\n")
	})
	add("udiff", "```diff\n--- a/calc.py\n+++ b/calc.py\n", "```\n", func(w *strings.Builder, k, at int, scope string) {
		fmt.Fprintf(w, "@@ -%d,7 +%d,7 @@ %s\n", at-2, at-2, scope)
		context(w, " ", at-3, at)
		w.WriteString("-" + old(at) + "\n+" + new(at) + "\n")
		context(w, " ", at+1, at+4)
	})
	add("apply-patch", "*** Begin Patch\n*** Update File: calc.py\n", "*** End Patch\n", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("@@ " + scope + "\n")
		context(w, " ", at-3, at)
		w.WriteString("-" + old(at) + "\n+" + new(at) + "\n")
		context(w, " ", at+1, at+4)
	})
	add("edit-v2", "", "", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("```python\ncalc.py\n<<<<<<< EDIT\n" + old(at-1) + "\n-------\n" + old(at) + "\n=======\n" + new(at) + "\n-------\n" + old(at+1) + "\n>>>>>>>\n```\n\n")
	})
	add("fiup", "```fiup\n", "```\n", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("<<<FIUP>>>\n[FILE]: calc.py\n[OP]: REPLACE\n[ANCHOR]\n" + old(at) + "\n[CONTENT]\n" + new(at) + "\n<<<END>>>\n\n")
	})
	add("cline", "<replace_in_file>\n<path>calc.py</path>\n<diff>\n", "</diff>\n</replace_in_file>\n", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("------- SEARCH\n")
		context(w, "", at-1, at+2)
		w.WriteString("=======\n" + old(at-1) + "\n" + new(at) + "\n" + old(at+1) + "\n+++++++ REPLACE\n")
	})
	add("roo", "<apply_diff>\n<path>calc.py</path>\n<diff>\n", "</diff>\n</apply_diff>\n", func(w *strings.Builder, k, at int, scope string) {
		fmt.Fprintf(w, "<<<<<<< SEARCH\n:start_line:%d\n-------\n%s\n=======\n%s\n>>>>>>> REPLACE\n\n", at+1, old(at), new(at))
	})
	add("udiffx", "<FILE_CHANGES>\n<FILE_PATCH file_path=\"calc.py\">\n", "</FILE_PATCH>\n</FILE_CHANGES>\n", func(w *strings.Builder, k, at int, scope string) {
		fmt.Fprintf(w, "@@ -%d,7 +%d,7 @@\n", at-2, at-2)
		context(w, " ", at-3, at)
		w.WriteString("-" + old(at) + "\n+" + new(at) + "\n")
		context(w, " ", at+1, at+4)
	})
	// CHUNK's prompt: an operation per edit, the marker the changed
	// line between its neighbours, each a |- block.
	add("chunk", "```yaml\ndescription: Rename some totals\nlanguage: python\noperations:\n", "```\n", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("  - path: calc.py\n    op: replace_text\n    marker: |-\n")
		context(w, "      ", at-1, at+2)
		w.WriteString("    payload: |-\n      " + old(at-1) + "\n      " + new(at) + "\n      " + old(at+1) + "\n")
	})
	// Claude Code's Edit tool, as JSON Lines: old_string the changed
	// line with one line either side, as the agent quotes it.
	toolCall := func(path string) sweepEdit {
		return func(w *strings.Builder, k, at int, scope string) {
			o := old(at-1) + "\n" + old(at) + "\n" + old(at+1)
			n := old(at-1) + "\n" + new(at) + "\n" + old(at+1)
			line, err := json.Marshal(map[string]any{"name": "Edit", "input": map[string]any{"file_path": path, "old_string": o, "new_string": n}})
			if err != nil {
				panic(err)
			}
			w.Write(line)
			w.WriteString("\n")
		}
	}
	add("tool-calls", "", "", toolCall("calc.py"))
	// A Claude Code session log (~/.claude/projects/*/<id>.jsonl): one
	// request, then per edit an assistant line with its Edit tool_use
	// (file_path absolute under the session's cwd) and the user line
	// with its tool_result; read by session.Open, one turn.
	add("session", sweepSessionLine("user", "Rename some totals."), "", func(w *strings.Builder, k, at int, scope string) {
		var call strings.Builder
		toolCall("/home/dev/proj/calc.py")(&call, k, at, scope)
		var c struct {
			Input map[string]any `json:"input"`
		}
		if err := json.Unmarshal([]byte(call.String()), &c); err != nil {
			panic(err)
		}
		id := fmt.Sprintf("toolu_%06d", k)
		w.WriteString(sweepSessionLine("assistant", []any{map[string]any{"type": "tool_use", "id": id, "name": "Edit", "input": c.Input}}))
		w.WriteString(sweepSessionLine("user", []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": "The file /home/dev/proj/calc.py has been updated."}}))
	})
	// A lazy edit (issue 28): the file in a fence under its name, its
	// unchanged stretches elided by a marker comment, each change with
	// a line of the file on either side, as the IDE agents' models
	// write them.
	add("lazy", "calc.py\n```python\n", "# ... existing code ...\n```\n", func(w *strings.Builder, k, at int, scope string) {
		w.WriteString("# ... existing code ...\n" + old(at-1) + "\n" + new(at) + "\n" + old(at+1) + "\n")
	})
	// The whole file in a fence under its name, n lines changed.
	sweepFormats = append(sweepFormats, sweepFormat{name: "whole", whole: func(w *strings.Builder, lines []string) {
		w.WriteString("calc.py\n```python\n")
		for _, l := range lines {
			w.WriteString(l + "\n")
		}
		w.WriteString("```\n")
	}})
}

// sweepSessionLine is one line of a Claude Code session log.
func sweepSessionLine(kind string, content any) string {
	line, err := json.Marshal(map[string]any{
		"parentUuid": nil, "isSidechain": false, "userType": "external", "cwd": "/home/dev/proj",
		"sessionId": "sweep", "version": "1.0.80", "type": kind, "timestamp": "2023-11-14T22:13:20Z",
		"message": map[string]any{"role": kind, "content": content},
	})
	if err != nil {
		panic(err)
	}
	return string(line) + "\n"
}

// sweepCase is the file of l lines, a function's def line heading each
// of n stretches, and the reply of n edits, one in the middle of each.
func sweepCase(format sweepFormat, n, l int) (file, reply string) {
	var f, r strings.Builder
	step := l / n
	for i := range l {
		if i%step == 0 {
			fmt.Fprintf(&f, "def handler_%d(request):\n", i/step)
			continue
		}
		f.WriteString(hunkLine(i) + "\n")
	}
	if format.whole != nil {
		lines := strings.Split(strings.TrimSuffix(f.String(), "\n"), "\n")
		for k := range n {
			at := k*step + step/2
			lines[at] = strings.Replace(lines[at], "total", "sum", 1)
		}
		r.WriteString("Rename some totals.\n\n")
		format.whole(&r, lines)
		return f.String(), r.String()
	}
	if format.name != "session" && format.name != "tool-calls" {
		r.WriteString("Rename some totals.\n\n")
	}
	r.WriteString(format.head)
	for k := range n {
		format.edit(&r, k, k*step+step/2, fmt.Sprintf("def handler_%d(request):", k))
	}
	r.WriteString(format.tail)
	return f.String(), r.String()
}
