package translate

import (
	"fmt"
	"strings"
)

// FormatUdiffx is the name of the udiffx format: a <FILE_CHANGES>
// envelope of XML-like directives with unified-diff patches.
const FormatUdiffx = "udiffx"

// The tag names of udiffx, upper-cased.
const (
	udxEnvelope = "FILE_CHANGES"
	udxNew      = "FILE_NEW"
	udxPatch    = "FILE_PATCH"
	udxRename   = "FILE_RENAME"
	udxDelete   = "FILE_DELETE"
	udxAppend   = "FILE_APPEND"
)

// readUdiffx reads a reply in the udiffx format: the first
// <FILE_CHANGES> ... </FILE_CHANGES> envelope, fenced or not (its
// opening tag first on a line; failing that, the first within a line
// that is not quoted in backticks), and the directives in it, in order:
//
//   - <FILE_NEW file_path="P">content</FILE_NEW>: a Create of the
//     content with Overwrite set (the seed creates or overwrites);
//   - <FILE_PATCH file_path="P">unified diff</FILE_PATCH>: one Edit per
//     hunk that changes something, sharing a Group, Ordered, each with
//     the hunk's old start line as LineHint (see hunkOps);
//   - <FILE_APPEND file_path="P">lines</FILE_APPEND>: an Edit with
//     Where AtEnd adding the lines, raw (no diff), after the file's
//     last line (rust-udiffx's newer versions; see appendOp);
//   - <FILE_RENAME from_path="A" to_path="B" />: a Rename;
//   - <FILE_DELETE file_path="P" />: a Delete with Recursive set (a
//     path that names an existing directory deletes every file in it).
//
// Tag and attribute names are case-insensitive (a tag in another case
// than the prompt's gets a warning naming its line); a tag whose name
// is misspelt ("<FILE-CHANGES>", "<FILECHANGES>", "<FILE_CHANGE>";
// see markerAt) is a Reply.Failed entry naming its line, wherever it
// stands, since the directives it holds cannot be read. Values are
// single- or double-quoted (or bare), in any order, with any spacing; every tag
// may be self-closing or not (a FILE_RENAME or FILE_DELETE needs no
// closing tag; a self-closing FILE_NEW creates an empty file). A
// Markdown fence wrapping a FILE_NEW, FILE_PATCH or FILE_APPEND body is stripped. An
// operation's Line is the reply line of its tag (of the hunk's "@@"
// line for a patch); its Format is "udiffx".
//
// A directive that cannot be read (a missing attribute, no closing
// tag before the next line starting with a "<FILE_" or "</FILE_" tag,
// a patch without a changing hunk, an unknown FILE_ tag, a tag without
// its ">") is a Reply.Failed entry naming its tag's line, and reading
// resumes after it, so the directives that follow still count; so is
// a directive tag starting a line outside the envelopes (written after
// </FILE_CHANGES>), which is not read. Text
// between directives, a second envelope, and an envelope without its
// </FILE_CHANGES> (read to the end of the reply, or to the fence that
// wraps it) are warnings. The lines outside the envelope and its
// wrapping fence are Reply.Prose, fenced shell blocks among them
// Reply.Shell.
//
// The error is ErrNoEdits (wrapped, with the reason) when the reply
// has no envelope or the envelope holds no directive; the reply is
// returned in every case.
func readUdiffx(text string) (*Reply, error) {
	p := newUdiffxReader(text)
	r := p.r
	at := p.findEnvelope(0)
	if at < 0 {
		at = p.findInlineEnvelope()
	}
	if at < 0 {
		p.prose(nil)
		if p.misspelt() {
			return r, nil
		}
		hint := ""
		for at := p.nextTag(0); at >= 0; at = p.nextTag(at + 1) {
			if n := udxTagAt(p.src, at, false); udxDirective(n) {
				hint = fmt.Sprintf(" (the <%s> tag at line %d stands outside one: wrap the directives in <%s> ... </%s>)", n, p.lineOf(at), udxEnvelope, udxEnvelope)
				break
			}
		}
		return r, fmt.Errorf("%w: the reply has no <%s> envelope%s", ErrNoEdits, udxEnvelope, hint)
	}
	env := p.envelope(at)
	start := env.from
	envs := []udxRange{env}
	for i := env.to + 1; i < p.n; {
		j := p.findEnvelope(i)
		if j < 0 {
			break
		}
		j = p.lineOf(j) - 1
		e := udxRange{from: j, to: p.closeLine(j)}
		p.r.warnf(j+1, "only the first <%s> envelope is read (line %d); this one is ignored", udxEnvelope, start+1)
		envs = append(envs, e)
		i = e.to + 1
	}
	p.prose(envs)
	p.misspelt()
	p.strays(envs)
	var near nearMisses
	for i := env.from; i <= env.to; i++ {
		t := strings.TrimSpace(p.line(i))
		near.add(i+1, t, udxMarkerOf(t))
	}
	r.Warnings = append(r.Warnings, near.warnings()...)
	sortWarnings(r.Warnings)
	if len(r.Ops) == 0 && len(r.Failed) == 0 {
		return r, fmt.Errorf("%w: the <%s> envelope at line %d holds no directive (%s)",
			ErrNoEdits, udxEnvelope, start+1, strings.Join(udxDirectives, ", "))
	}
	return r, nil
}

// udiffxAt is the detector of udiffx: the offset of the envelope the
// reader would take, counted only when a directive tag follows it (a
// "<FILE_CHANGES>" named in prose starts nothing), or of a line
// starting with a misspelt tag, which the reader fails on, if that
// comes first; -1 when none.
func udiffxAt(x *markIndex) int {
	at := udxEnvelopeAt(x.text)
	if far := x.lineAt(func(t string) bool { return udxMarkerOf(t).fit == fitFar }); far >= 0 && (at < 0 || far < at) {
		return far
	}
	return at
}

// udxEnvelopeAt is the offset of the envelope udiffxAt counts; -1
// when none.
func udxEnvelopeAt(text string) int {
	if !udxHintRe.MatchString(text) {
		return -1
	}
	p := newUdiffxReader(text)
	at := p.findEnvelope(0)
	if at < 0 {
		at = p.findInlineEnvelope()
	}
	if at < 0 {
		return -1
	}
	for t := p.nextTag(at + 1); t >= 0; t = p.nextTag(t + 1) {
		if udxDirective(udxTagAt(p.src, t, false)) {
			// at counts "\n" line ends; text may have "\r\n".
			line, off := p.lineOf(at)-1, at-p.start(p.lineOf(at)-1)
			pos := 0
			for ; line > 0; line-- {
				pos += strings.IndexByte(text[pos:], '\n') + 1
			}
			return pos + off
		}
	}
	return -1
}

// udxDirectives are the directive tags the reader reads.
var udxDirectives = []string{udxNew, udxPatch, udxAppend, udxRename, udxDelete}

// udxDirective reports whether the upper-cased tag name is a directive.
func udxDirective(name string) bool {
	for _, d := range udxDirectives {
		if name == d {
			return true
		}
	}
	return false
}

var udxHintRe = lazyRegexpOf(`(?i)<file_changes`)

// udxMarkerOf is markerAt's answer for the trimmed line t when t
// resembles a udiffx tag.
func udxMarkerOf(t string) markerLike {
	if m := markerAt(t); m.kind == mkUdxEnvelope || m.kind == mkUdxDirective {
		return m
	}
	return markerLike{}
}

// misspelt turns every line that starts with a misspelt tag
// ("<FILE-CHANGES>", "<FILECHANGES>", "< FILE_NEW file_path=...>"),
// which the reader cannot read, into a Reply.Failed entry naming it,
// so that a reply holding one fails instead of losing its directives.
// It reports whether there was one.
func (p *udiffxReader) misspelt() bool {
	found := false
	for i := 0; i < p.n; i++ {
		t := strings.TrimSpace(p.line(i))
		if m := udxMarkerOf(t); m.fit == fitFar {
			p.r.failf(i+1, "", "%s", m.farMsg(t))
			found = true
		}
	}
	return found
}

// strays turns every line outside the envelopes envs that starts with
// a directive tag (<FILE_NEW, <FILE_PATCH, <FILE_APPEND, <FILE_RENAME,
// <FILE_DELETE)
// into a Reply.Failed entry naming it: a directive the model wrote
// after the envelope closed must not vanish while the envelope's
// apply.
func (p *udiffxReader) strays(envs []udxRange) {
	for k, i := range p.tagged {
		if !udxDirective(p.tags[k]) {
			continue
		}
		inside := false
		for _, e := range envs {
			inside = inside || e.from <= i && i <= e.to
		}
		if !inside {
			t := strings.TrimSpace(p.line(i))
			p.r.failf(i+1, "", "%s", strayMarkerMsg(t, udxMarkerOf(t), false))
		}
	}
}

// udiffxReader reads a reply through its text with "\r\n" folded to "\n"
// (see udxLines), so that every tag knows its reply line.
type udiffxReader struct {
	udxLines
	r     *Reply
	group int
}

// udxRange is a span of reply lines (0-based, inclusive). fenceEnd
// says its last line closes the fence that wraps it.
type udxRange struct {
	from, to int
	fenceEnd bool
	head     string // the text before the opening tag on its line
}

func newUdiffxReader(text string) *udiffxReader {
	return &udiffxReader{udxLines: newUdxLines(text), r: &Reply{Format: FormatUdiffx}}
}

// findEnvelope returns the offset of the first <FILE_CHANGES> tag that
// starts a line, from line i on; -1 when there is none.
func (p *udiffxReader) findEnvelope(i int) int {
	for ; i < p.n; i++ {
		t := strings.TrimLeft(p.line(i), " \t")
		if udxTagAt(t, 0, false) == udxEnvelope {
			return p.start(i) + len(p.line(i)) - len(t)
		}
	}
	return -1
}

// findInlineEnvelope returns the offset of the first "<FILE_CHANGES>"
// within a line that is not quoted as code (a backtick before it);
// -1 when there is none.
func (p *udiffxReader) findInlineEnvelope() int {
	for off := 0; off < len(p.src); {
		i := strings.Index(p.src[off:], "<")
		if i < 0 {
			return -1
		}
		off += i
		if udxTagAt(p.src, off, false) == udxEnvelope && (off == 0 || p.src[off-1] != '`') {
			return off
		}
		off++
	}
	return -1
}

// closeLine returns the line holding the </FILE_CHANGES> of the
// envelope opening at line i, or the last line.
func (p *udiffxReader) closeLine(i int) int {
	for j := i; j < p.n; j++ {
		if udxIndexClose(p.line(j), 0, udxEnvelope) >= 0 {
			return j
		}
	}
	return p.n - 1
}

// envelope reads the directives of the envelope whose tag opens at
// offset at and returns the lines it spans.
func (p *udiffxReader) envelope(at int) udxRange {
	start := p.lineOf(at) - 1
	env := udxRange{from: start, head: p.src[p.start(start):at]}
	wrap, wrapped := p.fenceAt(start)
	pos := at + 1 + len(udxEnvelope)
	if end := strings.IndexByte(p.src[pos:p.lineEnd(start)], '>'); end >= 0 {
		pos += end + 1
	}
	// The wrapping fence ends an unclosed envelope, but only when no
	// </FILE_CHANGES> follows: otherwise its close is a stray fence.
	closed := udxIndexClose(p.src, pos, udxEnvelope) >= 0
	for {
		next := p.nextTag(pos)
		stop := next
		if stop < 0 {
			stop = len(p.src)
		}
		if end, ok := p.between(pos, stop, wrap, wrapped && !closed); ok {
			p.r.warnf(start+1, "the <%s> envelope has no closing </%s>; it is read to the fence that closes at line %d", udxEnvelope, udxEnvelope, end+1)
			env.to, env.fenceEnd = end, true
			return env
		}
		if next < 0 {
			p.r.warnf(start+1, "the <%s> envelope has no closing </%s>; it is read to the end of the reply", udxEnvelope, udxEnvelope)
			env.to = p.n - 1
			return env
		}
		if p.src[next+1] == '/' {
			name, end := udxCloseTag(p.src, next)
			if name == udxEnvelope {
				env.to = p.lineOf(next) - 1
				return env
			}
			p.r.warnf(p.lineOf(next), "a stray </%s> is ignored", name)
			pos = end
			continue
		}
		pos = p.directive(next)
	}
}

// fenceAt reports the fence that is open at line i, judged by the
// fence lines above it.
func (p *udiffxReader) fenceAt(i int) (fence, bool) {
	var open fence
	in := false
	for j := 0; j < i; j++ {
		t := strings.TrimSpace(p.line(j))
		if in {
			if open.closes(t) {
				in = false
			}
		} else if f, ok := openFence(t); ok {
			open, in = f, true
		}
	}
	return open, in
}

// between checks the text of src[from:to] that stands between
// directives: blank and fence lines are ignored, other text is ignored
// with a warning. When endAtFence is set, a line that closes the fence
// wrap ends the envelope: its line is returned with ok set.
func (p *udiffxReader) between(from, to int, wrap fence, endAtFence bool) (int, bool) {
	if from >= to {
		return 0, false
	}
	first := p.lineOf(from) - 1
	warned := false
	for i, seg := range strings.Split(p.src[from:to], "\n") {
		t := strings.TrimSpace(seg)
		whole := i > 0 || from == p.start(first)
		switch {
		case t == "":
		case endAtFence && whole && wrap.closes(t):
			return first + i, true
		case isFenceLine(t):
		case !warned:
			p.r.warnf(first+i+1, "text between directives is ignored: %q", hunkClip(t))
			warned = true
		}
	}
	return 0, false
}

// nextTag returns the offset of the next "<FILE_" or "</FILE_" tag
// from off on; -1 when there is none.
func (p *udiffxReader) nextTag(off int) int {
	for off < len(p.src) {
		i := strings.IndexByte(p.src[off:], '<')
		if i < 0 {
			return -1
		}
		off += i
		if udxTagAt(p.src, off, true) != "" {
			return off
		}
		off++
	}
	return -1
}

// directive reads the directive whose tag opens at offset at and
// returns the offset where reading goes on.
func (p *udiffxReader) directive(at int) int {
	line := p.lineOf(at)
	tag, bad := udxOpenTag(p.src, at)
	if bad != "" {
		p.r.failf(line, tag.somePath(), "the <%s> tag %s", tag.name, bad)
		if end, _, found := p.findClose(tag.name, at+1, !udxBodied(tag.name)); found {
			return end
		}
		return p.barrier(at)
	}
	if tag.name == udxEnvelope {
		p.r.warnf(line, "a nested <%s> is ignored", udxEnvelope)
		return tag.end
	}
	pos := tag.end
	var body []string
	first := line
	closed := tag.self
	closeAt := -1
	if !tag.self {
		if end, at, found := p.findClose(tag.name, tag.end, !udxBodied(tag.name)); found {
			pos, closed, closeAt = end, true, at
			if tag.name != udxNew { // kept whole, see bodyText
				body, first = p.body(tag.end, closeAt)
			}
		}
	}
	switch tag.name {
	case udxNew, udxPatch, udxAppend:
		path, missing := p.attrs(tag, line, "file_path")
		if !closed {
			stop := p.barrier(tag.end)
			p.r.failf(line, path, "the <%s> directive has no closing </%s> before %s", tag.name, tag.name, p.where(stop))
			return stop
		}
		if missing != "" {
			p.r.failf(line, tag.somePath(), "%s", missing)
			return pos
		}
		if tag.name == udxNew {
			content := ""
			if closeAt >= 0 {
				content = p.bodyText(tag.end, closeAt)
			}
			p.r.Ops = append(p.r.Ops, Operation{Kind: Create, Format: FormatUdiffx, Path: path, FileCreate: FileCreate{Content: content, Overwrite: true}, Line: line})
			return pos
		}
		body, first = udxStripFence(body, first)
		if tag.name == udxAppend {
			p.appendOp(path, body, line)
			return pos
		}
		hp, err := parseHunks(body, first)
		p.r.Warnings = append(p.r.Warnings, hp.Warnings...)
		if err != nil {
			p.r.failf(line, path, "%s", err.Msg)
			return pos
		}
		p.checkHeaders(hp, path)
		p.group++
		p.r.Ops = append(p.r.Ops, hunkOps(hp, FormatUdiffx, path, p.group)...)
	case udxRename:
		from, missing := p.attrs(tag, line, "from_path", "to_path")
		if missing != "" {
			p.r.failf(line, tag.somePath(), "%s", missing)
			break
		}
		p.r.Ops = append(p.r.Ops, Operation{Kind: Rename, Format: FormatUdiffx, Path: from, FileOp: FileOp{NewPath: tag.attr("to_path")}, Line: line})
	case udxDelete:
		path, missing := p.attrs(tag, line, "file_path")
		if missing != "" {
			p.r.failf(line, tag.somePath(), "%s", missing)
			break
		}
		p.r.Ops = append(p.r.Ops, Operation{Kind: Delete, Format: FormatUdiffx, Path: path, FileOp: FileOp{Recursive: true}, Line: line})
	default:
		p.r.failf(line, tag.somePath(), "unknown directive <%s>: the directives are <%s> and <%s>",
			tag.name, strings.Join(udxDirectives[:len(udxDirectives)-1], ">, <"), udxDirectives[len(udxDirectives)-1])
	}
	if (tag.name == udxRename || tag.name == udxDelete) && !blank(body) {
		p.r.warnf(first, "the text inside <%s> is ignored", tag.name)
	}
	return pos
}

// attrs checks that tag has the attributes names (the first is the
// path returned) and warns about the others. missing is the failure
// message when one is absent or empty.
func (p *udiffxReader) attrs(tag udxTag, line int, names ...string) (path, missing string) {
	path = tag.attr(names[0])
	var absent []string
	for _, n := range names {
		if tag.attr(n) == "" {
			absent = append(absent, n)
		}
	}
	for _, a := range tag.order {
		known := false
		for _, n := range names {
			known = known || a == n
		}
		if !known {
			p.r.warnf(line, "the attribute %s of <%s> is ignored", a, tag.name)
		}
	}
	if len(absent) == 0 {
		return path, ""
	}
	missing = fmt.Sprintf("the <%s> tag has no %s attribute", tag.name, strings.Join(absent, " or "))
	if len(tag.order) > 0 {
		missing += fmt.Sprintf(" (it has %s)", strings.Join(tag.order, ", "))
	}
	return path, missing
}

// findClose looks for the closing tag of name from offset from on,
// up to the first line after from's that starts with a tag (that line
// included when it starts with this closing tag); an optional closing
// tag (FILE_RENAME, FILE_DELETE, unknown tags) is looked for only in
// the next udxOptionalLines lines. It returns the offset after the
// closing tag and the offset where it starts.
func (p *udiffxReader) findClose(name string, from int, optional bool) (end, at int, ok bool) {
	limit := len(p.src)
	if i := p.tagLine(p.lineOf(from)); i < p.n {
		limit = p.start(i)
		if p.lineTag(i) == "/"+name {
			limit = p.lineEnd(i)
		}
	}
	if last := p.lineOf(from) + udxOptionalLines; optional && last < p.n {
		limit = min(limit, p.lineEnd(last))
	}
	at = udxIndexClose(p.src[:limit], from, name)
	if at < 0 {
		return 0, 0, false
	}
	_, end = udxCloseTag(p.src, at)
	return end, at, true
}

// udxOptionalLines bounds the search for an optional closing tag, so
// that tags standing within lines cannot make reading quadratic.
const udxOptionalLines = 100

// udxBodied reports whether the directive name must have a body and a
// closing tag (or be self-closing).
func udxBodied(name string) bool { return name == udxNew || name == udxPatch || name == udxAppend }

// appendOp reads a FILE_APPEND body as rust-udiffx does (src/extract.rs
// reads it like a FILE_NEW body, src/applier.rs writes it after the
// file's content): its lines, raw, no diff. Two things differ, so that
// the result is what the model meant (SPEC section 4): the lines go on
// lines of their own even when the file lacks a final newline (the
// reference glues the first to the file's last line), and a file that
// does not exist fails the edit, as an Edit does, where the reference
// creates it (a misspelt path would make a stray file; FILE_NEW
// creates). A body with no line appends nothing and fails.
func (p *udiffxReader) appendOp(path string, body []string, line int) {
	if len(body) == 0 {
		p.r.failf(line, path, "the <%s> directive holds no line to append", udxAppend)
		return
	}
	p.r.Ops = append(p.r.Ops, Operation{Kind: Edit, Format: FormatUdiffx, Path: path,
		LineEdit: LineEdit{New: append([]string(nil), body...)}, Placement: Placement{Where: AtEnd, Indent: IndentAsIs}, Line: line})
}

// barrier is the offset of the first tag that starts a line after the
// one holding offset from, where the body of an unclosed directive
// ends; len(src) when there is none.
func (p *udiffxReader) barrier(from int) int {
	i := p.tagLine(p.lineOf(from))
	if i == p.n {
		return len(p.src)
	}
	return p.lineEnd(i) - len(strings.TrimLeft(p.line(i), " \t"))
}

// where names the place a directive ran into, for a message.
func (p *udiffxReader) where(off int) string {
	if off >= len(p.src) {
		return "the end of the reply"
	}
	return fmt.Sprintf("line %d", p.lineOf(off))
}

// body returns the lines between the end of an opening tag (from) and
// its closing tag (to), and the reply line of the first: the rest of
// the tag's line and the part of the closing tag's line before it
// count only when they are not blank.
func (p *udiffxReader) body(from, to int) ([]string, int) {
	first := p.lineOf(from)
	raw := p.src[from:to]
	if !strings.Contains(raw, "\n") {
		if strings.TrimSpace(raw) == "" {
			return nil, first
		}
		return []string{raw}, first
	}
	lines := strings.Split(raw, "\n")
	if strings.TrimSpace(lines[0]) == "" {
		lines, first = lines[1:], first+1
	}
	if n := len(lines); n > 0 && strings.TrimSpace(lines[n-1]) == "" {
		lines = lines[:n-1]
	}
	return lines, first
}

// bodyText returns the lines of a FILE_NEW body that body and
// udxStripFence would keep, each ended by "\n", as one string: a file's
// content, kept whole (Operation.Content) and, when its last line ends
// in src, no copy of it.
func (p *udiffxReader) bodyText(from, to int) string {
	raw := p.src[from:to]
	if !strings.Contains(raw, "\n") {
		if strings.TrimSpace(raw) == "" {
			return ""
		}
		return raw + "\n"
	}
	// The lines kept are raw[a:b], b at the end of the last one.
	a, b := 0, len(raw)
	if i := strings.IndexByte(raw, '\n'); strings.TrimSpace(raw[:i]) == "" {
		a = i + 1
	}
	if s := lastLineStart(raw, a, b); strings.TrimSpace(raw[s:b]) == "" {
		if s == a {
			return ""
		}
		b = s - 1
	}
	// A fence around the body goes: its first non-blank line opens it,
	// its last non-blank line closes it (udxStripFence).
	sa, ea := a, a
	for {
		if ea = strings.IndexByte(raw[sa:b], '\n'); ea < 0 {
			ea = b
		} else {
			ea += sa
		}
		if strings.TrimSpace(raw[sa:ea]) != "" || ea >= b {
			break
		}
		sa = ea + 1
	}
	sb, eb := lastLineStart(raw, a, b), b
	for sb > sa && strings.TrimSpace(raw[sb:eb]) == "" {
		eb = sb - 1
		sb = lastLineStart(raw, a, eb)
	}
	if sa < sb && udxFenced(strings.TrimSpace(raw[sa:ea]), strings.TrimSpace(raw[sb:eb])) {
		if ea+1 >= sb {
			return ""
		}
		a, b = ea+1, sb-1
	}
	if from+b < len(p.src) && p.src[from+b] == '\n' {
		return p.src[from+a : from+b+1]
	}
	return raw[a:b] + "\n"
}

// lastLineStart returns where the last line of s[a:b] starts.
func lastLineStart(s string, a, b int) int {
	return a + strings.LastIndexByte(s[a:b], '\n') + 1
}

// checkHeaders warns when the file headers of a patch name another
// file than its file_path, or more than one file.
func (p *udiffxReader) checkHeaders(hp *hunkPatch, path string) {
	if len(hp.Headers) > 1 {
		p.r.warnf(hp.Headers[1].Line, "the patch of %s holds %d file headers; every hunk in it edits %s", path, len(hp.Headers), path)
		return
	}
	for _, h := range hp.Headers {
		for _, n := range []string{h.Old, h.New} {
			if n = udxHeaderName(n); n != "" && !udxSameFile(n, path) {
				p.r.warnf(h.Line, "the patch header names %s; the hunks edit %s, the file_path", n, path)
				return
			}
		}
	}
}

// prose sorts the lines outside the envelopes into Reply.Prose (one
// blank line standing for each run of them, none at the ends) and
// Reply.Shell. A fence open where an envelope starts wraps it: its
// lines are the envelope's, and no shell block even when its language
// is a shell's.
func (p *udiffxReader) prose(envs []udxRange) {
	var prose []string
	var open fence
	in := false
	for i := 0; i < p.n; i++ {
		if len(envs) > 0 && i == envs[0].from {
			if h := envs[0].head; strings.TrimSpace(h) != "" && !in {
				prose = append(prose, h)
			}
			i = envs[0].to
			if envs[0].fenceEnd {
				in = false
			}
			envs = envs[1:]
			continue
		}
		t := strings.TrimSpace(p.line(i))
		if in {
			if open.closes(t) {
				in = false
			}
			continue
		}
		if f, ok := openFence(t); ok {
			if f.ticks > 0 && f.isShell() {
				// The block is read no further than the line where the
				// next envelope starts, which closes no backtick fence:
				// a fence still open there wraps the envelope, and the
				// lines of a large envelope are not copied for nothing.
				n := p.n
				if len(envs) > 0 {
					n = envs[0].from + 1
				}
				if sh, next := shellBlock(n, p.line, i, f, f.closes); next < n || len(envs) == 0 {
					p.r.Shell = append(p.r.Shell, sh)
					i = next - 1
					continue
				}
			}
			open, in = f, true
			continue
		}
		if keepProse(prose, p.line(i)) {
			prose = append(prose, p.line(i))
		}
	}
	for len(prose) > 0 && strings.TrimSpace(prose[len(prose)-1]) == "" {
		prose = prose[:len(prose)-1]
	}
	p.r.Prose = prose
}

// udxStripFence strips a Markdown fence that wraps a directive body:
// its first non-blank line opens a fence of three or more backticks or
// tildes and its last non-blank line closes it. first is the reply
// line of lines[0]; the reply line of the first line kept is returned.
func udxStripFence(lines []string, first int) ([]string, int) {
	a, b := 0, len(lines)-1
	for a < len(lines) && strings.TrimSpace(lines[a]) == "" {
		a++
	}
	for b >= 0 && strings.TrimSpace(lines[b]) == "" {
		b--
	}
	if a >= b {
		return lines, first
	}
	if !udxFenced(strings.TrimSpace(lines[a]), strings.TrimSpace(lines[b])) {
		return lines, first
	}
	return lines[a+1 : b], first + a + 1
}

// udxFenced reports whether a body whose first and last non-blank
// lines are open and last (trimmed) is wrapped in a Markdown fence:
// three or more backticks or tildes, closed by as many or more.
func udxFenced(open, last string) bool {
	c := open[0]
	if c != '`' && c != '~' {
		return false
	}
	n := countPrefix(open, c)
	return n >= 3 && strings.IndexByte(open[n:], '`') < 0 && countPrefix(last, c) >= n && countPrefix(last, c) == len(last)
}

// udxHeaderName cleans a name from a "---" or "+++" header: a tab and
// what follows (a timestamp), quotes, and an "a/" or "b/" prefix go;
// "/dev/null" is no name.
func udxHeaderName(n string) string {
	if i := strings.IndexByte(n, '\t'); i >= 0 {
		n = n[:i]
	}
	n = strings.Trim(strings.TrimSpace(n), `"`)
	if n == "/dev/null" {
		return ""
	}
	if strings.HasPrefix(n, "a/") || strings.HasPrefix(n, "b/") {
		n = n[2:]
	}
	return n
}

// udxSameFile reports whether the names a and b plausibly name one
// file: equal once cleaned of "./", or one a trailing part of the other.
func udxSameFile(a, b string) bool {
	a, b = strings.TrimPrefix(a, "./"), strings.TrimPrefix(b, "./")
	return a == b || strings.HasSuffix(a, "/"+b) || strings.HasSuffix(b, "/"+a)
}
