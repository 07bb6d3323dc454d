package patch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// ErrMismatch is wrapped by the errors of Verify when the
// patch parses but does not describe the changes.
var ErrMismatch = errors.New("patch does not match the changes")

// Verify checks that patch, as Format wrote it for changes,
// says exactly what changes say. The patch must hold nothing before
// its first "diff --git " line, and one file section per change that
// alters something (two for a change of file type), in order. Each
// section, parsed alone with go-gitdiff, must agree with its change on
// paths, modes and the new/deleted/renamed flags; its blob ids must be
// prefixes of the ids of the contents; every text fragment must be well
// formed; and applying it to the old content must give the new content
// exactly (a binary section's reverse data must give back the old). The
// text hunks are applied a stretch at a time (see applyRegions), which
// accepts and refuses what applying to the whole file would, at the
// cost of a scan of the file's bytes. A
// section that adds or removes every line of a text file is read
// without go-gitdiff's line objects, which cost tens of times a file of
// short lines: its header is parsed as any other, and its one hunk must
// hold that side's lines in order (see verifyWhole).
//
// Its error is one wrapping ErrMismatch (a section go-gitdiff cannot parse included), or a malformed change
// (see Format). Any of them for a patch from Format is a bug.
func Verify(patch []byte, changes []FileChange) error {
	return VerifyContext(context.Background(), patch, changes)
}

// VerifyContext is Verify that stops with ctx's error when ctx ends,
// looking at it between files.
func VerifyContext(ctx context.Context, patch []byte, changes []FileChange) error {
	for i, c := range changes {
		if err := checkChange(c); err != nil {
			return fmt.Errorf("change %d (%q): %w", i+1, c.Path(), err)
		}
	}
	preamble, secs := sections(patch)
	if len(preamble) > 0 {
		return fmt.Errorf("%w: text before the first file: %q", ErrMismatch, firstLine(string(preamble)))
	}
	want := patchFiles(changes)
	if len(secs) != len(want) {
		return fmt.Errorf("%w: %d file sections, want %d", ErrMismatch, len(secs), len(want))
	}
	for i, sec := range secs {
		if err := ctx.Err(); err != nil {
			return err
		}
		var err error
		if text, sign, ok := wholeSide(want[i]); ok {
			err = verifyWhole(sec, want[i], text, sign)
		} else {
			err = verifySection(sec, want[i])
		}
		if err != nil {
			return fmt.Errorf("%w: file %d (%q): %w", ErrMismatch, i+1, want[i].Path(), err)
		}
	}
	return nil
}

// verifySection parses one file's section with go-gitdiff and checks
// it against its change.
func verifySection(sec []byte, c FileChange) error {
	files, preamble, err := gitdiff.Parse(bytes.NewReader(sec))
	if err != nil {
		return fmt.Errorf("parse: %w", err)
	}
	if preamble != "" || len(files) != 1 {
		return fmt.Errorf("the section reads as %d files", len(files))
	}
	return verifyFile(files[0], c)
}

// verifyFile compares one parsed section with the change it came from.
func verifyFile(f *gitdiff.File, c FileChange) error {
	if err := verifyHeader(f, c); err != nil {
		return err
	}
	for i, frag := range f.TextFragments {
		if err := frag.Validate(); err != nil {
			return fmt.Errorf("hunk %d: %w", i+1, err)
		}
	}
	if err := applyFile(f, c.Old, c.New); err != nil {
		return err
	}
	if f.ReverseBinaryFragment != nil {
		rev := *f
		rev.BinaryFragment, rev.ReverseBinaryFragment = f.ReverseBinaryFragment, nil
		if err := applyFile(&rev, c.New, c.Old); err != nil {
			return fmt.Errorf("reverse: %w", err)
		}
	}
	return nil
}

// verifyHeader checks what a section's header says of its change: the
// flags, paths, modes, blob ids and whether it is binary.
func verifyHeader(f *gitdiff.File, c FileChange) error {
	switch {
	case f.IsNew != c.IsCreate():
		return fmt.Errorf("new file flag is %v", f.IsNew)
	case f.IsDelete != c.IsDelete():
		return fmt.Errorf("deleted file flag is %v", f.IsDelete)
	case f.IsRename != c.IsRename():
		return fmt.Errorf("rename flag is %v", f.IsRename)
	case f.IsCopy:
		return fmt.Errorf("patch copies the file")
	case !c.IsCreate() && f.OldName != c.OldPath:
		return fmt.Errorf("old path is %q", f.OldName)
	case !c.IsDelete() && f.NewName != c.NewPath:
		return fmt.Errorf("new path is %q", f.NewName)
	}
	if err := verifyModes(f, c); err != nil {
		return err
	}
	if err := verifyIDs(f, c); err != nil {
		return err
	}
	if f.IsBinary != (IsBinary(c.Old) || IsBinary(c.New)) && !bytes.Equal(c.Old, c.New) {
		return fmt.Errorf("binary flag is %v", f.IsBinary)
	}
	return nil
}

// verifyModes checks the modes the section states. go-gitdiff records
// the mode of an index line as OldMode only, and nothing when a pure
// rename keeps its mode.
func verifyModes(f *gitdiff.File, c FileChange) error {
	oldMode, newMode := Mode(f.OldMode), Mode(f.NewMode)
	switch {
	case c.IsCreate():
		if newMode != c.NewMode {
			return fmt.Errorf("new file mode is %06o, want %06o", newMode, c.NewMode)
		}
	case c.IsDelete():
		if oldMode != c.OldMode {
			return fmt.Errorf("deleted file mode is %06o, want %06o", oldMode, c.OldMode)
		}
	case c.OldMode != c.NewMode:
		if oldMode != c.OldMode || newMode != c.NewMode {
			return fmt.Errorf("modes are %06o..%06o, want %06o..%06o", oldMode, newMode, c.OldMode, c.NewMode)
		}
	default:
		if newMode != 0 || oldMode != 0 && oldMode != c.OldMode {
			return fmt.Errorf("modes are %06o..%06o, want %06o unchanged", oldMode, newMode, c.OldMode)
		}
		if oldMode == 0 && !bytes.Equal(c.Old, c.New) {
			return fmt.Errorf("index line lacks the mode")
		}
	}
	return nil
}

// verifyIDs checks the blob ids of the index line, which must be there
// exactly when git prints one: when the ids of the two sides differ.
//
// A side's id is its content's, hashed, unless the change carries it
// and the content is longer than idCheckMax: hashing a long file is a
// good part of the cost of checking an edit to it, which the id the
// base already names the blob by (see FileChange.OldID) saves. git
// trusts the ids of its index and trees the same way, and the carried
// ids of short contents, every file of the tests included, are held to
// their contents' hashes, so that a caller carrying wrong ids is found
// out rather than trusted.
func verifyIDs(f *gitdiff.File, c FileChange) error {
	oldID, newID := blobIDs(c)
	if c.IsCreate() {
		oldID = nullID
	}
	if c.IsDelete() {
		newID = nullID
	}
	if oldID == newID {
		if f.OldOIDPrefix != "" || f.NewOIDPrefix != "" {
			return fmt.Errorf("index line for unchanged content")
		}
		return nil
	}
	if f.OldOIDPrefix == "" || !strings.HasPrefix(oldID, f.OldOIDPrefix) {
		return fmt.Errorf("old blob id %q, want a prefix of %s", f.OldOIDPrefix, oldID)
	}
	if f.NewOIDPrefix == "" || !strings.HasPrefix(newID, f.NewOIDPrefix) {
		return fmt.Errorf("new blob id %q, want a prefix of %s", f.NewOIDPrefix, newID)
	}
	return nil
}

// idCheckMax is the length up to which Verify hashes a content whose
// id the change carries. It is hashAheadMin, so that a new content
// Format hashed is hashed once, not twice with the same function, and
// an old one whose id the base's read checked (the object's hash, or
// the checked-out copy's) is not hashed again: for the 377 KB file of
// issue 28's lazy edit the two hashes were 0.4 ms, a tenth of a check
// after start-up; for a file of 240 KB, a fifth of the check in
// process (BenchmarkLazyCheck, engine).
const idCheckMax = hashAheadMin

// blobIDs returns the ids Verify holds c's sides to (see verifyIDs),
// hashing the two at once when both must be hashed and are large: each
// is a pass over all of its bytes.
func blobIDs(c FileChange) (oldID, newID string) {
	hashOld := c.OldID == "" || len(c.Old) <= idCheckMax
	hashNew := c.NewID == "" || len(c.New) <= idCheckMax
	oldID, newID = c.OldID, c.NewID
	switch {
	case hashOld && hashNew && len(c.Old) >= 1<<20 && len(c.New) >= 1<<20:
		done := make(chan struct{})
		go func() {
			defer close(done)
			oldID = BlobID(c.Old)
		}()
		newID = BlobID(c.New)
		<-done
	default:
		if hashOld {
			oldID = BlobID(c.Old)
		}
		if hashNew {
			newID = BlobID(c.New)
		}
	}
	return oldID, newID
}

// applyFile applies f to old and requires the result to be want.
func applyFile(f *gitdiff.File, old, want []byte) error {
	zeroContextStarts(f)
	if !f.IsBinary && f.BinaryFragment == nil && len(f.TextFragments) > 0 {
		return applyRegions(f.TextFragments, old, want)
	}
	var out bytes.Buffer
	if err := gitdiff.Apply(&out, bytes.NewReader(old), f); err != nil {
		return err
	}
	if !bytes.Equal(out.Bytes(), want) {
		return fmt.Errorf("applying gives %d bytes that differ from the %d wanted", out.Len(), len(want))
	}
	return nil
}

// applyRegions is gitdiff.Apply of text hunks to old followed by a
// comparison of its output with want, done a stretch at a time so that
// a long file costs a scan of its bytes, not a copy of every line: the
// lines between hunks must stand in want as they are in old, and each
// hunk, applied by go-gitdiff to its own old lines, must give the bytes
// that follow in want. Applying the whole file and comparing would
// accept and refuse the same patches.
//
// Where each hunk's old lines lie is found first, hunk by hunk, and
// where its new lines go in want if every hunk before it gives what it
// should (its new lines, which are what applying it writes); the hunks
// are then applied, side by side when there are many (each reads its
// own lines alone), go-gitdiff writing each straight into a comparison
// with want there, so that no hunk's output is kept; and their results
// are checked in order, each hunk's errors in the order a pass hunk by
// hunk meets them, so that the first error is the one such a pass
// returns.
func applyRegions(frags []*gitdiff.TextFragment, old, want []byte) error {
	frags = append([]*gitdiff.TextFragment(nil), frags...)
	sort.SliceStable(frags, func(i, j int) bool { return frags[i].OldPosition < frags[j].OldPosition })
	hunks := make([]regionHunk, 0, len(frags))
	oldAt, oldLine, newAt := 0, int64(0), 0
	for i, frag := range frags {
		hunks = append(hunks, regionHunk{frag: frag})
		h := &hunks[len(hunks)-1]
		h.from, h.to, h.err = placeHunk(i, frag, old, oldAt, oldLine)
		if h.err != nil {
			break // a pass hunk by hunk stops here
		}
		h.newAt = newAt + h.from - oldAt
		for _, l := range frag.Lines {
			if l.New() {
				h.newLen += len(l.Line)
			}
		}
		oldAt, oldLine, newAt = h.to, max(frag.OldPosition-1, 0)+frag.OldLines, h.newAt+h.newLen
	}
	sideBySide(len(hunks), parallelHunks, func() func(int) {
		var src regionLines
		var dst wantWriter
		return func(i int) { applyHunk(&hunks[i], old, want, &src, &dst) }
	})
	oldAt, newAt = 0, 0
	for i, h := range hunks {
		if h.err != nil {
			return h.err
		}
		if !bytes.HasPrefix(want[newAt:], old[oldAt:h.from]) {
			return fmt.Errorf("applying gives content that differs from the wanted before hunk %d", i+1)
		}
		newAt += h.from - oldAt
		if h.applyErr != nil {
			return fmt.Errorf("hunk %d: %w", i+1, h.applyErr)
		}
		if newAt != h.newAt || h.differs {
			return fmt.Errorf("applying hunk %d gives content that differs from the wanted", i+1)
		}
		newAt += h.newLen
		oldAt = h.to
	}
	if !bytes.Equal(want[newAt:], old[oldAt:]) {
		return fmt.Errorf("applying gives content that differs from the wanted after the last hunk")
	}
	return nil
}

// regionHunk is one hunk of applyRegions: its old lines [from, to) of
// old, or err when they cannot be placed; where its new lines, newLen
// bytes, go in want; whether applying it failed (applyErr) or wrote
// other bytes than want holds there (differs).
type regionHunk struct {
	frag          *gitdiff.TextFragment
	from, to      int
	newAt, newLen int
	err, applyErr error
	differs       bool
}

// placeHunk finds the old lines of hunk i, frag, which follows the
// hunk that ended at byte oldAt, line oldLine, of old.
func placeHunk(i int, frag *gitdiff.TextFragment, old []byte, oldAt int, oldLine int64) (from, to int, err error) {
	start := max(frag.OldPosition-1, 0)
	switch {
	case frag.OldPosition == 0:
		// Only an empty old side has a hunk at 0 (go-gitdiff checks
		// that): apply it to the whole of old as go-gitdiff would.
		if len(old) != 0 {
			return 0, 0, fmt.Errorf("hunk %d: creates a file from non-empty content", i+1)
		}
	case start < oldLine:
		return 0, 0, fmt.Errorf("hunk %d overlaps the hunk before it", i+1)
	case frag.OldLines > math.MaxInt64-start:
		return 0, 0, fmt.Errorf("hunk %d: bounds overflow", i+1)
	}
	from, ok := skipLines(old, oldAt, start-oldLine)
	if !ok {
		return 0, 0, fmt.Errorf("hunk %d starts past the end of the old content", i+1)
	}
	to, ok = skipLines(old, from, frag.OldLines)
	if !ok {
		return 0, 0, fmt.Errorf("hunk %d runs past the end of the old content", i+1)
	}
	if frag.NewPosition == 0 && frag.NewLines == 0 && to < len(old) {
		// go-gitdiff reads "+0,0" as the deletion of everything, even
		// in a zero-context hunk at the top of a longer file.
		return 0, 0, fmt.Errorf("hunk %d deletes everything, but more lines follow it", i+1)
	}
	return from, to, nil
}

// applyHunk applies h, once placed, to its own old lines, go-gitdiff
// writing the result into a comparison with want at h.newAt; src and
// dst are the caller's, reused from hunk to hunk. It is gitdiff.Apply
// of the one fragment but for Apply's last step, the copy of the
// source's lines after the fragment: the source is the fragment's old
// lines, so there are none (go-gitdiff fails a fragment whose old
// lines the source does not hold to the end).
func applyHunk(h *regionHunk, old, want []byte, src *regionLines, dst *wantWriter) {
	if h.err != nil {
		return
	}
	one := *h.frag
	if one.OldPosition > 0 {
		one.OldPosition = 1
	}
	*src = regionLines{b: old[h.from:h.to]}
	*dst = wantWriter{want: want, at: h.newAt}
	if err := gitdiff.NewTextApplier(dst, src).ApplyFragment(&one); err != nil {
		h.applyErr = err
		return
	}
	h.differs = dst.differs || dst.at != h.newAt+h.newLen
}

// regionLines is a hunk's old lines as go-gitdiff reads its source: a
// gitdiff.LineReaderAt handing out the lines in place, where
// go-gitdiff's own reader over an io.ReaderAt copies them and indexes
// them through a buffer of its own, and io.ReaderAt for its test of an
// empty source. go-gitdiff reads forward, so the line reached is kept.
type regionLines struct {
	b        []byte
	line, at int
}

// ReadLinesAt reads lines from line offset on, each with its "\n" (the
// last may lack it); fewer than len(lines) only at the end, with
// io.EOF, as go-gitdiff's own reader.
func (r *regionLines) ReadLinesAt(lines [][]byte, offset int64) (int, error) {
	if offset < 0 {
		return 0, errors.New("ReadLinesAt: negative offset")
	}
	if len(lines) == 0 {
		return 0, nil
	}
	if offset < int64(r.line) {
		r.line, r.at = 0, 0
	}
	for int64(r.line) < offset && r.at < len(r.b) {
		r.at = nextLine(r.b, r.at)
		r.line++
	}
	if int64(r.line) < offset {
		return 0, io.EOF
	}
	n, at := 0, r.at
	for ; n < len(lines) && at < len(r.b); n++ {
		end := nextLine(r.b, at)
		lines[n] = r.b[at:end:end]
		at = end
	}
	if n < len(lines) {
		return n, io.EOF
	}
	return n, nil
}

// ReadAt is bytes.Reader's.
func (r *regionLines) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("ReadAt: negative offset")
	}
	if off >= int64(len(r.b)) {
		return 0, io.EOF
	}
	n := copy(p, r.b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// nextLine returns where the line of b starting at offset at ends: past
// its "\n", or at the end of b.
func nextLine(b []byte, at int) int {
	if i := bytes.IndexByte(b[at:], '\n'); i >= 0 {
		return at + i + 1
	}
	return len(b)
}

// wantWriter takes what go-gitdiff writes and compares it with want
// from offset at on, keeping only whether it differs.
type wantWriter struct {
	want    []byte
	at      int
	differs bool
}

func (w *wantWriter) Write(p []byte) (int, error) {
	end := w.at + len(p)
	if end > len(w.want) || !bytes.Equal(w.want[w.at:end], p) {
		w.differs = true
	}
	w.at = end
	return len(p), nil
}

// WriteString is Write without the copy io.WriteString would make.
func (w *wantWriter) WriteString(s string) (int, error) {
	end := w.at + len(s)
	if end > len(w.want) || string(w.want[w.at:end]) != s {
		w.differs = true
	}
	w.at = end
	return len(s), nil
}

// parallelHunks is the number of hunks from which applyRegions applies
// them side by side (500 hunks took 1.2 ms one after the other); a
// variable so that a test can apply them one after the other.
var parallelHunks = 32

// skipLines returns the offset in b n lines after offset at, a line
// ending after its "\n" or, the last one, at the end of b; false when
// b ends first.
//
// A few lines are stepped through one at a time. Beyond those the
// newlines of a block are counted at once (bytes.Count is many times
// faster than a search per line), the block sized to hold the lines
// left at the density of the last one counted, so that a jump costs
// about one count of the bytes it crosses and a few steps; a block
// that holds many more lines than sought is halved instead.
func skipLines(b []byte, at int, n int64) (int, bool) {
	const near, perLine, most = 8, 40, 256 << 10
	nl := []byte{'\n'}
	density := float64(perLine) // bytes a line, until a block says otherwise
	for n > near && at < len(b) {
		end := min(at+min(int(float64(n)*density*1.05)+64, most), len(b))
		c := int64(bytes.Count(b[at:end], nl))
		switch {
		case c < n && end == len(b):
			// Past the last "\n" only a last line without one is left.
			n -= c
			if n == 1 && b[len(b)-1] != '\n' {
				n = 0
			}
			return len(b), n == 0
		case c < n:
			density = float64(end-at) / float64(max(c, 1))
			n -= c
			at = end
			continue
		case c-n < near:
			// The nth "\n" from at is the (c-n+1)th from end, back.
			for k := c - n + 1; k > 0; k-- {
				end = bytes.LastIndexByte(b[at:end], '\n') + at
			}
			return end + 1, true
		}
		// The nth "\n" from at is in [at, end), among many.
		for c-n >= near && end-at > 1024 {
			mid := at + (end-at)/2
			if h := int64(bytes.Count(b[at:mid], nl)); h < n {
				n -= h
				c -= h
				at = mid
			} else {
				end, c = mid, h
			}
		}
		break
	}
	for ; n > 0 && at < len(b); n-- {
		i := bytes.IndexByte(b[at:], '\n')
		if i < 0 {
			at = len(b) // the last line, without a terminator
		} else {
			at += i + 1
		}
	}
	return at, n == 0
}

// zeroContextStarts adapts hunks with an empty old range, which only
// zero-context patches have (besides those of empty files): git puts
// such a hunk after its start line, go-gitdiff before it.
func zeroContextStarts(f *gitdiff.File) {
	for i, frag := range f.TextFragments {
		if frag.OldLines == 0 {
			adj := *frag
			adj.OldPosition++
			f.TextFragments[i] = &adj
		}
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
