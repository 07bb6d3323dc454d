package main

import (
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// gitSays runs the real git in r for the same mistake, in the C locale.
func (r *repo) gitSays(args ...string) result {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	cmd.Env = append(cmd.Environ(), "LC_ALL=C", "LANGUAGE=")
	return r.collect(cmd)
}

// A mistake in the options reads as git's parse-options says the same
// mistake, checked against git's own output: the first line with the
// option's name put in, and the short usage after it exactly when git
// gives one. Our status stays 2, bad usage (SPEC section 2), where git
// exits 129.
func TestOptionErrorsAsGits(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	for _, tc := range []struct {
		ours, gits []string
		want       string // our first line
		usage      bool
	}{
		{[]string{"apply", "--frmat"}, []string{"commit", "--frmat"}, "error: unknown option `frmat'", true},
		{[]string{"check", "--no-frmat"}, []string{"commit", "--no-frmat"}, "error: unknown option `no-frmat'", true},
		{[]string{"apply", "-Z"}, []string{"commit", "-Z"}, "error: unknown switch `Z'", true},
		{[]string{"apply", "-qZ"}, []string{"commit", "-qZ"}, "error: unknown switch `Z'", true},
		{[]string{"check", "-vZq"}, []string{"commit", "-vZq"}, "error: unknown switch `Z'", true},
		{[]string{"check", "--max-edits=x"}, []string{"grep", "--max-depth=x", "a"}, "error: option `max-edits' expects a numerical value", false},
		{[]string{"check", "--max-edits", "5x"}, []string{"grep", "--max-depth", "5x", "a"}, "error: option `max-edits' expects a numerical value", false},
		{[]string{"check", "--max-edits"}, []string{"grep", "--max-depth"}, "error: option `max-edits' requires a value", false},
		{[]string{"apply", "--format"}, []string{"commit", "--cleanup"}, "error: option `format' requires a value", false},
		{[]string{"apply", "-m"}, []string{"commit", "-m"}, "error: switch `m' requires a value", false},
		{[]string{"apply", "-qb"}, []string{"commit", "-qm"}, "error: switch `b' requires a value", false},
		{[]string{"check", "--no-color=x"}, []string{"commit", "--quiet=x"}, "error: option `no-color' takes no value", false},
	} {
		name := strings.Join(tc.ours, " ")
		res, git := r.run(tc.ours...), r.gitSays(tc.gits...)
		ours, gits := strings.Split(res.stderr, "\n"), strings.Split(git.stderr, "\n")
		if res.code != exitUsage || git.code != 129 {
			t.Errorf("%s: exit %d (git %d)", name, res.code, git.code)
		}
		if ours[0] != tc.want {
			t.Errorf("%s: says %q, want %q", name, ours[0], tc.want)
		}
		// git's line, its option's name ours.
		gitOpt := regexp.MustCompile("`[^']*'").FindString(gits[0])
		ourOpt := regexp.MustCompile("`[^']*'").FindString(ours[0])
		if got := strings.Replace(gits[0], gitOpt, ourOpt, 1); got != ours[0] {
			t.Errorf("%s: says %q, git says %q", name, ours[0], gits[0])
		}
		ourUsage := len(ours) > 1 && strings.HasPrefix(ours[1], "usage: git llm-apply "+tc.ours[0]+" [<options>]")
		gitUsage := len(gits) > 1 && strings.HasPrefix(gits[1], "usage: git "+tc.gits[0])
		if ourUsage != tc.usage || gitUsage != tc.usage {
			t.Errorf("%s: usage follows: ours %v, git's %v, want %v\n%s", name, ourUsage, gitUsage, tc.usage, res.stderr)
		}
		if res.stdout != "" {
			t.Errorf("%s: stdout %q", name, res.stdout)
		}
	}
}

// An unknown command reads as git's own unknown command, the most
// similar ones after it; the text is git's with "git" our name.
func TestUnknownCommandAsGits(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	for _, tc := range []struct{ ours, gits string }{
		{"aply", "aply"},
		{"xyzzy", "xyzzy"}, // no command near: the first line alone
	} {
		res, git := r.run(tc.ours), r.gitSays(tc.gits)
		if res.code != exitUsage || git.code != 1 {
			t.Errorf("%s: exit %d (git %d)", tc.ours, res.code, git.code)
		}
		want := strings.ReplaceAll(git.stderr, "git", "git llm-apply")
		if res.stderr != want {
			t.Errorf("%s: says\n%s\ngit says\n%s", tc.ours, res.stderr, git.stderr)
		}
	}
	res := r.run("hook", "instal")
	if want := "git llm-apply hook: 'instal' is not a git llm-apply hook command. See 'git llm-apply hook --help'.\n\nThe most similar command is\n\tinstall\n"; res.stderr != want || res.code != exitUsage {
		t.Errorf("hook instal: exit %d\n%s", res.code, res.stderr)
	}
}

// git's help.c scores and picks, on our commands.
func TestSimilarCommands(t *testing.T) {
	t.Parallel()
	ours := []string{"apply", "replay", "translate", "check", "hook", "formats", "prompt", "mcp", "version", "man", "completion"}
	for _, tc := range []struct {
		name string
		want []string
	}{
		{"aply", []string{"apply"}},
		{"appyl", []string{"apply"}}, // a swap costs nothing
		{"chek", []string{"check"}},
		{"chekc", []string{"check"}},
		{"fromats", []string{"formats"}},
		{"a", []string{"apply", "man"}}, // a prefix, then the best other, as git lists them
		{"ma", []string{"man", "mcp"}},
		{"zzzzzz", nil},
		{"translation", nil}, // three deletions and one: 10, past the floor
		{"", nil},            // a prefix of everything is too ambiguous
	} {
		if got := similarCommands(tc.name, ours); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.name, got, tc.want)
		}
	}
	if got := similarCommands("instal", []string{"install", "run"}); !slices.Equal(got, []string{"install"}) {
		t.Errorf("instal: %v", got)
	}
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"aply", "apply", 1}, {"apply", "aply", 3}, {"ab", "ba", 0}, {"abc", "axc", 2}, {"", "abc", 3}, {"abc", "", 9},
	} {
		if got := levenshtein(tc.a, tc.b, 0, 2, 1, 3); got != tc.want {
			t.Errorf("levenshtein(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// -h prints git's short usage on standard output and exits 129, as
// git's parse-options does; --help keeps the long help.
func TestShortHelp(t *testing.T) {
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	// (git commit -h writes to standard error, a special case of
	// commit.c's; parse-options' own -h writes to standard output.)
	git := r.gitSays("add", "-h")
	if git.code != 129 || !strings.HasPrefix(git.stdout, "usage: git add ") {
		t.Fatalf("git add -h: exit %d\n%s", git.code, git.stdout)
	}
	// git's option lines: the help at column 26, or on the next line.
	optionLine := regexp.MustCompile(`^    (-\S, )?(--|-)[^ ]+( <[^>]+>|\[=<[^>]+>\])?( {2,}|$)`)
	column := func(page string) (lines int, bad []string) {
		for _, l := range strings.Split(page, "\n") {
			m := optionLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			lines++
			if m[4] != "" && len(m[0]) != 26 {
				bad = append(bad, l)
			}
		}
		return lines, bad
	}
	if n, bad := column(git.stdout); n < 8 || bad != nil {
		t.Fatalf("git's options: %d lines, off column: %q", n, bad)
	}
	for _, tc := range []struct {
		args  []string
		usage string
		lines []string
	}{
		{[]string{"apply", "-h"}, "usage: git llm-apply apply [<options>] [<reply>...]\n\n",
			[]string{"    -q, --quiet           print only errors\n", "    -m, --message <msg>   use <msg> as the commit message of every reply\n",
				"    --color[=<when>]      colour", "    -o, --patch-dir <dir>\n                          also write"}},
		{[]string{"check", "-qh", "r.md"}, "usage: git llm-apply check [<options>] [<reply>...]\n\n", []string{"    --max-edits <n>       refuse"}},
		{[]string{"replay", "--partial", "-h"}, "usage: git llm-apply replay [<options>] <session>...\n\n", nil},
		{[]string{"prompt", "-h"}, "usage: git llm-apply prompt <format>\n", nil},
		{[]string{"hook", "install", "-h"}, "usage: git llm-apply hook install [<options>]\n\n", []string{"    -f, --force           replace"}},
		{[]string{"hook", "-h"}, "usage: git llm-apply hook <command>\n\nThese are the git llm-apply hook commands:\n   install   ", nil},
		{[]string{"-h"}, "usage: git llm-apply [-C <dir>] <command> [<options>] [<reply>...]\n\n    -C <dir>              run as if",
			[]string{"\n   apply        record each reply"}},
	} {
		name := strings.Join(tc.args, " ")
		res := r.run(tc.args...)
		if res.code != 129 || res.stderr != "" || !strings.HasPrefix(res.stdout, tc.usage) {
			t.Errorf("%s: exit %d, stderr %q\n%s", name, res.code, res.stderr, res.stdout)
		}
		for _, l := range tc.lines {
			if !strings.Contains(res.stdout, l) {
				t.Errorf("%s: no %q in\n%s", name, l, res.stdout)
			}
		}
		if n, bad := column(res.stdout); bad != nil || (n == 0) != (tc.args[0] == "hook" && len(tc.args) == 2 || tc.args[0] == "prompt") {
			t.Errorf("%s: %d option lines, off column: %q", name, n, bad)
		}
	}
	for _, args := range [][]string{{"--help"}, {"apply", "--help"}} {
		if res := r.run(args...); res.code != 0 || !strings.HasPrefix(res.stdout, "NAME:\n") {
			t.Errorf("%v: exit %d\n%s", args, res.code, res.stdout)
		}
	}
}

// What ends a run is "fatal: ", as git says it; a failure the report
// has named is said once: an empty reply on standard input, a reply
// with no edit, malformed or over a limit.
func TestOneMessageEach(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"apply"}, "-: error: no edit found in the reply: the reply is empty\n"},
		{"", []string{"check", "-q"}, "-: error: no edit found in the reply: the reply is empty\n"},
		{"just prose\n", []string{"check"}, "-: error: no edit found in the reply: no edit block of any supported format"},
		{"", []string{"check", "missing.md"}, "fatal: cannot read reply missing.md: "},
		{"", []string{"check", "--format=bogus"}, "fatal: unknown format \"bogus\""},
		{"", []string{"apply", "--onto", "nope"}, "fatal: "},
	} {
		name := strings.Join(tc.args, " ")
		res := r.runIn(r.dir, tc.stdin, tc.args...)
		if res.code != exitUsage || !strings.HasPrefix(res.stderr, tc.want) || strings.Count(res.stderr, "\n") != 1 {
			t.Errorf("%s: exit %d\n%s", name, res.code, res.stderr)
		}
	}
	res := r.runIn(t.TempDir(), "", "check")
	if res.code != exitUsage || !strings.HasPrefix(res.stderr, "fatal: ") {
		t.Errorf("outside a repository: exit %d\n%s", res.code, res.stderr)
	}
}

// urfave/cli's own flag errors, for what checkOptions leaves to it,
// read as git's too.
func TestGitFlagMessage(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`invalid value "x" for flag -max-edits: strconv.ParseInt: parsing "x": invalid syntax`:     "option `max-edits' expects a numerical value",
		`invalid value "bogus" for flag -color: expects "always", "auto", or "never", not "bogus"`: "option `color' expects \"always\", \"auto\", or \"never\", not \"bogus\"",
		`invalid value "x" for flag -no-color: takes no value`:                                     "option `no-color' takes no value",
		"flag needs an argument: -b":            "switch `b' requires a value",
		"flag needs an argument: --format":      "option `format' requires a value",
		"flag provided but not defined: -frmat": "unknown option `frmat'",
		"something else":                        "something else",
	} {
		if got := gitFlagMessage(in); got != want {
			t.Errorf("%s: %q, want %q", in, got, want)
		}
	}
}
