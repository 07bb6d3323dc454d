package translate

import (
	"regexp"
	"strings"
)

// Describe returns a reply's description as a subject and a body (SPEC
// section 6): the format's own description field when it has one, else
// the prose outside the edit blocks, its first sentence or line (with
// Markdown stripped) as the subject and the rest as the body. Both are
// empty when the reply has no prose.
func Describe(r *Reply) (subject, body string) {
	text := r.Description
	if strings.TrimSpace(text) == "" {
		text = strings.Join(r.Prose, "\n")
	}
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) == 0 {
		return "", ""
	}
	first := plain(lines[0])
	rest := lines[1:]
	// A first sentence that only says "Sure!" tells a reader nothing.
	for {
		s, tail := firstSentence(first)
		if !isFiller(s) {
			break
		}
		if tail == "" {
			if len(rest) == 0 {
				break
			}
			for len(rest) > 0 && strings.TrimSpace(rest[0]) == "" {
				rest = rest[1:]
			}
			if len(rest) == 0 {
				break
			}
			first, rest = plain(rest[0]), rest[1:]
			continue
		}
		first = tail
	}
	subject, tail := firstSentence(first)
	subject = strings.TrimSpace(strings.TrimRight(subject, ":"))
	var b []string
	if tail != "" {
		b = append(b, tail)
	}
	b = append(b, rest...)
	return subject, tidyBody(b)
}

// firstSentence splits s after its first sentence ("." "!" or "?"
// followed by a space); the line is the sentence when there is none.
func firstSentence(s string) (string, string) {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '.' || s[i] == '!' || s[i] == '?') && s[i+1] == ' ' {
			return strings.TrimSpace(s[:i+1]), strings.TrimSpace(s[i+2:])
		}
	}
	return strings.TrimSpace(s), ""
}

var fillers = map[string]bool{
	"sure": true, "certainly": true, "okay": true, "ok": true, "of course": true, "absolutely": true,
	"great": true, "got it": true, "understood": true, "alright": true, "all right": true, "yes": true,
	"sure thing": true, "no problem": true, "great question": true, "you're right": true,
}

func isFiller(s string) bool {
	return fillers[strings.ToLower(strings.TrimRight(s, ".!,: "))]
}

var (
	mdLink     = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
	mdLeader   = regexp.MustCompile(`^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)`)
	mdEmphasis = strings.NewReplacer("**", "", "__", "", "`", "")
)

// plain strips the Markdown a subject line should not carry.
func plain(s string) string {
	s = mdLeader.ReplaceAllString(s, "")
	s = mdLink.ReplaceAllString(s, "$1")
	s = mdEmphasis.Replace(s)
	s = strings.Trim(s, "*_ \t")
	return strings.TrimSpace(s)
}

// tidyBody trims blank lines at both ends and squeezes runs of them.
func tidyBody(lines []string) string {
	var out []string
	blank := true
	for _, l := range lines {
		l = strings.TrimRight(l, " \t")
		if l == "" {
			if !blank {
				out = append(out, "")
			}
			blank = true
			continue
		}
		out = append(out, l)
		blank = false
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return strings.Join(out, "\n")
}
