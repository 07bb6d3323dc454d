package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Messages (SPEC section 5): what a reply says reaches a commit as
// valid UTF-8 without NUL or other control characters.

// hostile holds an ESC sequence (clear screen), BEL, CR, the C1 CSI
// (U+009B) and a byte that is not UTF-8.
const hostile = "\x1b[2J\x07\r\u009b\xff"

// rawControl reports whether s holds a control character a terminal
// acts on (C0 but line feed and tab, DEL, C1) or bytes that are not
// UTF-8.
func rawControl(s string) bool {
	return !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool {
		return r < ' ' && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f
	})
}

func TestCommitMessageFromHostileProse(t *testing.T) {
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	reply := r.reply("r.md", "Sure!\n\nImport\x00 sys"+hostile+" now.\r\nIt is\x00 needed \x1b]0;title\x07by caf\xe9.\u0085\n\n"+
		block("src/app.py", "import os\n", "import os\nimport sys\n"))
	for _, args := range [][]string{
		{"apply", reply},
		{"apply", "-b", "m", "-m", "Mine\x1b[2J\u009b\xff\r\n\r\nbody\x07 text\x1b[0m", reply},
	} {
		res := r.run(args...)
		if res.code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, res.code, res.stderr)
		}
	}
	branch := strings.TrimSpace(r.git("for-each-ref", "--format=%(refname:short)", "refs/heads/llm/"))
	if branch != "llm/import-sys-2j-now" {
		t.Errorf("branch %q", branch)
	}
	r.git("check-ref-format", "refs/heads/"+branch)
	for rev, want := range map[string]string{
		branch: "Import sys[2J \uFFFD now.\n\nIt is needed ]0;titleby caf\uFFFD.\n\nLLM-Edit-Format: diff\n",
		"m":    "Mine[2J\uFFFD\n\nbody text[0m\n\nLLM-Edit-Format: diff\n",
	} {
		obj := r.git("cat-file", "commit", rev)
		_, msg, _ := strings.Cut(obj, "\n\n")
		if msg != want {
			t.Errorf("%s: message\n%q\nwant\n%q", rev, msg, want)
		}
		if rawControl(strings.ReplaceAll(msg, "\n", "")) {
			t.Errorf("%s: the message holds a control character or invalid UTF-8: %q", rev, msg)
		}
	}
	r.fsck() // no nulInCommit, no warning at all
}
