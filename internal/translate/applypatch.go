package translate

import (
	"fmt"
	"strings"
)

// FormatApplyPatch is the name of the apply-patch format: the Codex
// CLI's "*** Begin Patch" ... "*** End Patch" envelope.
const FormatApplyPatch = "apply-patch"

// The marker lines of apply-patch, as the prompt spells them.
const (
	apBegin  = "*** Begin Patch"
	apEnd    = "*** End Patch"
	apAdd    = "*** Add File:"
	apDelete = "*** Delete File:"
	apUpdate = "*** Update File:"
	apMove   = "*** Move to:"
	apEOF    = "*** End of File"
)

// readApplyPatch reads a reply in the apply-patch format: every
// "*** Begin Patch" ... "*** End Patch" envelope in it, in order, and
// the file sections in each:
//
//   - "*** Add File: P" and its "+" lines: a Create of those lines with
//     Overwrite set (Codex replaces an existing file);
//   - "*** Delete File: P": a Delete, not Recursive (Codex refuses to
//     delete a directory);
//   - "*** Update File: P", optionally "*** Move to: Q", then chunks:
//     one Edit per chunk that changes something, all of the section's
//     sharing a Group, Ordered, then for a move a Rename of P to Q with
//     Overwrite set (Codex replaces an existing target).
//
// A chunk is introduced by "@@" or "@@ scope"; stacked "@@ scope" lines
// become its Scope, in order ("@@ -12,4 +12,5 @@", unified-diff style,
// gives a LineHint instead). Its " ", "-" and "+" lines give Old
// (context and removed lines) and New (context and added lines); an
// empty line is an empty context line, and empty lines ending a chunk
// are dropped as separation. A line without prefix that more prefixed
// lines follow is context that lost its leading space (a warning says
// so); one that ends a chunk is stray text, ignored with a warning.
// "*** End of File" after a chunk sets AtEOF. A chunk that adds lines
// only is placed by its scope (nothing to find) or, without scope, at
// the end of the file (Where AtEnd; at the start for "@@ -0,0 +1 @@").
//
// Marker lines are recognised with white space around them; their
// near misses (another case, three to five "*", white space missing or
// doubled, stars after "Begin Patch", a header without its colon; see
// markerAt) are read as them with a warning naming the line. When every line of a patch is indented like
// its "*** Begin Patch" line (a patch inside a Markdown list), that
// indentation is removed first. The envelope may stand in a fence or
// in a heredoc (apply_patch <<'EOF', <<EOF, <<"EOF", cat <<'EOF' |
// apply_patch, ...) whose terminator follows "*** End Patch"; a patch
// without "*** End Patch" is read to the end of its heredoc or fence,
// or else up to the first line that cannot continue it, with a
// warning. The lines outside the patches and their wrappers are
// Reply.Prose; fenced shell blocks among them are Reply.Shell, and so
// are the other commands of a shell fence that wraps a patch.
//
// Every operation's Line is the reply line of its header (of the first
// "@@" line of a chunk, or its first line when it has none), except a
// Rename's: the last line of its section, so that it stays after the
// section's edits when Parse orders operations by line.
//
// The reader never returns a *ParseError: every problem it meets lies
// within one file section, whose structure the markers delimit, so the
// section becomes a Reply.Failed entry naming its line and the sections
// after it still count. Failures are an unknown "*** Xxx" header, a
// "*** Move to:" outside an Update section, a header or move without a
// path, a second move, an Update with neither chunk nor move (or whose
// chunks change nothing), and an added file with a line missing its
// "+" that more "+" lines follow. Text between sections is ignored with
// a warning. Outside the patches, the first header, "*** Move to:" or
// "*** End Patch" after each (the section of a patch whose "*** Begin
// Patch" is missing) is a failure too, but for an "*** End Patch" that
// follows a patch's end, blank lines aside.
//
// The error is ErrNoEdits (wrapped, with the reason) when the reply has
// no "*** Begin Patch" line or its patches hold no file section; the
// reply is returned in every case.
func readApplyPatch(text string) (*Reply, error) {
	p := &applyPatchReader{replyLines: newReplyLines(text), r: &Reply{Format: FormatApplyPatch}}
	p.body = p.lines // copied when dedent changes it
	p.run()
	p.collect()
	if p.patches > 0 {
		p.strays()
	}
	var near nearMisses
	for i, l := range p.lines {
		if p.kind[i] == kBlock {
			t := strings.TrimSpace(l)
			near.add(i+1, t, markerAt(t))
		}
	}
	p.r.Warnings = append(p.r.Warnings, near.warnings()...)
	sortWarnings(p.r.Warnings)
	r := p.r
	switch {
	case len(r.Ops)+len(r.Failed) > 0:
		return r, nil
	case p.patches == 0:
		hint := ""
		for i, l := range p.lines {
			if m, _ := apMarker(strings.TrimSpace(l)); m == apMarkAdd || m == apMarkDelete || m == apMarkUpdate {
				hint = fmt.Sprintf(" (the header at line %d stands outside any patch: put %q on the line before the first header)", i+1, apBegin)
				break
			}
		}
		return r, fmt.Errorf("%w: the reply has no %q line%s", ErrNoEdits, apBegin, hint)
	}
	return r, fmt.Errorf("%w: the patch at line %d holds no file section (%q, %q, %q)", ErrNoEdits, p.first+1, apAdd+" P", apDelete+" P", apUpdate+" P")
}

// strays turns the first marker line outside the patches after each
// patch (a file header, "*** Move to:" or "*** End Patch") into a
// Reply.Failed entry naming it: the section of a patch whose "***
// Begin Patch" the model left out (or wrote once for two), which must
// not vanish while the patch before it applies. An "*** End Patch"
// right after a patch's end, blank lines aside, is that patch's,
// doubled.
func (p *applyPatchReader) strays() {
	reported, after := false, false
	for i, l := range p.lines {
		switch p.kind[i] {
		case kBlock, kWrapper:
			reported, after = false, true
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" {
			continue
		}
		m := markerAt(t)
		switch {
		case reported:
		case m.kind == mkApEnd && after:
		case m.kind == mkApEnd, m.kind == mkApAdd, m.kind == mkApDelete, m.kind == mkApUpdate, m.kind == mkApMove:
			p.r.failf(i+1, apPath(m.arg), "%s", strayMarkerMsg(t, m, false))
			reported = true
		}
		after = false
	}
}

// applyPatchAt is the detector of apply-patch: the offset of the first
// line the reader takes for "*** Begin Patch"; -1 when none.
func applyPatchAt(text string) int { return applyPatchIn(newMarkIndex(text)) }

// applyPatchIn is applyPatchAt on the reply's marker lines.
func applyPatchIn(x *markIndex) int {
	for l := range x.candidates() {
		if m, _ := apMarker(strings.TrimSpace(x.line(l))); m == apMarkBegin {
			return l.off
		}
	}
	return -1
}

// apMark is what a trimmed line is as a marker.
type apMark int

const (
	apNoMark apMark = iota
	apMarkBegin
	apMarkEnd
	apMarkAdd
	apMarkDelete
	apMarkUpdate
	apMarkMove
	apMarkEOF
	// apMarkOther is a "*** Word ..." line that is no known marker: a
	// header the format does not have, when it stands where one may.
	apMarkOther
)

// apMarker classifies the trimmed line t and returns the path a header
// names (cleaned of quotes and backticks). The markers and their near
// misses are markerAt's ("*** begin patch", "***Update File: a.py",
// "**** End Patch ****"); "*** End of File" is read in any case.
func apMarker(t string) (apMark, string) {
	if !strings.HasPrefix(t, "***") {
		return apNoMark, ""
	}
	switch m := markerAt(t); m.kind {
	case mkApBegin:
		return apMarkBegin, ""
	case mkApEnd:
		return apMarkEnd, ""
	case mkApAdd:
		return apMarkAdd, apPath(m.arg)
	case mkApDelete:
		return apMarkDelete, apPath(m.arg)
	case mkApUpdate:
		return apMarkUpdate, apPath(m.arg)
	case mkApMove:
		return apMarkMove, apPath(m.arg)
	}
	if strings.EqualFold(t, apEOF) {
		return apMarkEOF, ""
	}
	if rest := strings.TrimLeft(t[3:], " \t"); rest != "" && apIsLetter(rest[0]) && len(rest) < len(t)-3 {
		// The path of "*** Rename File: a", for the failure it becomes.
		if _, after, ok := strings.Cut(rest, ":"); ok {
			return apMarkOther, apPath(after)
		}
		return apMarkOther, ""
	}
	return apNoMark, ""
}

func apIsLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// apPath cleans the path of a header: models quote or backtick it.
func apPath(s string) string {
	s = strings.TrimSpace(s)
	for _, q := range []string{"`", `"`, "'"} {
		if len(s) >= 2 && strings.HasPrefix(s, q) && strings.HasSuffix(s, q) {
			s = strings.TrimSpace(s[1 : len(s)-1])
		}
	}
	return s
}
