package translate

import "strings"

// searchReplaceOps turns blocks into operations, in order.
func searchReplaceOps(blocks []srBlock) ([]Operation, []Warning) {
	var ops []Operation
	var warns []Warning
	group := 0
	for _, b := range blocks {
		old, new := textLines(b.Search), textLines(b.Replace)
		if blank(old) {
			ops = append(ops, Operation{Kind: Create, FileCreate: FileCreate{Append: true}, Path: b.Path, LineEdit: LineEdit{New: new}, Line: b.Line})
			continue
		}
		oldDots, newDots := elisions(old), elisions(new)
		if len(oldDots) == 0 || len(oldDots) != len(newDots) {
			// "..." lines that do not pair up are ordinary lines: a file
			// may hold them (Python's Ellipsis, a Markdown text).
			if len(oldDots)+len(newDots) > 0 {
				warns = append(warns, warning(b.Line,
					"the block's SEARCH part holds %d %q lines and its REPLACE part %d; they are taken literally, not as elisions",
					len(oldDots), "...", len(newDots)))
			}
			ops = append(ops, Operation{Kind: Edit, Path: b.Path, LineEdit: LineEdit{Old: old, New: new}, Placement: Placement{FirstMatch: true}, Line: b.Line})
			continue
		}
		group++
		n := len(ops)
		oldPieces, newPieces := cut(old, oldDots), cut(new, newDots)
		for k := range oldPieces {
			line := b.Line
			if k > 0 {
				line = b.Line + 1 + oldDots[k-1] // the "..." line before the piece
			}
			o, nw := oldPieces[k], newPieces[k]
			switch {
			case blank(o) && blank(nw):
				continue
			case blank(o):
				if k < len(oldPieces)-1 {
					warns = append(warns, warning(line,
						"piece %d of the elided block at line %d has no SEARCH lines; its REPLACE lines are appended to the end of %s",
						k+1, b.Line, b.Path))
				}
				ops = append(ops, Operation{Kind: Create, FileCreate: FileCreate{Append: true}, Path: b.Path, LineEdit: LineEdit{New: nw}, Placement: Placement{Group: group}, Line: line})
			default:
				ops = append(ops, Operation{Kind: Edit, Path: b.Path, LineEdit: LineEdit{Old: o, New: nw}, Placement: Placement{Group: group}, Line: line})
			}
		}
		if len(ops) == n {
			warns = append(warns, warning(b.Line, "the block holds nothing but elisions; it changes nothing"))
		}
	}
	return ops, warns
}

// textLines splits raw block text (each line ended by "\n", any "\r"
// before it already dropped) into lines without terminators.
func textLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// blank reports whether lines are none or white space only.
func blank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// elisions returns the indexes of the lines holding only "...".
func elisions(lines []string) []int {
	var at []int
	for i, l := range lines {
		if strings.TrimSpace(l) == "..." {
			at = append(at, i)
		}
	}
	return at
}

// cut splits lines at the indexes at, dropping those lines.
func cut(lines []string, at []int) [][]string {
	pieces := make([][]string, 0, len(at)+1)
	start := 0
	for _, i := range at {
		pieces = append(pieces, lines[start:i:i])
		start = i + 1
	}
	return append(pieces, lines[start:])
}
