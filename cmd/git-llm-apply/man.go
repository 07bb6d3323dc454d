package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

func manCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "man",
		Usage: "print the manual page (roff), for man to find as git-llm-apply(1)",
		Description: `Prints the manual page git help llm-apply opens, made from the same command
and flag definitions as -h. Install it where man looks: man looks in
DIR/../share/man for each DIR/bin on PATH, so for a binary in ~/go/bin

    git llm-apply man > ~/go/share/man/man1/git-llm-apply.1

(manpath lists where man looks; README, Install, says what to do when
that directory is not among them).`,
		OnUsageError: usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usageError("man takes no arguments")
			}
			return writeMan(s.out, cmd.Root())
		},
	}
}

// manExamples, manFiles and manSeeAlso are the parts of the page no
// command definition holds.
var manExamples = [][2]string{
	{"git llm-apply apply reply.md", "Record the reply as one commit on a new branch llm/<slug>; the checkout is untouched."},
	{"git llm-apply apply -b fix-parser r1.md r2.md", "Two replies, two commits, on branch fix-parser (appended to when it exists)."},
	{"git llm-apply check reply.md", "Exit 0 when every edit resolves, 1 when one does not; nothing is written."},
	{"git llm-apply translate reply.md | git apply --check --cached", "The canonical diff of the reply, for other tools."},
	{"git llm-apply apply -o patches/ r1.md r2.md", "Also write 0001-<slug>.patch, 0002-<slug>.patch for git am."},
	{"git llm-apply apply --json reply.md", "A machine-readable report on standard output."},
	{"git llm-apply replay ~/.claude/projects/-home-dev-proj/SESSION.jsonl", "One commit per turn of a Claude Code session that changed files, on a new branch llm/<slug>."},
	{"git llm-apply hook install", "Refuse commits holding the debris of pasted model replies."},
	{"git llm-apply prompt diff", "The instructions to give a model so that it writes the diff format."},
}

var manFiles = [][2]string{
	{"$GIT_DIR/hooks/pre-commit", "Written by hook install (in core.hooksPath when that is set)."},
	{".gitattributes", "The llm-apply-check attribute exempts paths from hook run; the text, eol, crlf, ident and filter attributes shape --base worktree."},
	{"NNNN-<slug>.patch", "One file per reply in the directory of -o, in git format-patch form."},
}

var manSeeAlso = []string{"git(1)", "git-apply(1)", "git-am(1)", "git-format-patch(1)", "git-worktree(1)", "githooks(5)", "gitattributes(5)"}

// writeMan writes the manual page of the command tree under root, in
// the man macros. Commands and flags come from their definitions, so
// that the page says what -h says.
func writeMan(w io.Writer, root *cli.Command) error {
	var b strings.Builder
	// the footer has room for the version's first word only
	version, _, _ := strings.Cut(strings.TrimPrefix(versionLine(), "git llm-apply version "), " ")
	fmt.Fprintf(&b, ".TH \"GIT\\-LLM\\-APPLY\" \"1\" \"\" \"%s\" \"Git Manual\"\n", roffEscape("git-llm-apply "+version))
	b.WriteString(".nh\n.ad l\n") // as git's pages: no hyphenation, which would split flag names
	b.WriteString(".SH NAME\n")
	fmt.Fprintf(&b, "git\\-llm\\-apply \\- %s\n", roffEscape(root.Usage))

	b.WriteString(".SH SYNOPSIS\n.nf\n")
	for _, c := range leafCommands(root) {
		fmt.Fprintf(&b, "\\fBgit llm\\-apply\\fR [\\fB\\-C\\fR \\fIDIR\\fR] \\fB%s\\fR", roffEscape(commandPath(c)))
		if len(ownFlags(c)) > 0 {
			b.WriteString(" [\\fIoptions\\fR]")
		}
		if c.ArgsUsage != "" {
			b.WriteString(" " + roffEscape(c.ArgsUsage))
		}
		b.WriteString("\n")
	}
	b.WriteString("\\fBgit llm\\-apply\\fR \\fB\\-\\-version\\fR\n.fi\n")

	description, exitStatus := splitExitStatus(root.Description)
	b.WriteString(".SH DESCRIPTION\n")
	writeParagraphs(&b, description, ".PP")
	b.WriteString(".PP\ngit llm\\-apply \\-\\-help shows this page (git turns it into git help llm\\-apply); " +
		"git llm\\-apply \\-h and git llm\\-apply COMMAND \\-h print the short usage.\n")

	b.WriteString(".SH COMMANDS\n")
	walkCommands(root, func(c *cli.Command) {
		if c == root {
			return
		}
		var names []string
		for _, n := range c.Names() {
			path := append(c.Path()[1:len(c.Path())-1], n)
			names = append(names, "\\fB"+roffEscape(strings.Join(path, " "))+"\\fR")
		}
		fmt.Fprintf(&b, ".TP\n%s", strings.Join(names, ", "))
		if c.ArgsUsage != "" {
			b.WriteString(" " + roffEscape(c.ArgsUsage))
		}
		fmt.Fprintf(&b, "\n%s\n", roffEscape(sentence(c.Usage)))
		writeParagraphs(&b, c.Description, ".IP")
	})

	b.WriteString(".SH OPTIONS\n")
	b.WriteString(".SS Global options\n")
	b.WriteString("These go before the command (\\fB\\-h\\fR, \\fB\\-\\-help\\fR after any command too).\n")
	for _, f := range root.VisibleFlags() {
		writeFlag(&b, f)
	}
	for _, g := range flagGroups(root) {
		fmt.Fprintf(&b, ".SS %s\n", roffEscape("Options of "+joinList(g.commands)))
		for _, f := range g.flags {
			writeFlag(&b, f)
		}
	}

	b.WriteString(".SH FORMATS\n")
	b.WriteString("The values of \\fB\\-\\-format\\fR besides auto, as git llm\\-apply formats lists them.\n")
	for _, f := range translate.Formats() {
		fmt.Fprintf(&b, ".TP\n\\fB%s\\fR\nRecognised by: %s.\n.br\nSpecification: %s.\n",
			roffEscape(f.Name), roffEscape(f.Markers), roffEscape(f.Seed))
	}

	b.WriteString(".SH \"EXIT STATUS\"\n")
	writeParagraphs(&b, exitStatus, ".PP")

	b.WriteString(".SH EXAMPLES\n")
	for _, e := range manExamples {
		fmt.Fprintf(&b, ".TP\n\\fB%s\\fR\n%s\n", roffEscape(e[0]), roffEscape(e[1]))
	}
	b.WriteString(".SH FILES\n")
	for _, f := range manFiles {
		fmt.Fprintf(&b, ".TP\n\\fI%s\\fR\n%s\n", roffEscape(f[0]), roffEscape(f[1]))
	}
	b.WriteString(".SH \"SEE ALSO\"\n")
	var refs []string
	for _, r := range manSeeAlso {
		name, section, _ := strings.Cut(strings.TrimSuffix(r, ")"), "(")
		refs = append(refs, fmt.Sprintf("\\fB%s\\fR(%s)", roffEscape(name), section))
	}
	b.WriteString(strings.Join(refs, ",\n") + "\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// flagGroup is a run of flags that the same commands share, so that the
// page says once what apply, translate and check have in common.
type flagGroup struct {
	commands []string
	flags    []cli.Flag
}

func flagGroups(root *cli.Command) []flagGroup {
	type use struct {
		flag     cli.Flag
		commands []string
	}
	var uses []*use
	byKey := map[string]*use{}
	walkCommands(root, func(c *cli.Command) {
		if c == root {
			return
		}
		for _, f := range ownFlags(c) {
			k := flagKey(f)
			u := byKey[k]
			if u == nil {
				u = &use{flag: f}
				byKey[k] = u
				uses = append(uses, u)
			}
			u.commands = append(u.commands, commandPath(c))
		}
	})
	var groups []flagGroup
	index := map[string]int{}
	for _, u := range uses {
		k := strings.Join(u.commands, "\x00")
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, flagGroup{commands: u.commands})
		}
		groups[i].flags = append(groups[i].flags, u.flag)
	}
	return groups
}

// flagKey tells flags apart by what the page would say of them.
func flagKey(f cli.Flag) string {
	placeholder, usage := flagUsage(f)
	return strings.Join(f.Names(), ",") + "\x00" + placeholder + "\x00" + usage + "\x00" + flagDefault(f)
}

func writeFlag(b *strings.Builder, f cli.Flag) {
	placeholder, usage := flagUsage(f)
	var names []string
	for _, n := range shortFirst(f.Names()) {
		names = append(names, "\\fB"+roffEscape(dashed(n))+"\\fR")
	}
	tag := strings.Join(names, ", ")
	if placeholder != "" {
		tag += " \\fI" + roffEscape(placeholder) + "\\fR"
	}
	text := sentence(usage)
	if d := flagDefault(f); d != "" {
		text += " Default: " + d + "."
	}
	fmt.Fprintf(b, ".TP\n%s\n%s\n", tag, roffEscape(text))
}

// flagUsage is the flag's value placeholder (the word in backquotes of
// its usage, as -h shows it) and its usage without the backquotes.
func flagUsage(f cli.Flag) (placeholder, usage string) {
	d, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return "", ""
	}
	usage = d.GetUsage()
	if before, rest, ok := strings.Cut(usage, "`"); ok {
		if name, after, ok := strings.Cut(rest, "`"); ok {
			placeholder, usage = name, before+name+after
		}
	}
	if d.TakesValue() && placeholder == "" {
		placeholder = "VALUE"
	}
	if !d.TakesValue() {
		placeholder = ""
	}
	return placeholder, usage
}

func flagDefault(f cli.Flag) string {
	d, ok := f.(cli.DocGenerationFlag)
	if !ok || !d.TakesValue() {
		return ""
	}
	if t := d.GetDefaultText(); t != "" {
		return t
	}
	v := d.GetValue()
	if u, err := strconv.Unquote(v); err == nil {
		v = u
	}
	return v
}

// ownFlags are a command's visible flags but help, which every command
// has and the global options describe once.
func ownFlags(c *cli.Command) []cli.Flag {
	var flags []cli.Flag
	for _, f := range c.Flags {
		if v, ok := f.(cli.VisibleFlag); (ok && !v.IsVisible()) || f.Names()[0] == "help" {
			continue
		}
		flags = append(flags, f)
	}
	return flags
}

// walkCommands calls fn for root and every visible command under it,
// parents before their subcommands, in definition order. The help
// command urfave/cli adds to every command is listed under the root
// only, as -h lists it.
func walkCommands(root *cli.Command, fn func(*cli.Command)) {
	fn(root)
	for _, c := range root.Commands {
		if !c.Hidden && (c.Name != "help" || len(root.Lineage()) == 1) {
			walkCommands(c, fn)
		}
	}
}

// leafCommands are the commands that run something: the ones without
// subcommands of their own.
func leafCommands(root *cli.Command) []*cli.Command {
	var leaves []*cli.Command
	walkCommands(root, func(c *cli.Command) {
		if c != root && !hasVisibleSubcommands(c) {
			leaves = append(leaves, c)
		}
	})
	return leaves
}

func hasVisibleSubcommands(c *cli.Command) bool {
	for _, sub := range c.Commands {
		if !sub.Hidden && sub.Name != "help" {
			return true
		}
	}
	return false
}

// commandPath is a command's name below the root: "apply", "hook run".
func commandPath(c *cli.Command) string {
	return strings.Join(c.Path()[1:], " ")
}

// splitExitStatus takes the root description's "Exit status:" paragraph
// out, for the EXIT STATUS section.
func splitExitStatus(description string) (rest, exitStatus string) {
	var kept []string
	for _, p := range strings.Split(description, "\n\n") {
		if after, ok := strings.CutPrefix(p, "Exit status: "); ok {
			exitStatus = strings.ToUpper(after[:1]) + after[1:]
			continue
		}
		kept = append(kept, p)
	}
	return strings.Join(kept, "\n\n"), exitStatus
}

// writeParagraphs writes text's paragraphs (split at blank lines), each
// after the macro that starts one; an indented paragraph is kept as it
// is laid out.
func writeParagraphs(b *strings.Builder, text, macro string) {
	for _, p := range strings.Split(text, "\n\n") {
		if strings.TrimSpace(p) == "" {
			continue
		}
		b.WriteString(macro + "\n")
		if strings.HasPrefix(p, " ") {
			b.WriteString(".nf\n")
			for _, l := range strings.Split(p, "\n") {
				b.WriteString(roffEscape(l) + "\n")
			}
			b.WriteString(".fi\n")
			continue
		}
		for _, l := range strings.Split(p, "\n") {
			b.WriteString(roffEscape(strings.TrimSpace(l)) + "\n")
		}
	}
}

// roffEscape makes text safe as roff input: a backslash is printed,
// not an escape; a dash is a hyphen-minus, so that flags copied from the
// page work; a line cannot start a request.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, ".") || strings.HasPrefix(l, "'") {
			lines[i] = `\&` + l
		}
	}
	return strings.Join(lines, "\n")
}

// sentence capitalises a usage phrase and ends it with a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	s = strings.ToUpper(s[:1]) + s[1:]
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}

func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// shortFirst orders a flag's names as git's pages do: -b, --branch.
func shortFirst(names []string) []string {
	var short, long []string
	for _, n := range names {
		if len(n) == 1 {
			short = append(short, n)
		} else {
			long = append(long, n)
		}
	}
	return append(short, long...)
}

func joinList(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
