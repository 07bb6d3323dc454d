package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Escape sequences as git writes them with its default colours.
const (
	red, green, boldRed, boldYellow, bold, cyan, reset = "\x1b[31m", "\x1b[32m", "\x1b[1;31m", "\x1b[1;33m", "\x1b[1m", "\x1b[36m", "\x1b[m"
)

// colorEnv is the environment of a colour test: the test's, without
// what would decide colour or progress behind its back, and extra.
func colorEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "NO_COLOR", "TERM", "GIT_PROGRESS_DELAY", "GIT_CONFIG_PARAMETERS", "GIT_PAGER_IN_USE", progressEnv:
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

// runEnv runs the binary in r on pipes with colorEnv(env...).
func (r *repo) runEnv(env []string, args ...string) result {
	r.t.Helper()
	cmd := exec.Command(binary(), args...)
	cmd.Dir, cmd.Env = r.dir, colorEnv(env...)
	return r.collect(cmd)
}

// stripSGR removes our colour sequences, leaving the uncoloured text.
func stripSGR(s string) string {
	for _, code := range []string{red, green, boldRed, boldYellow, bold, cyan, reset} {
		s = strings.ReplaceAll(s, code, "")
	}
	return s
}

// colorRepo makes a repository and two replies whose report holds every
// coloured piece: a deleted, a renamed, a created and a modified file, a
// reply warning and an edit warning, and a failed edit; the reply text
// holds escape sequences of its own.
func colorRepo(t *testing.T) (*repo, []string) {
	r := newRepo(t, map[string]string{"src/app.py": appPy, "old.txt": "old\n", "gone.txt": "x\n", "notes.txt": "one\ntwo\nfour\n"})
	one := r.reply("one.md", "Tidy \x1b[2J up.\n\n"+block("app.py", "    return \"hello \" + name\n", "    return \"hi \" + name\n")+"\n"+
		block("new.txt", "", "hello\x1b[31m\n")+"\n```bash\ngit rm gone.txt\ngit mv old.txt moved.txt\nrm *.log\n```\n")
	two := r.reply("two.md", "Break it.\n\n"+block("notes.txt", "one\nthree\x1b[2J\nfour\n", "3\n"))
	return r, []string{"check", "--shell-ops", one, two}
}

// The report, uncoloured: byte for byte what it is without colour.
const uncoloredReport = `ONE (diff): Tidy \x1b[2J up. [ok, 4 edits]
  D gone.txt
  R old.txt -> moved.txt (+0 -0)
  A new.txt
  M src/app.py (+1 -1)
  warning: reply line 23: the command "rm *.log" uses shell features (globs, variables, substitutions) and is not turned into an operation
  shell block at reply line 20 (suggested, not run):
    $ git rm gone.txt
    $ git mv old.txt moved.txt
    $ rm *.log
  warning: edit 1 (src/app.py): took src/app.py for app.py, the one file whose path ends in it
TWO (diff): Break it. [1 of 1 edit failed; nothing recorded]
error: edit 1 (replace notes.txt, reply line 5) failed: the SEARCH text does not match any lines of notes.txt.
  The closest lines are 1-3 of notes.txt (similarity 0.67). The line marked "!" differs from the SEARCH section; the lines marked "|" match it:
    | one
    ! two
    | four
  Send this edit again with the SEARCH section copied exactly from those lines.
`

func TestColorAlwaysOnAPipe(t *testing.T) {
	t.Parallel()
	r, args := colorRepo(t)
	plain := strings.NewReplacer(args[2], "ONE", args[3], "TWO")
	res := r.runEnv(nil, append([]string{args[0], "--color=always"}, args[1:]...)...)
	if res.code != 1 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	for _, want := range []string{
		"\n  " + red + "D" + reset + " gone.txt\n",
		"\n  R old.txt -> moved.txt (+0 -0)\n", // nothing added or removed: plain, as git's diffstat shows no sign
		"\n  " + green + "A" + reset + " new.txt\n",
		"\n  M src/app.py (" + green + "+1" + reset + " " + red + "-1" + reset + ")\n",
		"\n  " + boldYellow + "warning:" + reset + " reply line 23: ",
		"\n  " + boldYellow + "warning:" + reset + " edit 1 (src/app.py): ",
		"\n" + boldRed + "error:" + reset + " edit 1 (replace notes.txt, ",
		"\n" + red + "    ! two" + reset + "\n", // the quoted line that differs from the edit's
	} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("the report lacks %q:\n%q", want, res.stderr)
		}
	}
	// The reply's own escape sequences stay escaped with colour on:
	// without ours, no ESC is left.
	if s := stripSGR(res.stderr); strings.Contains(s, "\x1b") || plain.Replace(s) != uncoloredReport {
		t.Errorf("without its colours the report reads:\n%s\nwant:\n%s", plain.Replace(s), uncoloredReport)
	}
	// Off, the report is what it was before colour.
	for _, off := range [][]string{nil, {"--color=never"}, {"--no-color"}, {"--color=auto"}, {"--color", "--no-color"}} {
		res := r.runEnv(nil, append(append([]string{args[0]}, off...), args[1:]...)...)
		if got := plain.Replace(res.stderr); got != uncoloredReport {
			t.Errorf("%q: the report reads:\n%s", off, got)
		}
	}
	if res := r.runEnv(nil, append([]string{args[0], "--no-color", "--color"}, args[1:]...)...); !strings.Contains(res.stderr, boldRed) {
		t.Errorf("--no-color --color: the last wins, colour is on:\n%q", res.stderr)
	}
}

// The error line of a reply that cannot be read for edits.
func TestColorReplyError(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	reply := r.reply("r.md", "Nothing to do.\n")
	res := r.runEnv(nil, "check", "--color=always", reply)
	if want := reply + ": " + boldRed + "error:" + reset + " no edit"; !strings.HasPrefix(res.stderr, want) {
		t.Errorf("got %q, want it to start with %q", res.stderr, want)
	}
}

// git's configuration turns colour on or off as for git's own commands:
// color.llm-apply wins over color.ui, "always" colours a pipe, and
// NO_COLOR or the command line wins over both.
func TestColorFromConfigAndEnvironment(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		config []string // key value pairs
		env    []string
		flags  []string
		want   bool
	}{
		{"color.ui=always", []string{"color.ui", "always"}, nil, nil, true},
		{"color.llm-apply=always", []string{"color.llm-apply", "always"}, nil, nil, true},
		{"color.ui=true is auto", []string{"color.ui", "true"}, nil, nil, false},
		{"color.llm-apply wins", []string{"color.ui", "always", "color.llm-apply", "false"}, nil, nil, false},
		{"color.llm-apply wins on", []string{"color.ui", "never", "color.llm-apply", "always"}, nil, nil, true},
		{"NO_COLOR over config", []string{"color.ui", "always"}, []string{"NO_COLOR=1"}, nil, false},
		{"empty NO_COLOR counts for nothing", []string{"color.ui", "always"}, []string{"NO_COLOR="}, nil, true},
		{"--color=always over NO_COLOR", nil, []string{"NO_COLOR=1"}, []string{"--color=always"}, true},
		{"--color=auto over config", []string{"color.ui", "always"}, nil, []string{"--color=auto"}, false},
		{"--no-color over config", []string{"color.ui", "always"}, nil, []string{"--no-color"}, false},
		{"git -c", nil, []string{"GIT_CONFIG_PARAMETERS='color.ui'='always'"}, nil, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"a.txt": "a\n"})
			for i := 0; i < len(tc.config); i += 2 {
				r.git("config", tc.config[i], tc.config[i+1])
			}
			reply := r.reply("r.md", "Change.\n\n"+block("a.txt", "b\n", "c\n"))
			res := r.runEnv(tc.env, append(append([]string{"check"}, tc.flags...), reply)...)
			if got := strings.Contains(res.stderr, boldRed+"error:"+reset); got != tc.want || res.code != 1 {
				t.Errorf("exit %d, coloured %v, want %v:\n%q", res.code, got, tc.want, res.stderr)
			}
		})
	}
}

// A value of color.ui that is no boolean is an error, as in git.
func TestColorBadConfig(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	r.git("config", "color.ui", "sometimes")
	reply := r.reply("r.md", "Change.\n\n"+block("a.txt", "a\n", "c\n"))
	res := r.runEnv(nil, "check", reply)
	if res.code != 2 || !strings.Contains(res.stderr, "bad boolean config value 'sometimes' for 'color.ui'") {
		t.Errorf("exit %d:\n%s", res.code, res.stderr)
	}
	if res := r.runEnv(nil, "check", "--no-color", reply); res.code != 0 {
		t.Errorf("with --no-color the config is not read: exit %d:\n%s", res.code, res.stderr)
	}
}

// git -c color.ui=always llm-apply: git passes the setting on.
func TestColorThroughGit(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	reply := r.reply("r.md", "Change.\n\n"+block("a.txt", "b\n", "c\n"))
	cmd := exec.Command("git", "-c", "color.ui=always", "llm-apply", "check", reply)
	cmd.Dir = r.dir
	cmd.Env = colorEnv("PATH=" + filepath.Dir(binary()) + string(os.PathListSeparator) + os.Getenv("PATH"))
	res := r.collect(cmd)
	if !strings.Contains(res.stderr, boldRed+"error:"+reset) {
		t.Errorf("exit %d, not coloured:\n%q", res.code, res.stderr)
	}
}

// translate's diff on a pipe with --color=always: git diff's colours
// (its bytes: TestColorTranslateDiffIsGitDiff),
// the reply's control characters escaped; without colour, the diff as
// it is, for git apply.
func TestColorTranslateDiff(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "-- x\nkeep\n"})
	reply := r.reply("r.md", "Change.\n\n"+block("a.txt", "two\n", "TWO\x1b[2J\n")+"\n"+block("b.txt", "-- x\n", "++ y\n"))
	res := r.runEnv(nil, "translate", "--color=always", reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	want := bold + "diff --git a/a.txt b/a.txt" + reset + "\n" +
		bold + "index 4cb29ea..ae290fe 100644" + reset + "\n" +
		bold + "--- a/a.txt" + reset + "\n" +
		bold + "+++ b/a.txt" + reset + "\n" +
		cyan + "@@ -1,3 +1,3 @@" + reset + "\n" +
		" one" + reset + "\n" +
		red + "-two" + reset + "\n" +
		green + "+" + reset + green + `TWO\x1b[2J` + reset + "\n" +
		" three" + reset + "\n" +
		bold + "diff --git a/b.txt b/b.txt" + reset + "\n"
	if !strings.HasPrefix(res.stdout, want) {
		t.Errorf("diff:\n%q\nwant it to start with:\n%q", res.stdout, want)
	}
	// A removed "-- x" and an added "++ y" are lines, not file headers.
	if !strings.Contains(res.stdout, "\n"+red+"--- x"+reset+"\n"+green+"+"+reset+green+"++ y"+reset+"\n keep"+reset+"\n") {
		t.Errorf("b.txt's hunk:\n%q", res.stdout)
	}
	plain := r.runEnv(nil, "translate", reply)
	if !strings.Contains(plain.stdout, "+TWO\x1b[2J\n") || strings.Contains(plain.stdout, reset) {
		t.Errorf("on a pipe without colour the diff is as it is:\n%q", plain.stdout)
	}
}

func TestDiffLines(t *testing.T) {
	t.Parallel()
	patch := "diff --git a/f b/f\nindex 1..2 100644\n--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@ func main() {\n--- old\n+++ new\n ctx\n\\ No newline at end of file\n" +
		"diff --git a/g b/g\nnew file mode 100644\nindex 0..3\nGIT binary patch\nliteral 3\nKcmZ>A\n\nliteral 0\nHcmV?d00001\n\n" +
		"diff --git a/h b/h\n@@ -1 +1 @@\n-a\n+b\n"
	want := []slot{slotMeta, slotMeta, slotMeta, slotMeta, slotFrag, slotOld, slotNew, slotPlain, slotPlain,
		slotMeta, slotMeta, slotMeta, slotMeta, slotPlain, slotPlain, slotPlain, slotPlain, slotPlain, slotPlain,
		slotMeta, slotFrag, slotOld, slotNew}
	got := diffLines([]byte(patch))
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d: %v", len(got), len(want), got)
	}
	for i, l := range got {
		if l.slot != want[i] {
			t.Errorf("line %d %q: slot %d, want %d", i+1, l.text, l.slot, want[i])
		}
	}
	var b strings.Builder
	if err := writeDiff(&b, []byte("@@ -1 +1 @@ func f() {\n"), true); err != nil || b.String() != cyan+"@@ -1 +1 @@"+reset+" "+reset+"func f() {"+reset+"\n" {
		t.Errorf("hunk header: %q, %v", b.String(), err)
	}
}

// translate --color=always writes the bytes git diff --color=always
// writes for the same change, where git's default colours and
// whitespace rules apply: context lines and the hunk header's function
// name each followed by a reset, an added line's "+" apart from its
// text, white space at the end of an added line and spaces before a tab
// on a red background, the indentation's tabs plain, blank lines added
// at the end of a file red-backed whole. Before, the colours were
// git's but not its bytes, and white space errors were not shown.
func TestColorTranslateDiffIsGitDiff(t *testing.T) {
	t.Parallel()
	app := "def f():\n    a = 1\n    b = 2\n    c = 3\n    d = 4\n    e = 5\n    g = 6\n\n\ndef h():\n    return 1\n"
	r := newRepo(t, map[string]string{"app.py": app, "end.txt": "one\ntwo", "blank.txt": "x\n\n", "gone.txt": "bye\n",
		"more.txt": "a\n\n", "far.txt": "1\n2\n3\n4\n5\n\n"})
	reply := r.reply("r.md", "Change.\n\n"+
		block("app.py", "    e = 5\n    g = 6\n", "    e = 50  \n\n   \n \tx = 1\n  \t\ty\n\tz\t\n    g = 6\n")+"\n"+
		block("app.py", "    return 1\n", "    return 2\n\n\n")+"\n"+
		block("end.txt", "one\n", "1\n")+"\n"+
		block("blank.txt", "x\n", "y\n\t\n")+"\n"+
		block("new.txt", "", "hello \n")+"\n"+
		block("new2.txt", "", "x\n\n \n")+"\n"+
		block("more.txt", "a\n", "a\n\n")+"\n"+
		block("far.txt", "1\n", "1\n\n")+"\n"+
		"```bash\ngit rm gone.txt\n```\n")
	res := r.runEnv(nil, "translate", "--shell-ops", "--color=always", reply)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	plain := r.runEnv(nil, "translate", "--shell-ops", reply)
	cmd := exec.Command("git", "apply", "--cached")
	cmd.Dir, cmd.Stdin = r.dir, strings.NewReader(plain.stdout)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git apply --cached: %v\n%s", err, out)
	}
	want := r.git("-c", "diff.renames=false", "diff", "--cached", "--color=always")
	if res.stdout != want {
		got, exp := strings.Split(res.stdout, "\n"), strings.Split(want, "\n")
		for i := 0; i < len(got) || i < len(exp); i++ {
			var g, e string
			if i < len(got) {
				g = got[i]
			}
			if i < len(exp) {
				e = exp[i]
			}
			if g != e {
				t.Errorf("line %d:\n got %q\nwant %q\n%s", i+1, g, e, plain.stdout)
			}
		}
	}
}

// In the pager git starts for it (git -p llm-apply, pager.llm-apply),
// which git announces with GIT_PAGER_IN_USE, translate's diff on
// standard output is coloured as git diff's is there; the report on
// standard error, not a terminal, is not. Before, the pager showed the
// diff plain.
func TestColorInGitsPager(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	reply := r.reply("r.md", "Change.\n\n"+block("a.txt", "a\n", "b\n"))
	bad := r.reply("bad.md", "Break.\n\n"+block("a.txt", "x\n", "y\n"))
	for _, tc := range []struct {
		env  []string
		want bool
	}{
		{[]string{"TERM=xterm", "GIT_PAGER_IN_USE=true"}, true},
		{[]string{"TERM=xterm", "GIT_PAGER_IN_USE=1"}, true},
		{[]string{"TERM=xterm", "GIT_PAGER_IN_USE=false"}, false},
		{[]string{"TERM=dumb", "GIT_PAGER_IN_USE=true"}, false},
		{[]string{"TERM=xterm", "GIT_PAGER_IN_USE=true", "NO_COLOR=1"}, false},
	} {
		res := r.runEnv(tc.env, "translate", reply, bad)
		if got := strings.Contains(res.stdout, red+"-a"+reset); got != tc.want {
			t.Errorf("%v: coloured %v, want %v:\n%q", tc.env, got, tc.want, res.stdout)
		}
		if strings.Contains(res.stderr, "\x1b[") {
			t.Errorf("%v: the report on a pipe is coloured:\n%q", tc.env, res.stderr)
		}
	}
}
