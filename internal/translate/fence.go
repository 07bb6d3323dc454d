package translate

import "strings"

// A fence is the opening line of a fenced block in a reply: three or
// more backticks followed by an optional info string (a language such
// as python, or a path), or one of the HTML-like tags some models and
// prompts use instead (<source>, <code>, <pre>, <codeblock>,
// <sourcecode>), also optionally followed by a language.
type fence struct {
	ticks int    // number of backticks; 0 for an HTML-like fence
	tag   string // the HTML-like tag without brackets ("source"); "" for backticks
	info  string // the info string, trimmed
}

// htmlFences are the HTML-like fence tags, longest first so that
// "<codeblock>" is not read as "<code>" followed by "block>".
var htmlFences = []string{"sourcecode", "codeblock", "source", "code", "pre"}

// openFence reports whether the trimmed line t opens a fenced block and
// returns that fence. A backtick line whose info string holds a
// backtick (inline code such as ```` ```x``` ````) opens nothing, nor
// does an HTML-like tag that closes on the same line.
func openFence(t string) (fence, bool) {
	if n := countPrefix(t, '`'); n >= 3 {
		info := strings.TrimSpace(t[n:])
		if strings.IndexByte(info, '`') >= 0 {
			return fence{}, false
		}
		return fence{ticks: n, info: info}, true
	}
	if len(t) < 5 || t[0] != '<' {
		return fence{}, false
	}
	for _, tag := range htmlFences {
		if len(t) < len(tag)+2 || t[len(tag)+1] != '>' || !strings.EqualFold(t[1:len(tag)+1], tag) {
			continue
		}
		rest := t[len(tag)+2:]
		if strings.Contains(rest, "</") {
			return fence{}, false
		}
		return fence{tag: tag, info: strings.TrimSpace(rest)}, true
	}
	return fence{}, false
}

// closes reports whether the trimmed line t closes f: for backticks, at
// least as many backticks and nothing else (CommonMark); for an
// HTML-like fence, the matching end tag at the start of the line.
func (f fence) closes(t string) bool {
	if f.tag == "" {
		n := countPrefix(t, '`')
		return n >= f.ticks && strings.TrimSpace(t[n:]) == ""
	}
	end := "</" + f.tag + ">"
	return len(t) >= len(end) && strings.EqualFold(t[:len(end)], end)
}

// lang is the fence's language: the first word of its info string,
// lower-cased ("" when there is none).
func (f fence) lang() string {
	s := f.info
	if i := strings.IndexAny(s, " \t{"); i >= 0 {
		s = s[:i]
	}
	return strings.ToLower(s)
}

// isFenceLine reports whether the trimmed line t opens or closes some
// fenced block, judged on the line alone.
func isFenceLine(t string) bool {
	if countPrefix(t, '`') >= 3 {
		return true
	}
	if _, ok := openFence(t); ok {
		return true
	}
	if strings.HasPrefix(t, "</") {
		for _, tag := range htmlFences {
			if (fence{tag: tag}).closes(t) {
				return true
			}
		}
	}
	return false
}

// shellLangs are the fence languages whose blocks are shell commands.
var shellLangs = map[string]bool{
	"bash": true, "sh": true, "shell": true, "cmd": true, "batch": true,
	"powershell": true, "ps1": true, "zsh": true, "fish": true,
	"ksh": true, "csh": true, "tcsh": true,
	// session transcripts
	"console": true, "shell-session": true, "shellsession": true, "terminal": true, "pwsh": true, "bat": true,
}

// isShell reports whether f fences shell commands.
func (f fence) isShell() bool { return shellLangs[f.lang()] }

// countPrefix counts the leading bytes of s equal to c.
func countPrefix(s string, c byte) int {
	n := 0
	for n < len(s) && s[n] == c {
		n++
	}
	return n
}

// splitLines splits a reply into lines without their terminators: "\n"
// ends a line and a "\r" before it is dropped, so CRLF replies read
// like LF ones. A final line without a terminator counts; the empty
// string after a final terminator does not (like Python's splitlines).
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	lines := make([]string, 0, strings.Count(text, "\n")+1)
	for len(text) > 0 {
		i := strings.IndexByte(text, '\n')
		var line string
		if i < 0 {
			line, text = text, ""
		} else {
			line, text = text[:i], text[i+1:]
		}
		lines = append(lines, strings.TrimSuffix(line, "\r"))
	}
	return lines
}
