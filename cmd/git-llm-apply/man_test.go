package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// inProcess runs a command line in-process and returns its stdout.
func inProcess(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(context.Background(), append([]string{"git-llm-apply"}, args...), "", strings.NewReader(""), &out, &errb); code != 0 {
		t.Fatalf("%v: exit %d\n%s", args, code, errb.String())
	}
	return out.String()
}

// helpSections reads a -h page: the names listed under COMMANDS and the
// flag names under OPTIONS (GLOBAL OPTIONS apart).
func helpSections(page string) (commands, flags, global []string) {
	var section string
	for _, l := range strings.Split(page, "\n") {
		if l != "" && !strings.HasPrefix(l, " ") {
			section = strings.TrimSuffix(l, ":")
			continue
		}
		first, _, _ := strings.Cut(strings.TrimSpace(l), "  ")
		if first == "" {
			continue
		}
		for _, item := range strings.Split(first, ", ") {
			name, _, _ := strings.Cut(item, " ")
			switch section {
			case "COMMANDS":
				commands = append(commands, name)
			case "OPTIONS":
				flags = append(flags, name)
			case "GLOBAL OPTIONS":
				global = append(global, name)
			}
		}
	}
	return commands, flags, global
}

// manSections reads the generated page back: the commands of COMMANDS
// (their paths, "hook install"), and the flags of each OPTIONS
// subsection keyed by the commands its title names.
func manSections(page string) (commands []string, flags map[string][]string) {
	flags = map[string][]string{}
	bold := regexp.MustCompile(`\\fB(.*?)\\fR`)
	unescape := strings.NewReplacer(`\-`, "-", `\e`, `\`, `\&`, "")
	var section, sub string
	lines := strings.Split(page, "\n")
	for i, l := range lines {
		switch {
		case strings.HasPrefix(l, ".SH "):
			section, sub = strings.Trim(l[4:], `"`), ""
		case strings.HasPrefix(l, ".SS "):
			sub = unescape.Replace(l[4:])
		case l == ".TP" && i+1 < len(lines):
			tag := lines[i+1]
			for _, m := range bold.FindAllStringSubmatch(tag, -1) {
				name := unescape.Replace(m[1])
				switch section {
				case "COMMANDS":
					commands = append(commands, name)
				case "OPTIONS":
					flags[sub] = append(flags[sub], name)
				}
			}
		}
	}
	return commands, flags
}

// The page lists every command and flag -h lists, and nothing more:
// for each command, the flags of the OPTIONS subsections naming it are
// the flags its -h shows.
func TestManMatchesHelp(t *testing.T) {
	t.Parallel()
	page := inProcess(t, "man")
	manCommands, manFlags := manSections(page)

	rootCommands, _, rootGlobal := helpSections(inProcess(t, "--help"))
	// The root's -h lists its own flags as GLOBAL OPTIONS.
	if got, want := sorted(manFlags["Global options"]), sorted(rootGlobal); !slices.Equal(got, want) {
		t.Errorf("global options: man has %v, -h has %v", got, want)
	}

	var helpCommands []string
	var visit func(path []string, names []string)
	visit = func(path []string, listed []string) {
		for i := 0; i < len(listed); i++ {
			name := listed[i]
			if name == "help" || name == "h" {
				// urfave/cli's help command, listed as "help, h"
				helpCommands = append(helpCommands, strings.Join(append(slices.Clone(path), name), " "))
				continue
			}
			full := append(slices.Clone(path), name)
			helpCommands = append(helpCommands, strings.Join(full, " "))
			subs, flags, _ := helpSections(inProcess(t, append(slices.Clone(full), "--help")...))
			var own []string
			for _, f := range flags {
				if f != "--help" && f != "-h" {
					own = append(own, f)
				}
			}
			var documented []string
			for title, fl := range manFlags {
				if strings.HasPrefix(title, "Options of ") && slices.Contains(splitList(strings.TrimPrefix(title, "Options of ")), strings.Join(full, " ")) {
					documented = append(documented, fl...)
				}
			}
			if got, want := sorted(documented), sorted(own); !slices.Equal(got, want) {
				t.Errorf("%s: man documents flags %v, -h shows %v", strings.Join(full, " "), got, want)
			}
			visit(full, subs)
		}
	}
	visit(nil, rootCommands)
	if got, want := sorted(manCommands), sorted(helpCommands); !slices.Equal(got, want) {
		t.Errorf("commands: man has %v, -h has %v", got, want)
	}
	for _, s := range []string{"NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "OPTIONS", "FORMATS", `"EXIT STATUS"`, "EXAMPLES", "FILES", `"SEE ALSO"`} {
		if !strings.Contains(page, "\n.SH "+s+"\n") {
			t.Errorf("no section %s", s)
		}
	}
	formats := inProcess(t, "formats")
	for _, l := range strings.Split(formats, "\n")[1:] {
		if name, _, _ := strings.Cut(l, " "); name != "" && !strings.Contains(page, ".TP\n\\fB"+roffEscape(name)+"\\fR\n") {
			t.Errorf("FORMATS lacks %s", name)
		}
	}
}

func splitList(s string) []string {
	s = strings.ReplaceAll(s, " and ", ", ")
	return strings.Split(s, ", ")
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return slices.Compact(s)
}

func TestManRendersWithoutWarnings(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("groff"); err != nil {
		t.Skip("groff is not installed")
	}
	cmd := exec.Command("groff", "-man", "-ww", "-z")
	cmd.Stdin = strings.NewReader(inProcess(t, "man"))
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) > 0 {
		t.Errorf("groff -man -ww -z: %v\n%s", err, out)
	}
}

func TestRoffEscape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"--format", `\-\-format`},
		{`a\b`, `a\eb`},
		{".gitattributes marks", `\&.gitattributes marks`},
		{"'quoted' start", `\&'quoted' start`},
		{"x\n.y", "x\n\\&.y"},
	} {
		if got := roffEscape(tc.in); got != tc.want {
			t.Errorf("roffEscape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// git llm-apply --help is git help llm-apply, which runs man on the
// installed page; git-llm-apply --help itself still prints the usage.
func TestHelpOpensManPage(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("man"); err != nil {
		t.Skip("man is not installed")
	}
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	manDir := filepath.Join(t.TempDir(), "man")
	os.MkdirAll(filepath.Join(manDir, "man1"), 0o755)
	page := r.run("man")
	if page.code != 0 {
		t.Fatalf("man: exit %d\n%s", page.code, page.stderr)
	}
	os.WriteFile(filepath.Join(manDir, "man1", "git-llm-apply.1"), []byte(page.stdout), 0o644)

	cmd := exec.Command("git", "llm-apply", "--help")
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary())+string(os.PathListSeparator)+os.Getenv("PATH"),
		"MANPATH="+manDir, "MANPAGER=cat", "PAGER=cat", "MANWIDTH=100", "GIT_PAGER=cat", "MAN_KEEP_FORMATTING=")
	res := r.collect(cmd)
	if res.code != 0 {
		t.Fatalf("git llm-apply --help: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, want := range []string{"GIT-LLM-APPLY(1)", "SYNOPSIS", "git llm-apply [-C DIR] apply [options] [REPLY ...]",
		"-b, --branch NAME", "EXIT STATUS", "udiffx"} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("git llm-apply --help lacks %q:\n%s", want, res.stdout)
		}
	}

	direct := r.run("--help")
	if direct.code != 0 || !strings.Contains(direct.stdout, "USAGE:") || strings.Contains(direct.stdout, "SYNOPSIS") {
		t.Errorf("git-llm-apply --help: exit %d\n%s", direct.code, direct.stdout)
	}
}
