package translate

import (
	"strings"
	"unicode/utf8"
)

// MaxSubject is git's customary limit for a commit subject.
const MaxSubject = 72

// Describe returns a reply's description as a subject and a body (SPEC
// section 6), from the format's own description field when it has one,
// else from the prose outside the edit blocks. The subject is the first
// sentence that says something (courtesy such as "Sure!" and
// announcements such as "Here are the changes:" are passed over), with
// Markdown stripped; when it is longer than MaxSubject it is shortened
// to a sentence that reads whole (see ShortSubject) and the body opens
// with the full sentence. The body is the prose after the subject's
// sentence, less the lines that only announce blocks or commands the
// reply holds elsewhere. Both are empty when no sentence says
// anything.
func Describe(r *Reply) (subject, body string) {
	subject, _, body = describe(describedText(r))
	return subject, body
}

// describe is Describe of text; whole is the subject's sentence as the
// text writes it when the subject is shortened from it, else "".
func describe(text string) (subject, whole, body string) {
	// kept is where the first sentence passed over that still explains
	// starts ("I understand that you want X.", "Here are the changes
	// to ensure X:"): the body keeps it; -1 when none.
	kept := -1
	for _, at := range sentences(text) {
		said := dropInterjection(plain(text[at.start:at.end]))
		if !says(said) {
			continue
		}
		sentence := imperative(strings.TrimSpace(strings.TrimSuffix(said, ":")))
		subject = sentence
		if strings.HasSuffix(sentence, "...") || strings.HasSuffix(sentence, "\u2026") {
			subject = trimEnd(strings.TrimRight(sentence, ".\u2026")) // "Let me look at the parser..." trails off
		}
		if strings.HasSuffix(said, ":") {
			subject = trimEnd(subject) // "We'll change X to:" introduces a list
		}
		subject = ShortSubject(subject, MaxSubject)
		if !says(subject) || isRestatement(said) {
			if kept < 0 {
				kept = bodyStart(text, at)
			}
			continue
		}
		var b strings.Builder
		switch {
		case subject != sentence && kept < 0:
			// The subject is not the sentence: the body opens with it.
			b.WriteString(text[bodyStart(text, at):])
		case subject != sentence:
			b.WriteString(text[bodyStart(text, at):at.end] + "\n\n" + text[kept:at.start])
			b.WriteString(strings.TrimLeft(text[at.end:], " \t"))
		default:
			if kept >= 0 {
				b.WriteString(text[kept:at.start])
			}
			b.WriteString(strings.TrimLeft(text[at.end:], " \t"))
		}
		if subject != sentence {
			whole = strings.TrimSpace(text[bodyStart(text, at):at.end])
		}
		return subject, whole, tidyBody(dropAnnouncements(b.String()))
	}
	if kept >= 0 {
		return "", "", tidyBody(dropAnnouncements(text[kept:]))
	}
	return "", "", ""
}

// describedText is the text a reply's description is read from.
func describedText(r *Reply) string {
	text := r.Description
	if strings.TrimSpace(text) == "" {
		text = strings.Join(r.Prose, "\n")
	}
	return strings.ReplaceAll(text, "\r\n", "\n")
}

// bodyStart is where the body starts that gives sentence at in full:
// at its line's list marker when it opens the line, so that a list item
// keeps its marker.
func bodyStart(text string, at span) int {
	ls := strings.LastIndexByte(text[:at.start], '\n') + 1
	if lead := text[ls:at.start]; strings.TrimSpace(lead) != "" && mdBlockStart.FindString(lead) != lead {
		return at.start
	}
	return ls
}

// says reports whether a sentence (Markdown stripped) says something a
// subject can carry.
func says(p string) bool {
	if !strings.ContainsFunc(p, func(r rune) bool { return r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r > utf8.RuneSelf }) {
		return false
	}
	return !isFiller(p) && !isCourtesy(p) && !isAnnouncement(p)
}

var (
	lineBreak  = lazyRegexpOf(`[ \t]*\n[ \t]*`)
	mdLink     = lazyRegexpOf(`\[([^\]]*)\]\([^)]*\)`)
	mdLeader   = lazyRegexpOf(`^\s*(#{1,6}\s+|>\s*|[-*+]\s+|\d+[.)]\s+)`)
	mdEmphasis = strings.NewReplacer("**", "", "__", "")
	// mdStar is *emphasis* with single stars (not a * b).
	mdStar = lazyRegexpOf(`(^|[\s(])\*([^*\s][^*]*[^*\s]|[^*\s])\*($|[\s.,;:!?)])`)
)

// plain strips the Markdown a subject should not carry and joins the
// lines of a wrapped sentence. A code span loses its backticks only:
// the underscores and stars in it are the code's (`__init__`,
// `**kwargs`), not emphasis.
func plain(s string) string {
	s = lineBreak.ReplaceAllString(s, " ")
	s = mdLeader.ReplaceAllString(s, "")
	parts := codeSpans(s)
	for i := range parts {
		p := &parts[i]
		if p.code {
			continue
		}
		p.text = mdLink.ReplaceAllString(p.text, "$1")
		p.text = mdEmphasis.Replace(p.text)
		p.text = mdStar.ReplaceAllString(p.text, "$1$2$3")
		// Emphasis left open at either end of the sentence.
		if i == 0 {
			p.text = strings.TrimLeft(p.text, "*_ \t")
		}
		if i == len(parts)-1 {
			p.text = strings.TrimRight(p.text, "*_ \t")
		}
	}
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.text)
	}
	return strings.TrimSpace(b.String())
}

// mdPart is a part of a sentence: a code span (its backticks dropped) or
// the text between.
type mdPart struct {
	text string
	code bool
}

// codeSpans cuts s into code spans and the text between them; a
// backtick left unmatched is dropped.
func codeSpans(s string) []mdPart {
	var out []mdPart
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return append(out, mdPart{text: s})
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			return append(out, mdPart{text: s[:i] + s[i+1:]})
		}
		out = append(out, mdPart{text: s[:i]}, mdPart{text: s[i+1 : i+1+j], code: true})
		s = s[i+2+j:]
	}
}

// dropAnnouncements removes from the body's text the lines that only
// announce (see isBodyAnnouncement), and such sentences ending a line,
// unless what the line announces follows it in the prose (a fence or a
// list).
// Fenced text is kept as it is.
func dropAnnouncements(text string) []string {
	lines := strings.Split(text, "\n")
	// introduces[i]: the next line after i that is not blank opens a
	// fence or a list, which line i may announce ("These changes
	// will:", "You can run:").
	introduces := make([]bool, len(lines)+1)
	for i := len(lines) - 1; i >= 0; i-- {
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
			introduces[i] = mdFence.MatchString(lines[i+1]) || mdList.MatchString(lines[i+1])
		} else {
			introduces[i] = introduces[i+1]
		}
	}
	var out []string
	fence := ""
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if fence != "" {
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
			out = append(out, l)
			continue
		}
		if m := mdFence.FindStringSubmatch(l); m != nil {
			fence = m[1]
			out = append(out, l)
			continue
		}
		if t == "" || mdBlockStart.MatchString(l) || introduces[i] {
			out = append(out, l)
			continue
		}
		out = append(out, dropTrailingAnnouncements(l))
	}
	return out
}

// dropTrailingAnnouncements removes the announcements ending line l
// ("... this change. Here's the updated code:"); "" if it is all one.
func dropTrailingAnnouncements(l string) string {
	ss := sentences(l)
	keep := len(l)
	for i := len(ss) - 1; i >= 0; i-- {
		if !isBodyAnnouncement(l[ss[i].start:ss[i].end]) {
			break
		}
		keep = ss[i].start
	}
	return strings.TrimRight(l[:keep], " \t")
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
