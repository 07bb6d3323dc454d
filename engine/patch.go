package engine

import (
	"bytes"
	"compress/zlib"
	"fmt"
	"strconv"
	"strings"

	"znkr.io/diff"
	"znkr.io/diff/textdiff"
)

// PatchOptions tunes FormatPatch. The zero value gives git's defaults.
type PatchOptions struct {
	Context int // lines of context around each change; 3 when 0, none when negative
	Abbrev  int // hex digits of blob ids on the index line; 7 when 0, at most 40
}

// withDefaults fills in the defaults and rejects impossible values.
// A negative Context is how a caller asks for git's -U0, since 0 must
// mean the default for the zero value to be useful.
func (o PatchOptions) withDefaults() (PatchOptions, error) {
	if o.Abbrev < 0 {
		return o, fmt.Errorf("engine: patch options: negative abbrev %d", o.Abbrev)
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

// binaryCheckBytes is how far git looks for a NUL byte to call a blob
// binary (FIRST_FEW_BYTES in xdiff-interface.c).
const binaryCheckBytes = 8000

// nullID is the all-zero id git prints for the missing side of a
// creation or deletion.
const nullID = "0000000000000000000000000000000000000000"

// FormatPatch returns the git-style unified diff of changes, in the
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
// more common in text of many repeated lines); binary data is always a
// literal deflated by Go rather than C zlib; and ids are cut to Abbrev
// digits without git's lengthening of ambiguous prefixes.
//
// It returns an error, before writing anything, when opts.Abbrev is
// negative or a change has neither path or carries content on
// a side that does not exist.
func FormatPatch(changes []FileChange, opts PatchOptions) ([]byte, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return nil, err
	}
	for i, c := range changes {
		if err := checkChange(c); err != nil {
			return nil, fmt.Errorf("engine: change %d (%q): %w", i+1, c.Path(), err)
		}
	}
	var buf bytes.Buffer
	for _, c := range patchFiles(changes) {
		formatFile(&buf, c, opts)
	}
	return buf.Bytes(), nil
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
func patchFiles(changes []FileChange) []FileChange {
	out := make([]FileChange, 0, len(changes))
	for _, c := range changes {
		if c.OldMode == 0 && !c.IsCreate() {
			c.OldMode = ModeRegular
		}
		if c.NewMode == 0 && !c.IsDelete() {
			c.NewMode = ModeRegular
		}
		switch {
		case c.IsCreate() || c.IsDelete():
			out = append(out, c)
		case (c.OldMode^c.NewMode)&modeTypeMask != 0:
			out = append(out,
				FileChange{OldPath: c.OldPath, OldMode: c.OldMode, Old: c.Old},
				FileChange{NewPath: c.NewPath, NewMode: c.NewMode, New: c.New})
		case c.IsRename() || c.OldMode != c.NewMode || !bytes.Equal(c.Old, c.New):
			out = append(out, c)
		}
	}
	return out
}

// formatFile writes the section of one file, following builtin_diff and
// fill_metainfo in git's diff.c.
func formatFile(w *bytes.Buffer, c FileChange, opts PatchOptions) {
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

	binary := patchBinary(c.Old) || patchBinary(c.New)
	same := bytes.Equal(c.Old, c.New)
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
			oldID = BlobID(c.Old)
		}
		if !c.IsDelete() {
			newID = BlobID(c.New)
		}
		fmt.Fprintf(w, "index %s..%s", oldID[:abbrev], newID[:abbrev])
		if !c.IsCreate() && !c.IsDelete() && c.OldMode == c.NewMode {
			fmt.Fprintf(w, " %06o", c.OldMode)
		}
		w.WriteByte('\n')
	}
	if same {
		return
	}
	if binary {
		w.WriteString("GIT binary patch\n")
		writeLiteral(w, c.New)
		writeLiteral(w, c.Old) // the reverse, so that `git apply -R` works
		return
	}

	oldLabel, newLabel := aName, bName
	if c.IsCreate() {
		oldLabel = "/dev/null"
	}
	if c.IsDelete() {
		newLabel = "/dev/null"
	}
	fmt.Fprintf(w, "--- %s%s\n+++ %s%s\n", oldLabel, labelTab(oldLabel), newLabel, labelTab(newLabel))
	writeHunks(w, c.Old, c.New, opts.Context)
}

// labelTab is what git appends to a ---/+++ label: a tab when the label
// holds a space, so GNU patch does not take the rest for a timestamp.
func labelTab(label string) string {
	if strings.Contains(label, " ") {
		return "\t"
	}
	return ""
}

// writeHunks writes the text hunks turning old into new.
func writeHunks(w *bytes.Buffer, old, new []byte, context int) {
	hunks := textdiff.Hunks(old, new, diff.Context(context), textdiff.IndentHeuristic())
	if len(hunks) == 0 {
		return
	}
	funcs := newFuncFinder(bytes.SplitAfter(old, []byte("\n")))
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

// patchBinary reports whether git would call data binary: a NUL byte in
// its first binaryCheckBytes bytes (buffer_is_binary).
func patchBinary(data []byte) bool {
	return bytes.IndexByte(data[:min(len(data), binaryCheckBytes)], 0) >= 0
}

// emptyDeflated is zlib's stream for no data. Go's writer ends with an
// extra empty stored block; using zlib's bytes keeps the common
// "literal 0" of a binary deletion identical to git's.
var emptyDeflated = []byte{0x78, 0x01, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01}

// writeLiteral writes one "literal" binary hunk holding data: its size,
// then the zlib stream in base85 lines of up to 52 bytes, then a blank
// line (emit_binary_diff_body). The deflated bytes differ from git's,
// which uses C zlib, but both inflate to the same data.
func writeLiteral(w *bytes.Buffer, data []byte) {
	fmt.Fprintf(w, "literal %d\n", len(data))
	z := emptyDeflated
	if len(data) > 0 {
		var zb bytes.Buffer
		zw, _ := zlib.NewWriterLevel(&zb, zlib.BestSpeed) // git's core.loosecompression default
		zw.Write(data)
		zw.Close()
		z = zb.Bytes()
	}
	var line [1 + 65]byte
	for len(z) > 0 {
		n := min(len(z), 52)
		if n <= 26 {
			line[0] = byte('A' + n - 1)
		} else {
			line[0] = byte('a' + n - 27)
		}
		m := encode85(line[1:], z[:n])
		w.Write(line[:1+m])
		w.WriteByte('\n')
		z = z[n:]
	}
	w.WriteByte('\n')
}

// base85Alphabet is git's (base85.c), not Ascii85.
const base85Alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~"

// encode85 writes src to dst as git's encode_85 does, five characters
// per four bytes with the last group zero-padded, and returns the
// number of characters written.
func encode85(dst, src []byte) int {
	n := 0
	for len(src) > 0 {
		var acc uint32
		for i := 0; i < 4; i++ {
			acc <<= 8
			if i < len(src) {
				acc |= uint32(src[i])
			}
		}
		for i := 4; i >= 0; i-- {
			dst[n+i] = base85Alphabet[acc%85]
			acc /= 85
		}
		n += 5
		src = src[min(4, len(src)):]
	}
	return n
}

// quotePath quotes name as git's quote_c_style does with
// core.quotePath=true: in double quotes, with C escapes, when it holds
// a control character, '"', '\\', DEL or any byte >= 0x80. Spaces do
// not cause quoting.
func quotePath(name string) string {
	if !needsQuote(name) {
		return name
	}
	return `"` + escapePath(name) + `"`
}

// quotePrefixed is git's quote_two: prefix and name quoted as one
// string, so the prefix ends up inside the quotes.
func quotePrefixed(prefix, name string) string {
	if !needsQuote(name) {
		return prefix + name
	}
	return `"` + prefix + escapePath(name) + `"`
}

func needsQuote(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			return true
		}
	}
	return false
}

// cEscapes are the letter escapes of quote.c's cq_lookup.
var cEscapes = [256]byte{'\a': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r', '"': '"', '\\': '\\'}

func escapePath(s string) string {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case cEscapes[c] != 0:
			b = append(b, '\\', cEscapes[c])
		case c < 0x20 || c >= 0x7f:
			b = append(b, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// similarity is the "similarity index" git prints for a rename from old
// to new: 100 for equal contents, else estimate_similarity of
// diffcore-rename.c, the share of the larger size made of chunks that
// both sides hold.
func similarity(old, new []byte) int {
	if bytes.Equal(old, new) {
		return 100
	}
	const maxScore = 60000 // MAX_SCORE in diffcore.h
	maxSize := uint64(max(len(old), len(new)))
	if maxSize == 0 {
		return 0
	}
	src, dst := spanCounts(old), spanCounts(new)
	var copied uint64
	for h, n := range src {
		copied += uint64(min(n, dst[h]))
	}
	score := copied * maxScore / maxSize
	return int(score * 100 / maxScore)
}

// spanCounts is hash_chars of diffcore-delta.c: data cut after each
// '\n' or every 64 bytes, each piece hashed, and the bytes counted per
// hash. A text file's CR before LF is skipped, and a last piece
// without '\n' is never counted, as in git.
func spanCounts(data []byte) map[uint32]uint64 {
	const hashBase = 107927
	text := !patchBinary(data)
	counts := make(map[uint32]uint64)
	var acc1, acc2 uint32
	n := uint64(0)
	for i, c := range data {
		if text && c == '\r' && i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		old1 := acc1
		acc1 = acc1<<7 ^ acc2>>25
		acc2 = acc2<<7 ^ old1>>25
		acc1 += uint32(c)
		n++
		if n < 64 && c != '\n' {
			continue
		}
		counts[(acc1+acc2*9)%hashBase] += n
		n, acc1, acc2 = 0, 0, 0
	}
	return counts
}
