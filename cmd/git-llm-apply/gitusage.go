package main

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/urfave/cli/v3"
)

// The options of a command line are checked as git's parse-options
// checks them, before urfave/cli reads them, so that a mistake reads as
// git's (SPEC section 2): "error: unknown option `frmat'" and the
// command's short usage, "error: switch `m' requires a value", "error:
// option `max-edits' expects a numerical value". -h anywhere among the
// options asks for that short usage on standard output (exit 129);
// --help keeps urfave/cli's long help, which git itself turns into the
// manual page for `git llm-apply --help`.

// flagError is a usage error in the options: ours, found by
// checkOptions, or one urfave/cli found. Its message is git's; usage
// says git prints the command's short usage after it (an unknown
// option does, a bad value does not). What it says stays plain text
// even with --json: the options after the bad one were not read, so
// whether --json was asked is not known.
type flagError struct {
	err   error
	at    []*cli.Command // the command whose usage follows, then its ancestors
	usage bool
}

func (e *flagError) Error() string { return gitFlagMessage(e.err.Error()) }
func (e *flagError) Unwrap() error { return e.err }

// shortHelp is -h: the command's short usage goes to standard output.
type shortHelp struct{ at []*cli.Command }

func (shortHelp) Error() string { return "usage asked" }

// checkOptions reads the options of args (as splitShortOptions left
// them) the way urfave/cli will, and returns the first mistake as
// git's parse-options words it, or a shortHelp for -h.
func checkOptions(root *cli.Command, args []string) error {
	cmd := []*cli.Command{root}
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return nil
		case a == "-" || !strings.HasPrefix(a, "-"):
			if sub := subcommand(cmd[0], a); sub != nil {
				cmd = append([]*cli.Command{sub}, cmd...)
			}
			continue
		case a[1] != '-' && !isLetter(a[1]):
			return nil // urfave/cli stops reading options at -1
		}
		long := strings.HasPrefix(a, "--")
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !long && name == "h" {
			return shortHelp{cmd}
		}
		f := lookupFlag(cmd, name)
		if f == nil && long && name == "help" {
			return nil // urfave/cli's long help, added as it runs
		}
		if f == nil {
			return unknownOption(cmd, name, long)
		}
		if takesValue(f) && !hasValue {
			if i+1 == len(args) {
				return &flagError{err: fmt.Errorf("%s requires a value", optionName(name))}
			}
			i++
			value = args[i]
		}
		if _, isInt := f.(*cli.IntFlag); isInt {
			if _, err := strconv.ParseInt(value, 0, 64); err != nil {
				return &flagError{err: fmt.Errorf("%s expects a numerical value", optionName(name))}
			}
		}
	}
	return nil
}

// unknownOption is git's error for an option no command defines: a
// long one by its name, a bundle of letters by its first unknown
// letter (git reads -frmat as -f -r -m -a -t), unless -h comes first.
func unknownOption(cmd []*cli.Command, name string, long bool) error {
	if long {
		return &flagError{err: fmt.Errorf("unknown option `%s'", name), at: cmd, usage: true}
	}
	for _, c := range name {
		if c == 'h' { // -qh: -q, then -h (urfave/cli adds -h only as it runs)
			return shortHelp{cmd}
		}
		if lookupFlag(cmd, string(c)) == nil {
			name = string(c)
			break
		}
	}
	return &flagError{err: fmt.Errorf("unknown switch `%s'", name), at: cmd, usage: true}
}

// optionName is how git's parse-options names an option in an error:
// "switch `m'" for a letter, "option `format'" for a name.
func optionName(name string) string {
	if len(name) == 1 {
		return "switch `" + name + "'"
	}
	return "option `" + name + "'"
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// urfaveMessage matches the errors urfave/cli writes for the mistakes
// checkOptions leaves to it (a value its flag's parser refuses, as
// --color=bogus), and any it catches first.
var urfaveMessage = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:invalid value "(?s:.*)" for flag -+([^:]+): (.*)|flag needs an argument: -+(.*)|flag provided but not defined: -+(.*))$`)
})

// gitFlagMessage words a flag-parsing error of urfave/cli as git's.
func gitFlagMessage(msg string) string {
	m := urfaveMessage().FindStringSubmatch(msg)
	switch {
	case m == nil:
		return msg
	case m[1] != "" && strings.HasPrefix(m[2], "strconv."):
		return optionName(m[1]) + " expects a numerical value"
	case m[1] != "":
		return optionName(m[1]) + " " + m[2]
	case m[3] != "":
		return optionName(m[3]) + " requires a value"
	}
	return "unknown option `" + m[4] + "'"
}

// writeShortUsage writes git's short usage of the command at[0]
// (at[1:] its ancestors): "usage: " and the synopsis, then its options
// one a line, the help at column 26, a long one's help on the next
// line (parse-options.c, usage_with_options), then its commands.
func writeShortUsage(w io.Writer, at []*cli.Command) {
	cmd, name := at[0], fullName(at)
	var b strings.Builder
	fmt.Fprintf(&b, "usage: %s\n", synopsis(name, at))
	for i, f := range cmd.Flags {
		if i == 0 {
			b.WriteString("\n")
		}
		if v, ok := f.(cli.VisibleFlag); (ok && !v.IsVisible()) || f.Names()[0] == "help" {
			continue
		}
		left, help := optionLine(f)
		if len(left) <= 24 {
			fmt.Fprintf(&b, "%-26s%s\n", left, help)
		} else {
			fmt.Fprintf(&b, "%s\n%26s%s\n", left, "", help)
		}
	}
	if subs := visibleCommands(cmd); len(subs) > 0 {
		fmt.Fprintf(&b, "\nThese are the %s commands:\n", name)
		width := 0
		for _, c := range subs {
			width = max(width, len(c.Name))
		}
		for _, c := range subs {
			fmt.Fprintf(&b, "   %-*s   %s\n", width, c.Name, c.Usage)
		}
	}
	b.WriteString("\n")
	io.WriteString(w, b.String())
}

// synopsis is the usage line of a command in git's notation:
// placeholders in angle brackets (<reply>...), [<options>] when it
// has options.
func synopsis(name string, at []*cli.Command) string {
	if len(at) == 1 {
		return "git llm-apply [-C <dir>] <command> [<options>] [<reply>...]"
	}
	cmd, s := at[0], name
	if len(visibleCommands(cmd)) > 0 {
		s += " <command>"
	}
	for _, f := range cmd.Flags {
		if f.Names()[0] != "help" {
			s += " [<options>]"
			break
		}
	}
	if cmd.ArgsUsage != "" {
		s += " " + gitPlaceholders(cmd.ArgsUsage)
	}
	return s
}

var upperWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[A-Z][A-Z0-9_-]*\b( \.\.\.)?`) })

// gitPlaceholders writes "[REPLY ...]" as git does: "[<reply>...]".
func gitPlaceholders(s string) string {
	return upperWord().ReplaceAllStringFunc(s, func(w string) string {
		word, dots := strings.CutSuffix(w, " ...")
		w = "<" + strings.ToLower(word) + ">"
		if dots {
			w += "..."
		}
		return w
	})
}

// optionLine is a flag's line of the short usage: "-q, --quiet",
// "-b, --branch <name>", "--color[=<when>]", and its help with the
// placeholder written as in the left part.
func optionLine(f cli.Flag) (left, help string) {
	var short, long []string
	for _, n := range f.Names() {
		if len(n) == 1 {
			short = append(short, "-"+n)
		} else {
			long = append(long, "--"+n)
		}
	}
	usage := ""
	if d, ok := f.(cli.DocGenerationFlag); ok {
		usage = d.GetUsage()
	}
	arg := ""
	if pre, rest, ok := strings.Cut(usage, "`"); ok {
		if word, post, ok := strings.Cut(rest, "`"); ok {
			arg = "<" + strings.ToLower(word) + ">"
			usage = pre + arg + post
		}
	}
	left = "    " + strings.Join(append(short, long...), ", ")
	if _, ok := f.(switchFlag); ok {
		if a := optionalArg(f); a != "" {
			left += "[=<" + a + ">]"
		}
	} else if takesValue(f) {
		if arg == "" {
			arg = "<value>"
		}
		left += " " + arg
	}
	return left, usage
}

// fullName is the full name of the command at[0], "git llm-apply
// hook install". (Command.Lineage is set only once urfave/cli runs.)
func fullName(l []*cli.Command) string {
	names := make([]string, len(l))
	for i, c := range l {
		names[len(l)-1-i] = c.Name
	}
	return strings.Join(names, " ")
}

// visibleCommands are the subcommands a usage lists.
func visibleCommands(cmd *cli.Command) []*cli.Command {
	var out []*cli.Command
	for _, c := range cmd.Commands {
		if !c.Hidden && c.Name != "help" {
			out = append(out, c)
		}
	}
	return out
}
