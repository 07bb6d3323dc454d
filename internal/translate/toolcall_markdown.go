package translate

import "strings"

// A model that answers in prose may show its tool calls in a ```json
// fence. Such a fence counts only when it parses and holds a call of a
// tool the reader knows: a fence of other JSON (a package.json, a
// launch configuration whose entries have a "name" and "args") is
// code, and a reply that merely shows some JSON is not tool calls.

// jsonFenceLangs are the fence languages a fence of tool calls may
// have.
var jsonFenceLangs = map[string]bool{"": true, "json": true, "jsonl": true, "ndjson": true, "jsonc": true, "json5": true}

// callKeys are the member names without one of which no JSON holds a
// tool call; editKeys are the argument names of the edit tools. The
// detector looks for one of each before it reads any fence.
var (
	callKeys = []string{`"name"`, `"tool"`, `"tool_name"`, `"functionCall"`, `"local_shell_call"`}
	editKeys = []string{`"old_string"`, `"new_string"`, `"old_str"`, `"new_str"`, `"file_text"`, `"insert_line"`,
		`"edits"`, `"content"`, `"oldString"`, `Begin Patch`}
)

func containsAny(s string, subs []string) bool {
	// Names that all open with one byte (the quote of callKeys) are
	// looked for together, in one pass over a long reply, not one each.
	if len(subs) > 1 && sameFirstByte(subs) {
		for at := 0; ; at++ {
			i := strings.IndexByte(s[at:], subs[0][0])
			if i < 0 {
				return false
			}
			at += i
			for _, sub := range subs {
				if strings.HasPrefix(s[at:], sub) {
					return true
				}
			}
		}
	}
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// sameFirstByte reports whether every one of subs opens with the
// byte the first does.
func sameFirstByte(subs []string) bool {
	for _, sub := range subs {
		if sub == "" || sub[0] != subs[0][0] {
			return false
		}
	}
	return true
}

// jsonFence is a fence of a Markdown reply whose body may hold JSON.
type jsonFence struct {
	open, close int // 0-based lines of the fences (close: len(lines) when missing)
	body        string
}

// markdownFences calls each with every fenced block of text, and
// whether its language lets it hold JSON, in order; it stops when each
// returns false. lines are the reply's lines, offsets where each
// starts.
func markdownFences(text string, each func(f fence, jf jsonFence, jsonLang bool) bool) {
	var offsets []int
	for at := 0; at < len(text); {
		offsets = append(offsets, at)
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			break
		}
		at += end + 1
	}
	offsets = append(offsets, len(text))
	n := len(offsets) - 1
	lineAt := func(i int) string { return strings.TrimSpace(text[offsets[i]:offsets[i+1]]) }
	for i := 0; i < n; i++ {
		f, ok := openFence(lineAt(i))
		if !ok {
			continue
		}
		j := i + 1
		for j < n && !f.closes(lineAt(j)) {
			j++
		}
		jf := jsonFence{open: i, close: j, body: text[offsets[min(i+1, n)]:offsets[j]]}
		if !each(f, jf, f.ticks > 0 && jsonFenceLangs[strings.ToLower(f.lang())]) {
			return
		}
		i = j
	}
}

// holdsCalls reads the body of a fence as tool calls: whether it holds
// a call of a known tool, and the reader that read it (nil when the
// body is no JSON with call keys). A body that is no valid JSON yet
// holds an edit tool's argument names gives the reader and its error.
func holdsCalls(jf jsonFence) (*callReader, bool, error) {
	if !jsonReply(jf.body) || !containsAny(jf.body, callKeys) {
		return nil, false, nil
	}
	c := &callReader{r: &Reply{Format: FormatToolCalls}}
	if err := c.readJSON(jf.body, jf.open+2); err != nil {
		if containsAny(jf.body, editKeys) {
			return c, false, err
		}
		return nil, false, nil
	}
	return c, c.calls > 0, nil
}

// readMarkdown reads the fences of tool calls in a Markdown reply; the
// rest is prose and shell blocks.
func (c *callReader) readMarkdown(text string) error {
	rl := newReplyLines(text)
	var err error
	markdownFences(text, func(f fence, jf jsonFence, jsonLang bool) bool {
		end := min(jf.close+1, len(rl.lines))
		k := kFenced
		switch {
		case f.isShell():
			c.r.Shell = append(c.r.Shell, Shell{Line: jf.open + 1, Lang: f.info, Text: jf.body})
			k = kShell
		case jsonLang:
			fc, ok, e := holdsCalls(jf)
			if e != nil {
				c.r.Ops = append(c.r.Ops, fc.r.Ops...)
				c.r.Failed = append(c.r.Failed, fc.r.Failed...)
				c.r.Warnings = append(c.r.Warnings, fc.r.Warnings...)
				rl.unread, err = jf.open, e
				return false
			}
			if ok {
				c.r.Ops = append(c.r.Ops, fc.r.Ops...)
				c.r.Failed = append(c.r.Failed, fc.r.Failed...)
				c.r.Warnings = append(c.r.Warnings, fc.r.Warnings...)
				c.r.Unread = append(c.r.Unread, fc.r.Unread...)
				c.names = append(c.names, fc.names...)
				c.calls += fc.calls
				k = kBlock
			}
		}
		for i := jf.open; i < end; i++ {
			rl.kind[i] = k
		}
		return true
	})
	c.r.Prose = rl.prose()
	return err
}

// jsonOpens reports whether the value text opens (white space and a
// byte order mark aside) goes on as JSON does: a "{" by a key or "}",
// a "[" by a value or "]". A Markdown reply may start with a bracket
// too ("[Updated] ...", a link, "{Note}"); detection must not take it
// for malformed JSON tool calls when its diff shows a "name" member.
// JSON cut short right after its opener still counts.
func jsonOpens(text string) bool {
	t := strings.TrimLeft(strings.TrimPrefix(text, "\uFEFF"), " \t\r\n")
	rest := strings.TrimLeft(t[1:], " \t\r\n")
	if rest == "" {
		return true
	}
	if t[0] == '{' {
		return rest[0] == '"' || rest[0] == '}'
	}
	switch {
	case strings.ContainsRune("{[\"]-", rune(rest[0])), '0' <= rest[0] && rest[0] <= '9':
		return true
	}
	for _, lit := range [...]string{"true", "false", "null"} {
		if strings.HasPrefix(rest, lit) {
			return true
		}
	}
	return false
}

// toolCallsAt is the detector of tool-calls: the offset of a reply that
// is JSON throughout and names a call's members, or of the first fence
// the reader would take (or stop at); -1 when none.
func toolCallsAt(text string) int {
	if jsonReply(text) && jsonOpens(text) {
		if !containsAny(text, callKeys) {
			return -1
		}
		return len(text) - len(strings.TrimLeft(strings.TrimPrefix(text, "\uFEFF"), " \t\r\n"))
	}
	if !strings.Contains(text, "```") || !containsAny(text, callKeys) || !containsAny(text, editKeys) {
		return -1
	}
	at := -1
	markdownFences(text, func(f fence, jf jsonFence, jsonLang bool) bool {
		if !jsonLang {
			return true
		}
		if c, ok, err := holdsCalls(jf); ok || err != nil && c != nil {
			at = lineOffset(text, jf.open)
			return false
		}
		return true
	})
	return at
}
