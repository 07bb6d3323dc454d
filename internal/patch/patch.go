package patch

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"znkr.io/diff"
	"znkr.io/diff/textdiff"
)

// Options tunes Format. The zero value gives git's defaults.
type Options struct {
	Context int // lines of context around each change; 3 when 0, none when negative
	Abbrev  int // hex digits of blob ids on the index line; 7 when 0, at most 40
	// Unique, when set, returns how id (a full hex name) is shown with
	// at least n digits: git lengthens a prefix that another object of
	// the repository shares (find_unique_abbrev). Without it ids are
	// cut to Abbrev digits.
	Unique func(id string, n int) string
}

// ShortID returns id as the options abbreviate it: Abbrev digits
// (after defaults), lengthened by Unique. It is how git names the
// blobs of an index line, and a commit in `git commit`'s summary.
func (o Options) ShortID(id string) string {
	o, err := o.withDefaults()
	if err != nil || len(id) <= o.Abbrev {
		return id
	}
	return o.short(id, o.Abbrev)
}

// short cuts id to n digits, or more as Unique says.
func (o Options) short(id string, n int) string {
	if n >= len(id) {
		return id
	}
	if o.Unique != nil {
		if s := o.Unique(id, n); len(s) >= n && len(s) <= len(id) && id[:len(s)] == s {
			return s
		}
	}
	return id[:n]
}

// withDefaults fills in the defaults and rejects impossible values.
// A negative Context is how a caller asks for git's -U0, since 0 must
// mean the default for the zero value to be useful.
func (o Options) withDefaults() (Options, error) {
	if o.Abbrev < 0 {
		return o, fmt.Errorf("patch options: negative abbrev %d", o.Abbrev)
	}
	switch {
	case o.Context == 0:
		o.Context = 3
	case o.Context < 0:
		o.Context = 0
	}
	if o.Abbrev == 0 {
		o.Abbrev = 7
	}
	// git never abbreviates below 4 digits (MINIMUM_ABBREV).
	o.Abbrev = min(max(o.Abbrev, 4), 40)
	return o, nil
}

// modeTypeMask selects the object type bits of a mode (S_IFMT).
const modeTypeMask = 0o170000

// nullID is the all-zero id git prints for the missing side of a
// creation or deletion.
const nullID = "0000000000000000000000000000000000000000"

// Format returns the git-style unified diff of changes, in the
// given order, as `git diff --binary -M` prints it with the same
// context and abbreviation: headers, hunks with git's hunk-header
// function context, and literal "GIT binary patch" data for binary
// blobs. A change that alters nothing is left out; one that turns a
// file into a symlink (or back) becomes a deletion and a creation, as
// in git. A zero mode stands for ModeRegular.
//
// The output is git's byte for byte except in three places, none of
// which changes what the patch does: where several equally short diffs
// exist, znkr.io/diff may pick another one than xdiff (rare in code,
// more common in text of many repeated lines), and in a long file with
// Regions, which is diffed only around them, the tie may also go
// otherwise than in a diff of the whole; binary data is always a
// literal deflated by Go rather than C zlib; and without
// opts.Unique ids are cut to Abbrev digits, without git's lengthening
// of ambiguous prefixes.
//
// It returns an error, before writing anything, when opts.Abbrev is
// negative or a change has neither path or carries content on
// a side that does not exist.
func Format(changes []FileChange, opts Options) ([]byte, error) {
	return FormatContext(context.Background(), changes, opts)
}

// FormatContext is Format that stops with ctx's error when ctx ends,
// looking at it between files.
//
// A change without NewID whose new content is long gets it here,
// hashed while its hunks are written: Format sets it in changes, so
// that Verify and the caller do not hash the content again.
func FormatContext(ctx context.Context, changes []FileChange, opts Options) ([]byte, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	for i, c := range changes {
		if err := checkChange(c); err != nil {
			return nil, fmt.Errorf("change %d (%q): %w", i+1, c.Path(), err)
		}
	}
	files, from := filePairsFrom(changes, true)
	ids := hashAhead(files)
	var buf bytes.Buffer
	for k, c := range files {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if id := formatFile(&buf, c, opts, ids[k]); id != "" {
			changes[from[k]].NewID = id
		}
	}
	return buf.Bytes(), nil
}

// hashAheadMin is the length from which a new content without its id
// is hashed on a goroutine of its own while its hunks are written, and
// the id kept in the change, so that Verify trusts it (idCheckMax). A
// hash of 64 KiB is some 30 microseconds, the goroutine one or two.
const hashAheadMin = 64 << 10

// hashAhead starts hashing, each on its own goroutine, the long new
// contents of files whose id is not known, and returns where each
// file's id will come (nil for the others). The hash of a 2.3 MB file
// took as long as a fifth of writing its 500 hunks, which it now
// overlaps.
func hashAhead(files []FileChange) []chan string {
	ids := make([]chan string, len(files))
	for k, c := range files {
		if c.IsDelete() || c.NewID != "" || len(c.New) < hashAheadMin || bytes.Equal(c.Old, c.New) {
			continue
		}
		ids[k] = make(chan string, 1)
		go func() { ids[k] <- BlobID(c.New) }()
	}
	return ids
}

// checkChange rejects a FileChange that no diff can describe.
func checkChange(c FileChange) error {
	switch {
	case c.OldPath == "" && c.NewPath == "":
		return fmt.Errorf("no path")
	case c.IsCreate() && len(c.Old) > 0:
		return fmt.Errorf("created file has old content")
	case c.IsDelete() && len(c.New) > 0:
		return fmt.Errorf("deleted file has new content")
	}
	return nil
}

// patchFiles turns changes into the file sections of a patch: modes
// defaulted, no-op changes dropped, and type changes split in two
// because git never diffs a symlink against a file.
func patchFiles(changes []FileChange) []FileChange { return filePairs(changes, true) }

// filePairs defaults modes, drops no-op changes and splits a change of
// file type across paths, and in place too when splitInPlace is set,
// into a deletion and a creation.
func filePairs(changes []FileChange, splitInPlace bool) []FileChange {
	out, _ := filePairsFrom(changes, splitInPlace)
	return out
}

// filePairsFrom is filePairs that also returns, for each file pair,
// the index in changes of the change it comes from.
func filePairsFrom(changes []FileChange, splitInPlace bool) (out []FileChange, from []int) {
	out = make([]FileChange, 0, len(changes))
	for i, c := range changes {
		c = c.withModes()
		switch {
		case c.IsCreate() || c.IsDelete():
			out, from = append(out, c), append(from, i)
		case (c.OldMode^c.NewMode)&modeTypeMask != 0 && (splitInPlace || c.IsRename()):
			out = append(out,
				FileChange{OldPath: c.OldPath, OldMode: c.OldMode, Old: c.Old, OldID: c.OldID},
				FileChange{NewPath: c.NewPath, NewMode: c.NewMode, New: c.New, NewID: c.NewID})
			from = append(from, i, i)
		case c.IsRename() || c.OldMode != c.NewMode || !bytes.Equal(c.Old, c.New):
			out, from = append(out, c), append(from, i)
		}
	}
	return out, from
}

// formatFile writes the section of one file, following builtin_diff and
// fill_metainfo in git's diff.c. When newID is set, the new content's
// id comes from it, once the hunks are written (see hashAhead), and
// formatFile returns it.
func formatFile(w *bytes.Buffer, c FileChange, opts Options, newID chan string) string {
	oldName, newName := c.OldPath, c.NewPath
	if c.IsCreate() {
		oldName = newName
	}
	if c.IsDelete() {
		newName = oldName
	}
	aName, bName := quotePrefixed("a/", oldName), quotePrefixed("b/", newName)
	fmt.Fprintf(w, "diff --git %s %s\n", aName, bName)
	switch {
	case c.IsCreate():
		fmt.Fprintf(w, "new file mode %06o\n", c.NewMode)
	case c.IsDelete():
		fmt.Fprintf(w, "deleted file mode %06o\n", c.OldMode)
	default:
		if c.OldMode != c.NewMode {
			fmt.Fprintf(w, "old mode %06o\nnew mode %06o\n", c.OldMode, c.NewMode)
		}
		if c.IsRename() {
			fmt.Fprintf(w, "similarity index %d%%\n", similarity(c.Old, c.New))
			fmt.Fprintf(w, "rename from %s\nrename to %s\n", quotePath(c.OldPath), quotePath(c.NewPath))
		}
	}

	binary := IsBinary(c.Old) || IsBinary(c.New)
	same := bytes.Equal(c.Old, c.New)
	// The hunks first, so that a new content's id being hashed
	// meanwhile is ready for the index line, which then goes in above
	// them (the hunks move down by its length, in place: a copy of a
	// long file's hunks in a buffer of their own cost as much memory
	// again).
	at := w.Len()
	switch {
	case same:
	case binary:
		w.WriteString("GIT binary patch\n")
		writeLiteral(w, c.New)
		writeLiteral(w, c.Old) // the reverse, so that `git apply -R` works
	default:
		oldLabel, newLabel := aName, bName
		if c.IsCreate() {
			oldLabel = "/dev/null"
		}
		if c.IsDelete() {
			newLabel = "/dev/null"
		}
		fmt.Fprintf(w, "--- %s%s\n+++ %s%s\n", oldLabel, labelTab(oldLabel), newLabel, labelTab(newLabel))
		writeHunks(w, c.Old, c.New, c.OldStarts, c.Regions, opts.Context)
	}
	hashed := ""
	if newID != nil {
		hashed = <-newID
		c.NewID = hashed
	}
	// git compares blob ids here, and a missing side has the null id,
	// so creating or deleting an empty file still shows the index line.
	if !same || c.IsCreate() || c.IsDelete() {
		abbrev := opts.Abbrev
		if binary {
			// git apply needs full ids to check a binary patch's base.
			abbrev = 40
		}
		oldID, newID := nullID, nullID
		if !c.IsCreate() {
			oldID = c.oldID()
		}
		if !c.IsDelete() {
			newID = c.newID()
		}
		line := fmt.Sprintf("index %s..%s", opts.short(oldID, abbrev), opts.short(newID, abbrev))
		if !c.IsCreate() && !c.IsDelete() && c.OldMode == c.NewMode {
			line += fmt.Sprintf(" %06o", c.OldMode)
		}
		insertAt(w, at, line+"\n")
	}
	return hashed
}

// insertAt puts s into w at offset at, moving what follows down.
func insertAt(w *bytes.Buffer, at int, s string) {
	end := w.Len()
	w.WriteString(s) // room at the end
	b := w.Bytes()
	copy(b[at+len(s):], b[at:end])
	copy(b[at:], s)
}

// labelTab is what git appends to a ---/+++ label: a tab when the label
// holds a space, so GNU patch does not take the rest for a timestamp.
func labelTab(label string) string {
	if strings.Contains(label, " ") {
		return "\t"
	}
	return ""
}

// writeHunks writes the text hunks turning old into new. With regions,
// the spans where they differ, a long file is diffed only around them
// (see regionHunks): a whole-file diff costs time in the file's length
// for each change, which made many edits to a long file slow.
func writeHunks(w *bytes.Buffer, old, new []byte, oldStarts []int32, regions []Span, context int) {
	if len(old) == 0 {
		writeWhole(w, new, '+')
		return
	}
	if len(new) == 0 {
		writeWhole(w, old, '-')
		return
	}
	writeDiffHunks(w, old, new, oldStarts, regions, context)
}

// writeDiffHunks writes the hunks of a diff of old and new.
func writeDiffHunks(w *bytes.Buffer, old, new []byte, oldStarts []int32, regions []Span, context int) {
	lines := newTextLinesAt(old, oldStarts)
	var hunks []textdiff.Hunk[[]byte]
	ok := false
	if len(regions) > 0 && lines.len() >= RegionMinLines {
		hunks, ok = regionHunks(old, new, lines, regions, context)
	}
	if !ok {
		hunks = textdiff.Hunks(old, new, diff.Context(context), textdiff.IndentHeuristic())
	}
	if len(hunks) == 0 {
		return
	}
	// Room for every hunk at once, and for the index line formatFile
	// puts above them: a buffer doubling its way to a long file's
	// hunks allocates them twice over, all in memory fresh from the
	// system, whose pages cost more here than the copies.
	size := 128
	for _, h := range hunks {
		size += hunkHeaderMax
		for _, e := range h.Edits {
			size += 1 + len(e.Line)
		}
	}
	w.Grow(size)
	funcs := newFuncFinder(lines)
	for _, h := range hunks {
		writeHunkHeader(w, h.LineNoX, h.EndLineNoX-h.LineNoX, h.LineNoY, h.EndLineNoY-h.LineNoY, funcs.find(h.LineNoX))
		for _, e := range h.Edits {
			switch e.Op {
			case diff.Match:
				w.WriteByte(' ')
			case diff.Delete:
				w.WriteByte('-')
			case diff.Insert:
				w.WriteByte('+')
			}
			w.Write(e.Line)
			if len(e.Line) == 0 || e.Line[len(e.Line)-1] != '\n' {
				w.WriteString("\n\\ No newline at end of file\n")
			}
		}
	}
}

// splitLines cuts b after each "\n"; a last line without one is kept,
// an empty one after the final "\n" is not (as textdiff counts lines).
func splitLines(b []byte) [][]byte {
	return appendLines(make([][]byte, 0, bytes.Count(b, []byte("\n"))+1), b)
}

// appendLines appends the lines of b, each with its "\n", to lines.
func appendLines(lines [][]byte, b []byte) [][]byte {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n') + 1
		if i == 0 {
			i = len(b)
		}
		lines = append(lines, b[:i:i])
		b = b[i:]
	}
	return lines
}

// writeHunkHeader writes "@@ -s1,c1 +s2,c2 @@ func" for ranges given as
// zero-based start and count, as xdl_emit_hunk_hdr does: a count of 1
// is left out, and an empty range names the line before it.
func writeHunkHeader(w *bytes.Buffer, s1, c1, s2, c2 int, fn []byte) {
	var hdr []byte
	hdr = append(hdr, "@@ -"...)
	hdr = appendRange(hdr, s1, c1)
	hdr = append(hdr, " +"...)
	hdr = appendRange(hdr, s2, c2)
	hdr = append(hdr, " @@"...)
	if len(fn) > 0 {
		hdr = append(hdr, ' ')
		// xdiff formats into a fixed buffer and cuts what does not fit.
		hdr = append(hdr, fn[:min(len(fn), hunkHeaderMax-len(hdr)-1)]...)
	}
	hdr = append(hdr, '\n')
	w.Write(hdr)
}

func appendRange(b []byte, start, count int) []byte {
	if count > 0 {
		start++
	}
	b = strconv.AppendInt(b, int64(start), 10)
	if count != 1 {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(count), 10)
	}
	return b
}
