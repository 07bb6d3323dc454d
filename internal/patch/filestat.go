package patch

import "bytes"

// FileStat is one changed file of a diff: status A, M, D or R, its
// path (and old path for a rename), and the lines the diff adds and
// removes.
type FileStat struct {
	Status         string
	Path, OldPath  string
	Added, Deleted int
}

// FileStats counts the lines each file's part of diff adds and
// removes. diff holds one section per change, in the order of changes
// (as Format writes it).
func FileStats(changes []FileChange, diff []byte) []FileStat {
	out := []FileStat{}
	sections := bytes.Split(diff, []byte("\ndiff --git "))
	for i, c := range changes {
		f := FileStat{Status: "M", Path: c.Path()}
		switch {
		case c.IsCreate():
			f.Status = "A"
		case c.IsDelete():
			f.Status = "D"
		case c.IsRename():
			f.Status, f.OldPath = "R", c.OldPath
		}
		if i < len(sections) {
			f.Added, f.Deleted = countLines(sections[i])
		}
		out = append(out, f)
	}
	return out
}

// countLines counts + and - lines after a section's first hunk header,
// in one pass (a created file may have millions of lines).
func countLines(section []byte) (add, del int) {
	inHunks := false
	for rest := section; len(rest) > 0; {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		switch {
		case bytes.HasPrefix(l, []byte("@@")):
			inHunks = true
		case !inHunks:
		case bytes.HasPrefix(l, []byte("+")):
			add++
		case bytes.HasPrefix(l, []byte("-")):
			del++
		}
	}
	return add, del
}
