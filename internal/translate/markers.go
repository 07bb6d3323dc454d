package translate

// What a reply line is to the formats that mark their blocks with
// lines of their own: the one place that says whether a line resembles
// a marker, of which format, and how closely. Detection, the readers,
// whole's refusal and the pre-commit check all ask markerAt, so that a
// line one of them takes for a marker is never another's file content.

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
)

// markerKind is the marker a line resembles.
type markerKind uint8

const (
	noMarker       markerKind = iota
	mkSearch                  // SEARCH/REPLACE: <<<<<<< SEARCH
	mkReplace                 // SEARCH/REPLACE: >>>>>>> REPLACE
	mkEditStart               // edit-v2: <<<<<<< EDIT
	mkFiupStart               // fiup: <<<FIUP>>>
	mkFiupEnd                 // fiup: <<<END>>>
	mkUdxEnvelope             // udiffx: <FILE_CHANGES> or </FILE_CHANGES>
	mkUdxDirective            // udiffx: <FILE_NEW, <FILE_PATCH, <FILE_APPEND, <FILE_RENAME, <FILE_DELETE or their closing tags
	mkApBegin                 // apply-patch: *** Begin Patch
	mkApEnd                   // apply-patch: *** End Patch
	mkApAdd                   // apply-patch: *** Add File: P
	mkApDelete                // apply-patch: *** Delete File: P
	mkApUpdate                // apply-patch: *** Update File: P
	mkApMove                  // apply-patch: *** Move to: P
	mkClineSearch             // cline: ------- SEARCH
	mkClineReplace            // cline: +++++++ REPLACE
	mkAgentTag                // cline, roo: <replace_in_file>, <apply_diff>, <write_to_file> or their closing tags
)

// markerFit says how closely a line resembles its marker.
type markerFit uint8

const (
	// fitExact: the marker as its format spells it, give or take
	// white space around it (and, for SEARCH/REPLACE, the five to nine
	// characters and the optional ">" its reference parser takes).
	fitExact markerFit = iota + 1
	// fitNear: a near miss its reader takes, with a warning: another
	// case, white space missing or doubled inside it, another number
	// of brackets or stars.
	fitNear
	// fitFar: too far from the marker to be read as it (a run of
	// brackets outside five to nine, a misspelt udiffx tag name), yet
	// too close to be file content: where a marker may stand, the
	// reader fails naming its line, and no reply holding one is read
	// as whole files.
	fitFar
)

// markerLike is what markerAt found on a line.
type markerLike struct {
	kind markerKind
	fit  markerFit
	// arg is what follows an apply-patch header's name and colon (the
	// path), untrimmed; for a udiffx tag, the tag as the format spells
	// it ("</FILE_PATCH>").
	arg string
}

// Only lines that name their format resemble a marker: a run of "<"
// (three or more) or ">" (four or more) before SEARCH, REPLACE, EDIT,
// FIUP or END, a "<FILE_" tag, three to five "*" before Begin Patch,
// End Patch or a file header.
// The lines the formats share with prose and with git's conflict
// markers ("=======", "-------", a bare ">>>>>>>", "<<<<<<< HEAD") are
// no marker here: each reader knows them inside its own blocks.

// markerAt says which marker the line t (trimmed of white space)
// resembles. It looks at t's first byte before anything else.
func markerAt(t string) markerLike {
	if len(t) < 4 {
		return markerLike{}
	}
	switch t[0] {
	case '<':
		if m := angleMarker(t); m.kind != noMarker {
			return m
		}
		if m := udxMarker(t); m.kind != noMarker {
			return m
		}
		return agentTagMarker(t)
	case '>':
		return replaceMarker(t)
	case '*':
		return patchMarker(t)
	case '-', '+':
		return clineMarker(t)
	}
	return markerLike{}
}

// agentTagMarker reads the tag of an agent's tool call at the start of
// t (see agentTagAt); arg is the tag as the tool spells it.
func agentTagMarker(t string) markerLike {
	tool, closing, exact, _ := agentTagAt(t)
	if tool == "" {
		return markerLike{}
	}
	m := markerLike{kind: mkAgentTag, fit: fitNear, arg: "<" + tool + ">"}
	if closing {
		m.arg = "</" + tool + ">"
	}
	if exact {
		m.fit = fitExact
	}
	return m
}

// angleMarker reads a run of "<" and a keyword: SEARCH, EDIT, FIUP
// (with its closing ">>>") or END (likewise).
func angleMarker(t string) markerLike {
	n := countPrefix(t, '<')
	gap, word, after := splitKeyword(t[n:])
	runFit := func(exact bool) markerFit {
		switch {
		case n < 5 || n > 9:
			return fitFar
		case exact:
			return fitExact
		}
		return fitNear
	}
	switch {
	case strings.EqualFold(word, "SEARCH"):
		if n < 3 || strings.Trim(after, ">") != "" {
			return markerLike{}
		}
		fit := runFit(gap == " " && word == "SEARCH")
		if len(after) > 1 {
			fit = fitFar // "<<<SEARCH>>>"
		}
		return markerLike{kind: mkSearch, fit: fit}
	case strings.EqualFold(word, "EDIT"):
		if n < 3 || after != "" {
			return markerLike{}
		}
		fit := runFit(gap == " " && word == "EDIT")
		if fit == fitExact && n != 7 {
			fit = fitNear // edit-v2 takes exactly seven
		}
		return markerLike{kind: mkEditStart, fit: fit}
	case strings.EqualFold(word, "FIUP"), strings.EqualFold(word, "END"):
		inner := strings.TrimLeft(after, " \t")
		k := countPrefix(inner, '>')
		if k != len(inner) {
			return markerLike{}
		}
		kind, canon := mkFiupStart, fiupStart
		if len(word) == 3 {
			// "<END>" and a heredoc's "<<END" are too common to be one.
			if n < 2 || k < 2 {
				return markerLike{}
			}
			kind, canon = mkFiupEnd, fiupEnd
		}
		if t == canon {
			return markerLike{kind: kind, fit: fitExact}
		}
		return markerLike{kind: kind, fit: fitNear}
	}
	return markerLike{}
}

// replaceMarker reads a run of ">" and REPLACE. Three ">" are a
// Python prompt (">>> replace" in a doctest), not a marker.
func replaceMarker(t string) markerLike {
	n := countPrefix(t, '>')
	gap, word, after := splitKeyword(t[n:])
	if n < 4 || after != "" || !strings.EqualFold(word, "REPLACE") {
		return markerLike{}
	}
	switch {
	case n < 5 || n > 9:
		return markerLike{kind: mkReplace, fit: fitFar}
	case gap == " " && word == "REPLACE":
		return markerLike{kind: mkReplace, fit: fitExact}
	}
	return markerLike{kind: mkReplace, fit: fitNear}
}

// splitKeyword splits s into the white space it starts with, the
// letters after it and the rest.
func splitKeyword(s string) (gap, word, after string) {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && apIsLetter(s[j]) {
		j++
	}
	return s[:i], s[i:j], s[j:]
}

// udxMarker reads a udiffx tag at the start of t: "<FILE_CHANGES",
// "</FILE_PATCH", ... The reader takes any case; other spellings of
// the name ("<FILE-CHANGES>", "<FILECHANGES>", "< FILE_NEW", the
// singular "<FILE_CHANGE>") it cannot read.
func udxMarker(t string) markerLike {
	i := 1
	if t[i] == '/' {
		i++
	}
	gap := i
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	spaced := i != gap
	if len(t)-i < 4 || !strings.EqualFold(t[i:i+4], "FILE") {
		return markerLike{}
	}
	j := i + 4
	sep := byte(0)
	if j < len(t) && (t[j] == '_' || t[j] == '-' || t[j] == ' ') {
		sep = t[j]
		j++
	}
	k := j
	for k < len(t) && apIsLetter(t[k]) {
		k++
	}
	if k < len(t) && udxNameByte(t[k]) {
		return markerLike{} // "<FILE_NEWS>", "<FILE_NEW2"
	}
	name := ""
	for _, n := range [...]string{"CHANGES", "CHANGE", "NEW", "PATCH", "APPEND", "RENAME", "DELETE"} {
		if strings.EqualFold(t[j:k], n) {
			name = n
			break
		}
	}
	if name == "" {
		return markerLike{}
	}
	odd := spaced || sep != '_' || name == "CHANGE"
	m := markerLike{kind: mkUdxDirective}
	switch {
	case name == "CHANGES" || name == "CHANGE":
		m.kind, name = mkUdxEnvelope, "CHANGES"
	case odd && !strings.Contains(strings.ToLower(t[k:]), "_path"):
		// "<file-delete>" may be any XML; with a udiffx attribute it
		// is a directive misspelt.
		return markerLike{}
	}
	switch {
	case odd:
		m.fit = fitFar
	case strings.IndexFunc(t[i:k], unicode.IsLower) < 0:
		m.fit = fitExact
	default:
		m.fit = fitNear
	}
	m.arg = t[:gap] + "FILE_" + name + ">"
	return m
}

// patchMarker reads an apply-patch marker: three to five "*", then
// Begin Patch, End Patch, or a header with its path. Two "*" are left
// alone: "**Update File: a.py**" is Markdown bold.
func patchMarker(t string) markerLike {
	n := countPrefix(t, '*')
	if n < 3 || n > 5 {
		return markerLike{}
	}
	rest := t[n:]
	canon := n == 3 && strings.HasPrefix(rest, " ")
	// Begin Patch, End Patch: in any case and spacing, with stars or a
	// colon after.
	body := strings.TrimRight(rest, "*: \t")
	begin, end := foldSqueezed(body, "BEGINPATCH"), foldSqueezed(body, "ENDPATCH")
	if begin || end {
		m := markerLike{kind: mkApBegin, fit: fitNear}
		if end {
			m.kind = mkApEnd
		}
		if canon && (rest == " Begin Patch" || rest == " End Patch") {
			m.fit = fitExact
		}
		return m
	}
	// A header: a verb, its noun, an optional colon, the path.
	_, verb, after := splitKeyword(rest)
	_, noun, after := splitKeyword(after)
	var m markerLike
	canonical := ""
	file := strings.EqualFold(noun, "FILE")
	switch {
	case file && strings.EqualFold(verb, "ADD"):
		m.kind, canonical = mkApAdd, apAdd
	case file && strings.EqualFold(verb, "DELETE"):
		m.kind, canonical = mkApDelete, apDelete
	case file && strings.EqualFold(verb, "UPDATE"):
		m.kind, canonical = mkApUpdate, apUpdate
	case strings.EqualFold(verb, "MOVE") && strings.EqualFold(noun, "TO"):
		m.kind, canonical = mkApMove, apMove
	default:
		return markerLike{}
	}
	if after != "" && after[0] != ':' && after[0] != ' ' && after[0] != '\t' {
		return markerLike{} // "*** Update Files", "*** Add File-a"
	}
	m.arg = strings.TrimPrefix(strings.TrimLeft(after, " \t"), ":")
	m.fit = fitNear
	if strings.HasPrefix(t, canonical) {
		m.fit = fitExact
	}
	return m
}

// foldSqueezed reports whether s, without its blanks, is want (upper
// case) in any case. It allocates nothing: markerAt runs on every line
// a reader looks at.
func foldSqueezed(s, want string) bool {
	j := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' || c == '\t' {
			continue
		}
		if 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		if j == len(want) || c != want[j] {
			return false
		}
		j++
	}
	return j == len(want)
}

// format is the name of the format whose marker m resembles.
func (m markerLike) format() string {
	switch m.kind {
	case mkSearch, mkReplace:
		return FormatDiff
	case mkEditStart:
		return FormatEditV2
	case mkFiupStart, mkFiupEnd:
		return fiupFormat
	case mkUdxEnvelope, mkUdxDirective:
		return FormatUdiffx
	case mkClineSearch, mkClineReplace:
		return FormatCline
	case mkAgentTag:
		if strings.Contains(m.arg, toolApplyDiff) {
			return FormatRoo
		}
		return FormatCline
	}
	return FormatApplyPatch
}

// what names the kind of marker, as the pre-commit check and the
// messages say it.
func (m markerLike) what() string {
	switch m.kind {
	case mkSearch, mkReplace:
		return "SEARCH/REPLACE marker"
	case mkEditStart:
		return "edit-v2 marker"
	case mkFiupStart, mkFiupEnd:
		return "FIUP marker"
	case mkUdxEnvelope, mkUdxDirective:
		return "udiffx tag"
	case mkClineSearch, mkClineReplace:
		return "Cline SEARCH/REPLACE marker"
	case mkAgentTag:
		return "agent tool-call tag"
	}
	return "apply-patch marker"
}

// spelled is the marker as its format spells it.
func (m markerLike) spelled() string {
	switch m.kind {
	case mkSearch:
		return "<<<<<<< SEARCH"
	case mkReplace:
		return srEnd
	case mkEditStart:
		return ev2Start
	case mkFiupStart:
		return fiupStart
	case mkFiupEnd:
		return fiupEnd
	case mkUdxEnvelope, mkUdxDirective, mkAgentTag:
		return m.arg
	case mkClineSearch:
		return clineSearch
	case mkClineReplace:
		return clineReplace
	case mkApBegin:
		return apBegin
	case mkApEnd:
		return apEnd
	case mkApAdd:
		return apAdd
	case mkApDelete:
		return apDelete
	case mkApUpdate:
		return apUpdate
	case mkApMove:
		return apMove
	}
	return ""
}

// describe says what the trimmed line t, which resembles m, is: "the
// SEARCH/REPLACE marker "<<<<<<< SEARCH"", or ""<<<<<<<SEARCH" (a near
// miss of the SEARCH/REPLACE marker "<<<<<<< SEARCH")".
func (m markerLike) describe(t string) string {
	if m.fit == fitExact {
		return fmt.Sprintf("the %s %q", m.what(), hunkClip(t))
	}
	return fmt.Sprintf("%q (a near miss of the %s %q)", hunkClip(t), m.what(), m.spelled())
}

// farMsg is the message of a reader that meets a line too far from its
// marker m to be read as it.
func (m markerLike) farMsg(t string) string {
	return fmt.Sprintf("%q looks like the %s %q but is not read as one; write the marker as %q", hunkClip(t), m.what(), m.spelled(), m.spelled())
}

// markerLines calls fn with the 1-based number, the trimmed text and
// what it resembles of each line of text that resembles a marker of
// any format, in order, until fn returns false.
func markerLines(text string, fn func(line int, t string, m markerLike) bool) {
	n := 0
	for at := 0; at < len(text); {
		n++
		end := strings.IndexByte(text[at:], '\n')
		if end < 0 {
			end = len(text) - at
		}
		t := trimBlank(text[at : at+end])
		if m := markerAt(t); m.kind != noMarker && !fn(n, t, m) {
			return
		}
		at += end + 1
	}
}

// trimBlank is strings.Trim(s, " \t\r\f") without making the set of
// the cut bytes anew for every line of a long reply.
func trimBlank(s string) string {
	blank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\f' }
	for len(s) > 0 && blank(s[0]) {
		s = s[1:]
	}
	for len(s) > 0 && blank(s[len(s)-1]) {
		s = s[:len(s)-1]
	}
	return s
}

// firstMarker returns the 1-based line of the first line of text that
// resembles a marker of any format, with the line (trimmed) and what it
// resembles; 0 when none does.
func firstMarker(text string) (line int, t string, m markerLike) {
	markerLines(text, func(n int, tn string, mn markerLike) bool {
		line, t, m = n, tn, mn
		return false
	})
	return line, t, m
}

// nearMisses gathers the near-miss markers a reader read as markers,
// for one warning per spelling.
type nearMisses struct {
	seen  map[string]int // spelling -> index in list
	list  []nearMiss
	fixed map[int]bool // lines already noted
}

type nearMiss struct {
	text  string
	m     markerLike
	lines []int
}

// add notes that the line t (trimmed, or as the reader saw it when its
// indentation made it a near miss), at reply line (1-based), was read
// as the marker m resembles; exact markers are not noted.
func (n *nearMisses) add(line int, t string, m markerLike) {
	if m.fit != fitNear || n.fixed[line] {
		return
	}
	if n.seen == nil {
		n.seen, n.fixed = map[string]int{}, map[int]bool{}
	}
	n.fixed[line] = true
	i, ok := n.seen[t]
	if !ok {
		i = len(n.list)
		n.seen[t] = i
		n.list = append(n.list, nearMiss{text: t, m: m})
	}
	n.list[i].lines = append(n.list[i].lines, line)
}

// warnings returns one warning per spelling, at its first line.
func (n *nearMisses) warnings() []Warning {
	var out []Warning
	for _, nm := range n.list {
		sort.Ints(nm.lines)
		msg := fmt.Sprintf("%q is read as the %s %q", clipLine(nm.text), nm.m.what(), nm.m.spelled())
		switch len(nm.lines) {
		case 1:
		case 2:
			msg += fmt.Sprintf(" (so is line %d)", nm.lines[1])
		default:
			msg += fmt.Sprintf(" (so are lines %s)", intsText(nm.lines[1:]))
		}
		out = append(out, warning(nm.lines[0], "%s; write it as the format spells it", msg))
	}
	return out
}

// clipLine cuts a line quoted in a message short, keeping what it
// starts with (an indentation may be what is wrong with it).
func clipLine(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}

// intsText lists numbers: "3", "3 and 7", "3, 7 and 9".
func intsText(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
