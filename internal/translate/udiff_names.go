package translate

// The file headers of a unified diff: git's extended lines, and names
// as diff tools write them (a/ b/, /dev/null, quoted, timestamps).

import (
	"fmt"
	"strconv"
	"strings"
)

// udiffHeader is what the header of one file says.
type udiffHeader struct {
	from, to         string // old and new path; "" when absent or /dev/null
	created, deleted bool
	renamed          bool
	oldMode, newMode string
	modeLine         int     // the line giving newMode
	bad              Failure // a line that makes the file unappliable
	warns            []Warning
}

// readUdiffHeader reads a file header: its "diff --git" names, its
// extended lines and its "---"/"+++" names. Where names disagree, the
// rename lines win over "---"/"+++", and those over "diff --git",
// whose split spaces in names can make ambiguous.
func readUdiffHeader(h hunkFileHeader) udiffHeader {
	var f udiffHeader
	gitOld, gitNew := udiffGitNames(h.Git)
	var renameFrom, renameTo string
	for _, e := range h.Ext {
		key, val := udiffExtKey(e.Text)
		switch key {
		case "new file mode":
			f.created, f.newMode, f.modeLine = true, val, e.Line
		case "deleted file mode":
			f.deleted = true
		case "old mode":
			f.oldMode = val
		case "new mode":
			f.newMode, f.modeLine = val, e.Line
		case "rename from":
			renameFrom, f.renamed = udiffUnquote(val), true
		case "rename to":
			renameTo, f.renamed = udiffUnquote(val), true
		case "copy from", "copy to":
			if f.bad.Line == 0 {
				f.bad = Failure{Line: e.Line, Msg: fmt.Sprintf("%q: copies are not applied; write the copy as a new file (--- /dev/null)", e.Text)}
			}
		case "binary":
			if f.bad.Line == 0 {
				f.bad = Failure{Line: e.Line, Msg: fmt.Sprintf("%q: binary files are never edited; change it yourself", hunkClip(e.Text))}
			}
		}
		if (key == "new file mode" || key == "new mode" || key == "old mode") && val != "100644" && val != "100755" && f.bad.Line == 0 {
			f.bad = Failure{Line: e.Line, Msg: fmt.Sprintf("%q: only regular files (100644 and 100755) are written, not a %s", e.Text, udiffModeName(val))}
		}
	}
	oldName, oldNull := udiffHeaderName(h.Old)
	newName, newNull := udiffHeaderName(h.New)
	f.created = f.created || oldNull
	f.deleted = f.deleted || newNull
	f.from = udiffFirst(renameFrom, oldName, gitOld)
	f.to = udiffFirst(renameTo, newName, gitNew)
	switch {
	case f.created:
		f.from = ""
	case f.deleted:
		f.to = ""
	case !f.renamed && f.from != f.to && f.from != "" && f.to != "":
		f.warns = append(f.warns, warning(h.Line,
			"the header names %s and %s: the hunks edit %s (a rename needs the lines \"rename from\" and \"rename to\" of a git diff)", f.from, f.to, f.to))
		f.from = f.to
	}
	return f
}

// udiffExtKey splits an extended header line into its key and value;
// binary lines have the key "binary".
func udiffExtKey(l string) (key, val string) {
	if strings.HasPrefix(l, "Binary files ") || strings.HasPrefix(l, "GIT binary patch") {
		return "binary", ""
	}
	for _, k := range []string{"new file mode", "deleted file mode", "old mode", "new mode", "rename from", "rename to", "copy from", "copy to"} {
		if v, ok := strings.CutPrefix(l, k+" "); ok {
			return k, strings.TrimSpace(v)
		}
	}
	return "", ""
}

func udiffModeName(mode string) string {
	switch mode {
	case "120000":
		return "symbolic link"
	case "160000":
		return "submodule"
	}
	return "file of mode " + mode
}

func udiffFirst(names ...string) string {
	for _, n := range names {
		if n != "" {
			return n
		}
	}
	return ""
}

var (
	// A timestamp after a name, without the tab that usually stands
	// before it: "2024-05-01 10:00:00.000000000 +0200".
	udiffStampRe = lazyRegexpOf(`\s+\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?(\s*([+-]\d{4}|Z|UTC))?$`)
	// A remark after a name: "(revision 12)", "(working copy)", "(original)".
	udiffRemarkRe = lazyRegexpOf(`(?i)\s+\((revision \d+|working copy|nonexistent|original|modified|new|old|updated|new file|deleted)\)$`)
)

// udiffHeaderName cleans the name of a "---" or "+++" line (after the
// marker): a C-quoted name is unquoted, a tab and what follows (a
// timestamp) go, and so do git's "a/" or "b/". null reports /dev/null.
func udiffHeaderName(s string) (name string, null bool) {
	s = strings.TrimLeft(s, " ")
	if strings.HasPrefix(s, `"`) {
		name, _ = udiffQuoted(s)
	} else {
		if i := strings.IndexByte(s, '\t'); i >= 0 {
			s = s[:i]
		}
		s = strings.TrimRight(s, " ")
		s = udiffRemarkRe.ReplaceAllString(udiffStampRe.ReplaceAllString(s, ""), "")
		name = s
	}
	if name == "/dev/null" {
		return "", true
	}
	return udiffStrip(name), false
}

// udiffStrip drops git's "a/" or "b/" prefix.
func udiffStrip(n string) string {
	if strings.HasPrefix(n, "a/") || strings.HasPrefix(n, "b/") {
		return n[2:]
	}
	return n
}

// udiffGitNames reads the two names of a "diff --git" line (without
// "diff --git "): quoted names, or "a/P b/P" split where both halves
// name the same path; "" when they cannot be told apart (a rename with
// spaces in a name: its rename lines say).
func udiffGitNames(s string) (oldName, newName string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", ""
	}
	if strings.HasPrefix(s, `"`) {
		a, rest := udiffQuoted(s)
		rest = strings.TrimSpace(rest)
		if strings.HasPrefix(rest, `"`) {
			b, _ := udiffQuoted(rest)
			return udiffStrip(a), udiffStrip(b)
		}
		return udiffStrip(a), udiffStrip(rest)
	}
	if strings.HasSuffix(s, `"`) {
		if i := strings.Index(s, ` "`); i >= 0 {
			b, _ := udiffQuoted(s[i+1:])
			return udiffStrip(s[:i]), udiffStrip(b)
		}
	}
	// The same path on both sides: split in the middle.
	if n := len(s); n%2 == 1 && s[n/2] == ' ' {
		a, b := s[:n/2], s[n/2+1:]
		if udiffStrip(a) == udiffStrip(b) {
			return udiffStrip(a), udiffStrip(b)
		}
	}
	// Different paths: the one split where "a/..." meets " b/...".
	if strings.HasPrefix(s, "a/") && strings.Count(s, " b/") == 1 {
		i := strings.Index(s, " b/")
		return s[2:i], s[i+3:]
	}
	return "", ""
}

// udiffQuoted reads the C-quoted string s starts with and returns it
// unquoted, with the rest of s after its closing quote.
func udiffQuoted(s string) (string, string) {
	end := -1
	for i := 1; i < len(s); i++ {
		if s[i] == '\\' {
			i++
		} else if s[i] == '"' {
			end = i
			break
		}
	}
	if end < 0 {
		return strings.Trim(s, `"`), ""
	}
	if v, err := strconv.Unquote(s[:end+1]); err == nil {
		return v, s[end+1:]
	}
	return s[1:end], s[end+1:]
}

// udiffUnquote unquotes a name of a "rename from/to" line.
func udiffUnquote(s string) string {
	if strings.HasPrefix(s, `"`) {
		v, _ := udiffQuoted(s)
		return v
	}
	return s
}
