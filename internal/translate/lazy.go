package translate

// FormatLazy is the format of lazy edits: a file's path, then a fence
// holding only the parts of the file that change, with a marker line
// ("// ... existing code ...") standing for every unchanged span. It
// is how IDE agents write edits: Continue's apply (core/edit/lazy/,
// its "UNCHANGED CODE" markers), Cursor's and Windsurf's edit_file
// tool, Cline's fast apply, and the apply models behind them (Morph,
// Relace). They merge the edit with a second model; the engine merges
// it by the lines it shows (SPEC section 5).
const FormatLazy = "lazy"

// readLazy reads a reply of lazy edits. A block is read as the whole
// format reads one (see readWhole: a file name on the line above the
// fence or in its info string, the fence's CommonMark rules), and
// becomes a Lazy operation whose New is the block's lines, markers
// included; Line is the opening fence's line. A fence under prose only
// names no file: it is skipped with a warning, as an edit that named
// no file is no edit. A block whose fence is never closed is a
// Reply.Failed entry.
//
// The format is never detected: under auto a whole-file fence holding
// markers is read as whole and merged as a lazy edit by the engine
// when every part of it places (SPEC section 5).
func readLazy(text string) (*Reply, error) {
	s := scanWhole(text, false)
	r := &Reply{Format: FormatLazy, Shell: s.shell, Warnings: s.warns, Prose: s.prose()}
	for _, b := range s.blocks {
		switch {
		case b.end == len(s.lines):
			r.Failed = append(r.Failed, Failure{Line: b.fence + 1, Path: b.path, Msg: b.unclosed(len(s.lines))})
		case len(b.named) > 0:
			r.warnf(b.fence+1, "the fence at line %d names no file on the line above it or in its info string: it is taken for an example, not an edit", b.fence+1)
		default:
			r.Ops = append(r.Ops, Operation{Kind: Lazy, Format: FormatLazy, Path: b.path, LineEdit: LineEdit{New: b.content}, Line: b.fence + 1})
		}
	}
	sortWarnings(r.Warnings)
	if len(r.Ops) == 0 && len(r.Failed) == 0 {
		return r, ErrNoEdits
	}
	return r, nil
}

// neverDetected is the detector of a format only --format names.
func neverDetected(string) int { return -1 }
