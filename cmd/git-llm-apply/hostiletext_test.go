package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Messages and terminal (SPEC section 5): what a reply says reaches a
// commit as valid UTF-8 without NUL or other control characters, and a
// terminal with its control characters escaped.

// hostile holds an ESC sequence (clear screen), BEL, CR, the C1 CSI
// (U+009B) and a byte that is not UTF-8.
const hostile = "\x1b[2J\x07\r\u009b\xff"

// hostileShown is hostile as the human report shows it.
const hostileShown = `\x1b[2J\x07\x0d\u009b\xff`

// rawControl reports whether s holds a control character a terminal
// acts on (C0 but line feed and tab, DEL, C1) or bytes that are not
// UTF-8.
func rawControl(s string) bool {
	return !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool {
		return r < ' ' && r != '\n' && r != '\t' || r >= 0x7f && r <= 0x9f
	})
}

func TestCommitMessageFromHostileProse(t *testing.T) {
	t.Parallel()
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
		branch: "Import sys[2J \uFFFD now.\n\nIt is needed ]0;titleby caf\uFFFD.\n\nLLM-Edit-Format: diff\nLLM-Reply: a38aeebfdb7a9157\n",
		"m":    "Mine[2J\uFFFD\n\nbody text[0m\n\nLLM-Edit-Format: diff\nLLM-Reply: a38aeebfdb7a9157\n",
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

// TestReplyTextEscapedOnTerminal: every place of the human report that
// quotes a reply (or a file it names) escapes control characters: the
// description, the lines closest to a failed edit, a warning quoting a
// reply line, a shell block, a reply's name in an error; JSON escapes
// them as JSON does, C1 included.
func TestReplyTextEscapedOnTerminal(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy, "notes.txt": "one\n\x1b[2Jcleared\u009b\x07\ntwo\n"})
	reply := r.reply("r.md", "Fix"+hostile+" the greeting.\n\n"+
		block("notes.txt", "cleared\x1b[31m\n", "x\n")+
		"\n```bash\nrm -rf "+hostile+" /\n```\n\n"+
		"src/\u009bapp.py\n```python\n<<<<<<< SEARCH\nimport os\n=======\nimport sys\n>>>>>>> REPLACE\n```\n")
	missing := filepath.Join(t.TempDir(), "gone"+hostile+".md")
	before := r.snapshot()
	for _, tc := range []struct {
		args []string
		want []string // in the report
	}{
		{[]string{"check", "-v", reply}, []string{
			"Fix" + hostileShown + " the greeting. [",
			`! \x1b[2Jcleared\u009b\x07`,
			"$ rm -rf " + hostileShown + " /",
			`"src/\u009bapp.py" is not taken as a file name`,
		}},
		{[]string{"apply", "-b", "x", reply}, []string{"Fix" + hostileShown + " the greeting. ["}},
		{[]string{"translate", reply}, []string{`! \x1b[2Jcleared\u009b\x07`}},
		{[]string{"check", missing}, []string{"gone" + hostileShown + ".md"}},
		{[]string{"check", "--json", reply}, []string{"Fix" + hostileShown + " the greeting. ["}},
	} {
		res := r.run(tc.args...)
		if res.code == 0 {
			t.Errorf("%v: exit 0", tc.args)
		}
		if rawControl(res.stderr) {
			t.Errorf("%v: raw control characters reach the terminal:\n%q", tc.args, res.stderr)
		}
		for _, w := range tc.want {
			if !strings.Contains(res.stderr, w) {
				t.Errorf("%v: the report lacks %s:\n%s", tc.args, w, res.stderr)
			}
		}
		if tc.args[1] == "--json" {
			if rawControl(res.stdout) || !strings.Contains(res.stdout, `"description": "Fix\u001b[2J\u0007\r\u009b\ufffd the greeting."`) {
				t.Errorf("JSON report:\n%q", res.stdout)
			}
		}
	}
	r.assertUntouched(before)
}

// The diff translate prints is the diff: its content lines are the
// file's bytes, control characters included, as git diff prints them.
func TestTranslateDiffIsNotEscaped(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"notes.txt": "one\n\x1b[2Jcleared\n"})
	reply := r.reply("r.md", "Tidy.\n\n"+block("notes.txt", "one\n", "one\x07\n"))
	res := r.run("translate", reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if !strings.Contains(res.stdout, "\n-one\n+one\x07\n \x1b[2Jcleared\n") {
		t.Errorf("diff:\n%q", res.stdout)
	}
	cmd := exec.Command("git", "apply", "--cached", "--check")
	cmd.Dir, cmd.Stdin = r.dir, strings.NewReader(res.stdout)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("git apply --check: %v\n%s", err, out)
	}
}
