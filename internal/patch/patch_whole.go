package patch

// Files added or removed whole: a created file, a deleted one, or a file
// emptied or filled from empty. Their diff is one hunk holding every
// line of one side, so it is written and checked in one pass over the
// content, without the list of edits a diff algorithm builds or the
// line objects go-gitdiff parses: for a file of millions of short lines
// those cost tens of times the file.

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

const noNewline = "\\ No newline at end of file\n"

// lineCount is the number of lines of text, a last one without "\n"
// included.
func lineCount(text []byte) int {
	n := bytes.Count(text, []byte("\n"))
	if len(text) > 0 && text[len(text)-1] != '\n' {
		n++
	}
	return n
}

// writeWhole writes the hunk of a diff whose other side is empty: every
// line of text after sign ('+' for added, '-' for removed), as
// textdiff gives it (no function context: the hunk starts the file).
func writeWhole(w *bytes.Buffer, text []byte, sign byte) {
	n := lineCount(text)
	if sign == '+' {
		writeHunkHeader(w, 0, 0, 0, n, nil)
	} else {
		writeHunkHeader(w, 0, n, 0, 0, nil)
	}
	w.Grow(len(text) + n + len(noNewline))
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n') + 1
		if i == 0 {
			i = len(text)
		}
		w.WriteByte(sign)
		w.Write(text[:i])
		if text[i-1] != '\n' {
			w.WriteString("\n" + noNewline)
		}
		text = text[i:]
	}
}

// wholeSide returns the content and sign of a text change that adds or
// removes every line of its file, for writeWhole and verifyWhole; ok is
// false for any other change.
func wholeSide(c FileChange) (text []byte, sign byte, ok bool) {
	switch {
	case IsBinary(c.Old) || IsBinary(c.New) || bytes.Equal(c.Old, c.New):
		return nil, 0, false
	case len(c.Old) == 0:
		return c.New, '+', true
	case len(c.New) == 0:
		return c.Old, '-', true
	}
	return nil, 0, false
}

// sections cuts a patch at each line starting "diff --git ": one
// section per file. preamble is what stands before the first.
func sections(patch []byte) (preamble []byte, out [][]byte) {
	const head = "diff --git "
	at := 0
	if !bytes.HasPrefix(patch, []byte(head)) {
		i := bytes.Index(patch, []byte("\n"+head))
		if i < 0 {
			return patch, nil
		}
		at = i + 1
	}
	preamble = patch[:at]
	for at < len(patch) {
		next := bytes.Index(patch[at+1:], []byte("\n"+head))
		end := len(patch)
		if next >= 0 {
			end = at + 1 + next + 1
		}
		out = append(out, patch[at:end])
		at = end
	}
	return preamble, out
}

// verifyWhole checks a section of a change that adds or removes its
// file's lines whole, reading it without go-gitdiff's line objects: the
// header (up to the hunk) is parsed by go-gitdiff and checked as any
// other, and the one hunk must be the range of text's lines followed
// by each line of text after sign, with git's marker after a last
// line that has no "\n".
func verifyWhole(section []byte, c FileChange, text []byte, sign byte) error {
	at := bytes.Index(section, []byte("\n@@ "))
	if at < 0 {
		return errors.New("no hunk")
	}
	header, body := section[:at+1], section[at+1:]
	files, preamble, err := gitdiff.Parse(bytes.NewReader(header))
	if err != nil {
		return fmt.Errorf("parse header: %w", err)
	}
	if preamble != "" || len(files) != 1 {
		return fmt.Errorf("header reads as %d files", len(files))
	}
	if err := verifyHeader(files[0], c); err != nil {
		return err
	}
	n := strconv.Itoa(lineCount(text))
	want := "@@ -0,0 +1," + n + " @@\n"
	if sign == '-' {
		want = "@@ -1," + n + " +0,0 @@\n"
	}
	if n == "1" {
		want = map[byte]string{'+': "@@ -0,0 +1 @@\n", '-': "@@ -1 +0,0 @@\n"}[sign]
	}
	if !bytes.HasPrefix(body, []byte(want)) {
		return fmt.Errorf("hunk header %q, want %q", firstLine(string(body)), want)
	}
	body = body[len(want):]
	for k := 1; len(text) > 0; k++ {
		i := bytes.IndexByte(text, '\n') + 1
		if i == 0 {
			i = len(text)
		}
		line := text[:i]
		text = text[i:]
		if len(body) == 0 || body[0] != sign || !bytes.HasPrefix(body[1:], line) {
			return fmt.Errorf("hunk line %d does not hold line %d of the file", k, k)
		}
		body = body[1+len(line):]
		if line[len(line)-1] != '\n' {
			if !bytes.HasPrefix(body, []byte("\n"+noNewline)) {
				return fmt.Errorf("no %q after the last line", noNewline[:len(noNewline)-1])
			}
			body = body[1+len(noNewline):]
		}
	}
	if len(body) > 0 {
		return fmt.Errorf("the hunk goes on after the file's last line: %q", firstLine(string(body)))
	}
	return nil
}
