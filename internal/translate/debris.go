package translate

import (
	"strings"
	"unicode/utf8"
)

// Debris is one line of a file that holds what a pasted model reply
// leaves behind.
type Debris struct {
	Line int    // 1-based line of the file
	What string // what was found and its text, e.g. "SEARCH/REPLACE marker `<<<<<<< SEARCH`"
}

// FindDebris returns, in line order, every line of a file's text that
// is debris of a pasted model reply: an edit marker of a supported
// format that was never applied, or an elision placeholder standing
// where code should be. These are:
//
//   - SEARCH/REPLACE: "<<<<<<< SEARCH" and ">>>>>>> REPLACE", with five
//     to nine angle brackets (and "SEARCH>") as the reader takes them;
//   - edit-v2: "<<<<<<< EDIT";
//   - FIUP: "<<<FIUP>>>" and "<<<END>>>";
//   - udiffx: "<FILE_CHANGES>", "</FILE_CHANGES>" and the tags
//     "<FILE_PATCH", "<FILE_NEW", "<FILE_APPEND", "<FILE_RENAME",
//     "<FILE_DELETE" and their closing forms;
//   - apply-patch: "*** Begin Patch", "*** End Patch", "*** Update
//     File:", "*** Add File:", "*** Delete File:", "*** Move to:";
//   - cline: "------- SEARCH" and "+++++++ REPLACE" (three or more
//     characters, as Cline reads them), and the tags of the agents'
//     tool calls, "<replace_in_file>", "<apply_diff>",
//     "<write_to_file>" and their closing forms;
//   - roo: a ":start_line:N" line;
//   - a pasted Anthropic tool call: "<function_calls>",
//     "</function_calls>", and "<invoke name="...">" and
//     "<parameter name="...">" with no other attribute (BPEL's
//     <invoke> and JasperReports' <parameter> carry more);
//   - the near misses of all of these that the readers read or refuse
//     (see markerAt), reported as such: another case ("<<<<<<<
//     search", "<file_changes>", "*** begin patch"), the space missing
//     or doubled ("<<<<<<<SEARCH", ">>>>>>>REPLACE"), another number of
//     brackets or stars ("<<<< SEARCH", "<<<<< EDIT", "<<<FIUP>>",
//     "**** End Patch"), a misspelt tag ("<FILE-CHANGES>");
//   - a line that is only a placeholder comment (see IsPlaceholder):
//     "// ... existing code ...", "# rest of the file unchanged",
//     "/* ... */".
//
// What is left out, to keep false positives away from real files:
//
//   - a marker counts only alone on its line, after indentation, so
//     one quoted in prose, a comment or a string literal is not debris;
//   - git's own merge-conflict markers ("<<<<<<< HEAD", "=======",
//     ">>>>>>> branch") are not ours, and neither are the "=======",
//     "-------" and bare ">>>>>>>" lines that SEARCH/REPLACE and
//     edit-v2 share with them;
//   - chunk replies are YAML ("operations:", "op:", "path:") that real
//     YAML files hold too, so nothing marks them;
//   - a bare "..." is code in Python and text in prose;
//   - prose wrapped in ellipses ("# ... but not again ...") reads as a
//     sentence trailing off;
//   - a placeholder that a comment could also hold ("// ...", "// ...
//     body of loop ...", "# rest of the file.") counts only when the
//     lines right before and after it are not comments of the same
//     kind: inside a block of comments it is the elision of an example
//     in a doc comment, or a sentence wrapped onto its last words.
//     Words of the vocabulary wrapped in ellipses with one that says
//     something was left out ("// ... existing code ...") count
//     anywhere.
//
// Lines end at "\n"; a "\r" before it is ignored, and so is a byte
// order mark at the start.
//
// FindDebris looks at each line's first byte after indentation before
// anything else, uses no regular expression and allocates only for
// what it reports, so that a pre-commit hook can read every staged
// file: 10 MB of source take a few tens of milliseconds.
func FindDebris(text string) []Debris {
	var out []Debris
	// A placeholder that a line of a comment block could also be (see
	// weakPlaceholder) waits for the next line: it is reported unless
	// that line or the one before continues the same comment.
	var pending Debris
	pendingOpener, prevOpener := "", ""
	text = strings.TrimPrefix(text, "\ufeff")
	for n, start := 1, 0; start < len(text); n++ {
		line := text[start:]
		if end := strings.IndexByte(line, '\n'); end >= 0 {
			line = line[:end]
			start += end + 1
		} else {
			start = len(text)
		}
		i := 0
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		var d debris
		if i < len(line) {
			switch line[i] {
			case '<', '>', '*', '/', '#', '-', ';', '{', '+', ':':
				d = debrisAt(strings.TrimRight(line[i:], " \t\r\f\v"))
			}
		}
		if pendingOpener != "" && d.opener != pendingOpener {
			out = append(out, pending)
		}
		pendingOpener = ""
		switch {
		case d.what == "":
		case d.weak && d.opener != prevOpener:
			pending, pendingOpener = Debris{Line: n, What: d.what}, d.opener
		case !d.weak:
			out = append(out, Debris{Line: n, What: d.what})
		}
		prevOpener = d.opener
	}
	if pendingOpener != "" {
		out = append(out, pending)
	}
	return out
}

// debris is what debrisAt found on one line.
type debris struct {
	what   string // "" when the line is no debris
	weak   bool   // a placeholder only when no comment line is next to it
	opener string // the comment the line opens ("//", "#", ...), "" when none
}

// debrisAt says what the line t (without indentation and trailing
// white space) is debris of.
func debrisAt(t string) debris {
	switch m := markerAt(t); {
	case m.fit == fitExact:
		return debris{what: found(m.what(), t)}
	case m.kind != noMarker:
		return debris{what: found("near-miss "+m.what(), t)}
	case t[0] == '>':
		return debris{}
	case pastedCallTag(t):
		return debris{what: found("pasted tool-call tag", t)}
	case rooLineMarker(t):
		return debris{what: found("Roo Code line marker", t)}
	}
	opener, kind := classifyPlaceholder(t)
	if kind < weakPlaceholder {
		return debris{opener: opener}
	}
	return debris{what: found("elision placeholder", t), weak: kind == weakPlaceholder, opener: opener}
}

// pastedCallTag reports whether t is a tag of the tool-call envelope
// an Anthropic model's reply holds: "<function_calls>" or its closing
// tag, or "<invoke name="X">" or "<parameter name="X">" with nothing
// after the tag but the parameter's value.
func pastedCallTag(t string) bool {
	if t == "<function_calls>" || t == "</function_calls>" {
		return true
	}
	for _, tag := range [...]string{`<invoke name="`, `<parameter name="`} {
		rest, ok := strings.CutPrefix(t, tag)
		if !ok {
			continue
		}
		name, after, ok := strings.Cut(rest, `">`)
		return ok && name != "" && !strings.ContainsAny(name, `"<> =`) &&
			(tag[1] == 'p' || after == "")
	}
	return false
}

// rooLineMarker reports whether t is Roo Code's ":start_line:N" or
// ":end_line:N" line.
func rooLineMarker(t string) bool {
	for _, m := range [...]string{":start_line:", ":end_line:"} {
		if rest, ok := strings.CutPrefix(t, m); ok {
			_, err := atoiPlain(strings.TrimSpace(rest))
			return err == nil
		}
	}
	return false
}

// maxShown bounds the text a finding quotes, in bytes.
const maxShown = 60

// found names the kind of debris and quotes the line, cut short when
// long (a tag with its attributes, a file header with a long path).
func found(kind, t string) string {
	if len(t) > maxShown {
		cut := maxShown
		for cut > 0 && !utf8.RuneStart(t[cut]) {
			cut--
		}
		t = t[:cut] + "…"
	}
	return kind + " `" + t + "`"
}
