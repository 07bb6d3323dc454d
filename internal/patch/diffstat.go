package patch

import (
	"bytes"
	"fmt"
	"strings"

	"znkr.io/diff"
	"znkr.io/diff/textdiff"
)

// diffPairs turns changes into git's file pairs, the units of a
// diffstat and a summary: modes defaulted and no-op changes dropped as
// in patchFiles, but a change of file type in place kept as one pair
// (git's "T" status), since git gives it one stat line though its patch
// has two sections. A type change across paths is a deletion and a
// creation, since git's rename detection pairs no such files.
func diffPairs(changes []FileChange) []FileChange { return filePairs(changes, false) }

// statFile is one line of a diffstat (git's diffstat_file).
type statFile struct {
	name           string // as shown: C-quoted, a rename compacted by renameName
	added, deleted int    // lines; for a binary file the new and old sizes in bytes
	binary         bool
}

// statFiles counts what each pair adds and removes, as builtin_diffstat
// does: a binary side makes the pair binary and counted in bytes (none
// when the contents are equal, as in a pure mode change); text is
// diffed afresh, with the options of Format, so that a type
// change counts the lines it really changes rather than the two
// whole-file sections of its patch.
func statFiles(pairs []FileChange) []statFile {
	out := make([]statFile, 0, len(pairs))
	for _, p := range pairs {
		f := statFile{name: quotePath(p.Path())}
		if p.IsRename() {
			f.name = renameName(p.OldPath, p.NewPath)
		}
		// A missing side has the null id, never equal to a blob's.
		same := !p.IsCreate() && !p.IsDelete() && bytes.Equal(p.Old, p.New)
		switch {
		case IsBinary(p.Old) || IsBinary(p.New):
			f.binary = true
			if !same {
				f.added, f.deleted = len(p.New), len(p.Old)
			}
		case len(p.Old) == 0 || len(p.New) == 0:
			// One side empty: every line of the other, without a diff.
			f.added, f.deleted = lineCount(p.New), lineCount(p.Old)
		case !same:
			for _, e := range textdiff.Edits(p.Old, p.New, textdiff.IndentHeuristic()) {
				switch e.Op {
				case diff.Insert:
					f.added++
				case diff.Delete:
					f.deleted++
				}
			}
		}
		out = append(out, f)
	}
	return out
}

// renameName is git's pprint_rename: "old => new", with the directories
// both paths start with and the directories and name they end with
// written once around braces ("src/{a => b}/f.go"). Paths that need
// quoting are quoted whole instead.
func renameName(a, b string) string {
	if needsQuote(a) || needsQuote(b) {
		return quotePath(a) + " => " + quotePath(b)
	}
	pfx := 0 // through the last '/' of the common prefix
	for i := 0; i < len(a) && i < len(b) && a[i] == b[i]; i++ {
		if a[i] == '/' {
			pfx = i + 1
		}
	}
	// The common suffix from its first '/'. The scan starts at the
	// terminating NULs, which match, and may step back onto the
	// prefix's closing '/' so that "a/x => a/y/x" keeps both slashes.
	at := func(s string, i int) byte {
		if i == len(s) {
			return 0
		}
		return s[i]
	}
	low := pfx
	if pfx > 0 {
		low--
	}
	sfx := 0
	for i, j := len(a), len(b); i >= low && j >= low && at(a, i) == at(b, j); i, j = i-1, j-1 {
		if at(a, i) == '/' {
			sfx = len(a) - i
		}
	}
	aMid, bMid := max(len(a)-pfx-sfx, 0), max(len(b)-pfx-sfx, 0)
	mid := a[pfx:pfx+aMid] + " => " + b[pfx:pfx+bMid]
	if pfx+sfx == 0 {
		return mid
	}
	return a[:pfx] + "{" + mid + "}" + a[len(a)-sfx:]
}

// writeDiffstat writes files as git's show_stats does for a total
// width: names padded to one column, shortened from the left behind
// "..." (and to a '/' when one is left) when they do not fit; counts
// right-aligned; a graph of '+' and '-' scaled down, each nonzero part
// keeping at least one character, when the largest change does not fit;
// "Bin old -> new bytes" for binary files; then the totals line.
func writeDiffstat(w *bytes.Buffer, files []statFile, width int) {
	if len(files) == 0 {
		return
	}
	maxLen, maxChange, numberWidth, binWidth := 0, 0, 0, 0
	for _, f := range files {
		maxLen = max(maxLen, len(f.name))
		if f.binary {
			binWidth = max(binWidth, len("Bin  ->  bytes")+decimalWidth(f.added)+decimalWidth(f.deleted))
			numberWidth = len("Bin") // counts align with it
			continue
		}
		maxChange = max(maxChange, f.added+f.deleted)
	}
	// One column for the leading space, " | " and the number's trailing
	// space take four more, and the last column is left empty.
	const fixed = 6
	numberWidth = max(numberWidth, decimalWidth(maxChange))
	width = max(width, 16+fixed+numberWidth)
	graphWidth := maxChange
	if maxChange+4 <= binWidth {
		graphWidth = binWidth - 4
	}
	nameWidth := maxLen
	if nameWidth+numberWidth+fixed+graphWidth > width {
		if limit := width*3/8 - numberWidth - fixed; graphWidth > limit {
			graphWidth = max(limit, 6)
		}
		if nameWidth > width-numberWidth-fixed-graphWidth {
			nameWidth = width - numberWidth - fixed - graphWidth
		} else {
			graphWidth = width - numberWidth - fixed - nameWidth
		}
	}

	adds, dels := 0, 0
	for _, f := range files {
		name, prefix, room := f.name, "", nameWidth
		if len(name) > nameWidth {
			prefix, room = "...", max(nameWidth-3, 0)
			name = name[len(name)-room:]
			if i := strings.IndexByte(name, '/'); i >= 0 {
				name = name[i:]
			}
		}
		fmt.Fprintf(w, " %s%-*s |", prefix, room, name)
		if f.binary {
			fmt.Fprintf(w, " %*s", numberWidth, "Bin")
			if f.added != 0 || f.deleted != 0 {
				fmt.Fprintf(w, " %d -> %d bytes", f.deleted, f.added)
			}
			w.WriteByte('\n')
			continue
		}
		adds += f.added
		dels += f.deleted
		add, del := f.added, f.deleted
		if graphWidth <= maxChange {
			total := scaleLinear(add+del, graphWidth, maxChange)
			if total < 2 && add > 0 && del > 0 {
				total = 2
			}
			if add < del {
				add = scaleLinear(add, graphWidth, maxChange)
				del = total - add
			} else {
				del = scaleLinear(del, graphWidth, maxChange)
				add = total - del
			}
		}
		fmt.Fprintf(w, " %*d", numberWidth, f.added+f.deleted)
		if f.added+f.deleted > 0 {
			w.WriteByte(' ')
		}
		w.WriteString(strings.Repeat("+", max(add, 0)))
		w.WriteString(strings.Repeat("-", max(del, 0)))
		w.WriteByte('\n')
	}
	writeStatTotals(w, len(files), adds, dels)
}

// scaleLinear maps a count onto width columns for the largest count
// max, giving any nonzero count at least one column.
func scaleLinear(n, width, max int) int {
	if n == 0 {
		return 0
	}
	return 1 + int(int64(n)*int64(width-1)/int64(max))
}

func decimalWidth(n int) int {
	return len(fmt.Sprint(n))
}

// writeStatTotals writes " N files changed, X insertions(+), Y
// deletions(-)": singular for one, a zero part left out unless both are
// zero, since binary files change no lines.
func writeStatTotals(w *bytes.Buffer, files, adds, dels int) {
	fmt.Fprintf(w, " %d %s changed", files, plural(files, "file", "files"))
	if adds > 0 || dels == 0 {
		fmt.Fprintf(w, ", %d %s(+)", adds, plural(adds, "insertion", "insertions"))
	}
	if dels > 0 || adds == 0 {
		fmt.Fprintf(w, ", %d %s(-)", dels, plural(dels, "deletion", "deletions"))
	}
	w.WriteByte('\n')
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// writeSummary writes git's --summary lines for pairs: creations,
// deletions, renames with their similarity, and mode changes; a
// rename's mode change follows it without repeating the name.
func writeSummary(w *bytes.Buffer, pairs []FileChange) {
	for _, p := range pairs {
		switch {
		case p.IsCreate():
			fmt.Fprintf(w, " create mode %06o %s\n", p.NewMode, quotePath(p.NewPath))
		case p.IsDelete():
			fmt.Fprintf(w, " delete mode %06o %s\n", p.OldMode, quotePath(p.OldPath))
		case p.IsRename():
			fmt.Fprintf(w, " rename %s (%d%%)\n", renameName(p.OldPath, p.NewPath), similarity(p.Old, p.New))
			if p.OldMode != p.NewMode {
				fmt.Fprintf(w, " mode change %06o => %06o\n", p.OldMode, p.NewMode)
			}
		case p.OldMode != p.NewMode:
			fmt.Fprintf(w, " mode change %06o => %06o %s\n", p.OldMode, p.NewMode, quotePath(p.NewPath))
		}
	}
}
