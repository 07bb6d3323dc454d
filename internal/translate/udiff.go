package translate

import (
	"fmt"
	"strings"
)

// FormatUdiff is the name of the udiff format: unified diffs in a
// ```diff fence, or a git diff pasted as it is.
const FormatUdiff = "udiff"

// readUdiff reads a reply holding unified diffs: fences labelled
// diff, patch or udiff (or unlabelled) whose lines hold "---"/"+++"
// file headers or "@@" hunks with "-"/"+" lines, any fence whose first
// line is "diff --git", and unfenced git diffs, each from a line
// starting with "diff --git" to the last line its hunks (by their @@
// counts) and headers claim. A fence holding another format's markers
// (<<<<<<< SEARCH, <FILE_CHANGES>, *** Begin Patch) is not read, nor is
// anything inside a <FILE_CHANGES> envelope or a *** Begin Patch block:
// those formats own them.
//
// A block may hold several files, each starting at a "diff --git" line
// or a "--- "/"+++ " pair. Names may carry git's "a/" and "b/" (or
// not), be C-quoted ("a/x\ty"), hold spaces, and be followed by a tab
// and a timestamp. Each file becomes, in order:
//
//   - "--- /dev/null" or "new file mode": a Create of the lines its
//     hunks add (no Overwrite: an existing file with other content
//     fails), and a Chmod when the mode is 100755;
//   - "+++ /dev/null" or "deleted file mode": a Delete;
//   - "rename from"/"rename to": a Rename, then the rest as for the new
//     path;
//   - "old mode"/"new mode": a Chmod of the new path, Executable when
//     the new mode is 100755;
//   - its hunks that change something: one Edit each, read by the hunk
//     reader udiffx uses too (see hunkOps: numbers in "@@" lines are
//     hints, counts are ignored, a context line may lack its space),
//     sharing a Group per file, Ordered, on the new path.
//
// A diff without file headers edits the file named in the fence's
// info string (```diff src/a.py) or on the line above the fence, else
// the file of the diff before it. When "---" and "+++" name different
// files without rename lines, the "+++" one is edited (as git apply
// does), with a warning. Operations carry the reply line of their file
// header (Chmod: of its mode line; Edit: of its "@@" line).
//
// A file that cannot be applied as written is a Reply.Failed entry
// naming its line, and the files after it still count: binary patches
// ("GIT binary patch", "Binary files ... differ"), copies, modes other
// than 100644 and 100755 (symbolic links, submodules), a file named by
// no header, a file whose hunks change nothing, and a fence that is
// never closed (a reply cut off: its last hunk may be cut too).
//
// The lines outside the diffs and the fences are Reply.Prose (a file
// name line used for a diff excepted); fenced shell blocks are
// Reply.Shell. The error is ErrNoEdits (wrapped) when the reply holds
// no diff; the reply is returned in every case.
func readUdiff(text string) (*Reply, error) {
	s := scanUdiff(text, false)
	u := &udiffReader{r: &Reply{Format: FormatUdiff, Shell: s.shell, Warnings: s.warns}, s: s}
	for i := range s.blocks {
		u.block(&s.blocks[i])
	}
	u.r.Prose = s.prose()
	sortWarnings(u.r.Warnings)
	if len(u.r.Ops) == 0 && len(u.r.Failed) == 0 {
		return u.r, fmt.Errorf("%w: the reply has no unified diff (a ```diff fence with --- a/P, +++ b/P and @@ lines, or a git diff)", ErrNoEdits)
	}
	return u.r, nil
}

// udiffAt is the detector of udiff: the byte offset of the first block
// readUdiff would read (its opening fence, or its "diff --git" line);
// -1 when there is none.
func udiffAt(text string) int { return udiffIn(newMarkIndex(text)) }

// udiffIn is udiffAt of the reply the index x holds.
func udiffIn(x *markIndex) int {
	// A reply with no line that could make a block (the body of a
	// large new file, say) is not scanned to find that out.
	if !x.anyLineStarts("d+@", udiffMayStart) {
		return -1
	}
	return udiffFirstAt(x.text)
}

// udiffFirstAt is the offset of the first block of text the scan finds;
// -1 when none.
func udiffFirstAt(text string) int {
	s := scanUdiff(text, true)
	if len(s.blocks) == 0 {
		return -1
	}
	b := s.blocks[0]
	line := b.first
	if b.open >= 0 {
		line = b.open
	}
	off := 0
	for i := 0; i < line; i++ {
		off += strings.IndexByte(text[off:], '\n') + 1
	}
	return off
}

// udiffMayStart reports whether the line l may make a diff the scan
// finds: every one has a line that starts, after its spaces (a fence's
// indentation comes off its lines), with "diff --git " (the unfenced
// diff, a fence starting with it), "+++ " (the headers "---" and
// "+++") or "@@" (a hunk).
func udiffMayStart(l string) bool {
	l = l[countPrefix(l, ' '):]
	return strings.HasPrefix(l, "diff --git ") || strings.HasPrefix(l, "+++ ") || strings.HasPrefix(l, "@@")
}

// udiffReader turns the blocks of a scan into operations.
type udiffReader struct {
	r     *Reply
	s     *udiffScan
	group int
	prev  string // the file the previous diff edited
}

// block reads one diff block.
func (u *udiffReader) block(b *udiffBlock) {
	if b.unclosed {
		path := ""
		if p, _ := parseHunks(b.lines, b.first+1); len(p.Headers) > 0 {
			f := readUdiffHeader(p.Headers[0])
			path = udiffFirst(f.to, f.from)
		}
		u.r.failf(b.open+1, path, "the diff fence opened at line %d is never closed: the reply ends first (was it cut off?), so its last hunk may be cut too; nothing of it is applied", b.open+1)
		return
	}
	p, _ := parseHunks(b.lines, b.first+1)
	u.r.Warnings = append(u.r.Warnings, p.Warnings...)
	byFile := map[int][]hunk{}
	for _, h := range p.Hunks {
		byFile[h.File] = append(byFile[h.File], h)
	}
	if hs := byFile[-1]; len(hs) > 0 {
		path := b.name
		if path != "" {
			u.s.kind[b.nameLine] = kName
		} else {
			path = u.prev
		}
		if path == "" {
			u.r.failf(hs[0].Line, "", "the diff names no file: start it with the lines --- a/PATH and +++ b/PATH")
		} else {
			u.edits(path, hs, hs[0].Line, false)
		}
	}
	for k, h := range p.Headers {
		u.file(h, byFile[k])
	}
}

// file reads the diff of one file: its header h and its hunks.
func (u *udiffReader) file(h hunkFileHeader, hunks []hunk) {
	f := readUdiffHeader(h)
	path := f.to
	if f.deleted || path == "" {
		path = f.from
	}
	switch {
	case path == "":
		u.r.failf(h.Line, "", "the file header names no file: write --- a/PATH and +++ b/PATH")
		return
	case strings.Contains(f.from, "\n") || strings.Contains(f.to, "\n"):
		// Only a C-quoted name ("a\nb") can hold one; no path the
		// engine edits may, and a path spanning lines would garble
		// every report that names it.
		name := f.to
		if !strings.Contains(name, "\n") {
			name = f.from
		}
		u.r.failf(h.Line, "", "the file name %q holds a line break, which no file git-llm-apply edits may have", name)
		return
	case f.bad.Line != 0:
		u.r.failf(f.bad.Line, path, "%s", f.bad.Msg)
		return
	case f.created && f.deleted:
		u.r.failf(h.Line, path, "the diff of %s names /dev/null on both sides", path)
		return
	case f.renamed && (f.from == "" || f.to == ""):
		u.r.failf(h.Line, path, "the rename of %s names one path only: write both \"rename from A\" and \"rename to B\"", path)
		return
	}
	u.r.Warnings = append(u.r.Warnings, f.warns...)
	u.prev = path
	switch {
	case f.created:
		var content []string
		for _, hk := range hunks {
			content = append(content, hk.New...)
		}
		u.add(Operation{Kind: Create, Path: path, LineEdit: LineEdit{New: content}, Line: h.Line})
		if f.newMode == "100755" {
			u.add(Operation{Kind: Chmod, Path: path, FileOp: FileOp{Executable: true}, Line: f.modeLine})
		}
	case f.deleted:
		u.add(Operation{Kind: Delete, Path: path, Line: h.Line})
	default:
		renamed := f.renamed && f.from != f.to
		if renamed {
			u.add(Operation{Kind: Rename, Path: f.from, FileOp: FileOp{NewPath: f.to}, Line: h.Line})
		}
		chmod := f.newMode != "" && f.newMode != f.oldMode
		if chmod {
			u.add(Operation{Kind: Chmod, Path: path, FileOp: FileOp{Executable: f.newMode == "100755"}, Line: f.modeLine})
		}
		u.edits(path, hunks, h.Line, renamed || chmod)
	}
}

// edits adds the edits of the hunks of one file; a file whose hunks
// change nothing fails unless the header did something (optional).
func (u *udiffReader) edits(path string, hunks []hunk, line int, optional bool) {
	u.prev = path
	u.group++
	ops := hunkOps(&hunkPatch{Hunks: hunks}, FormatUdiff, path, u.group)
	for _, hk := range hunks {
		if hk.Changed && hk.NoEOLOld != hk.NoEOLNew {
			u.r.warnf(hk.Line, "the hunk changes whether %s ends with a line break; the file keeps its own", path)
		}
	}
	switch {
	case len(ops) > 0:
		u.r.Ops = append(u.r.Ops, ops...)
	case optional:
	case len(hunks) == 0:
		u.r.failf(line, path, "the diff of %s holds no hunk: write each change as an @@ line followed by context (\" \"), removed (\"-\") and added (\"+\") lines", path)
	default:
		u.r.failf(line, path, "the diff of %s changes nothing: its hunks hold context lines only, no \"-\" or \"+\" line", path)
	}
}

func (u *udiffReader) add(op Operation) {
	op.Format = FormatUdiff
	u.r.Ops = append(u.r.Ops, op)
}
