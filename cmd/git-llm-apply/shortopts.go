package main

import (
	"strings"

	"github.com/urfave/cli/v3"
)

// splitShortOptions rewrites bundled one-letter flags the way git's
// parse-options reads them, so that urfave/cli sees one flag per
// argument: -qv is -q -v, and a letter that takes a value takes the
// rest of the bundle as it, else the next argument (-bNAME, -qbNAME
// and -qb NAME are all -q -b NAME). urfave/cli's own
// UseShortOptionHandling splits -qv but refuses -bNAME, -mMSG and
// -Cdir ("flag provided but not defined"), which git accepts.
//
// The walk follows the command tree as urfave/cli does, so that a value
// (-m -qv, --branch -b) is never split and flags are looked up in the
// command that owns them. Arguments after "--", long flags and
// bundles holding a letter that is no flag are passed on unchanged, for
// urfave/cli to accept or refuse.
func splitShortOptions(root *cli.Command, args []string) []string {
	if len(args) == 0 {
		return args
	}
	out := []string{args[0]}
	cmd := []*cli.Command{root} // the command entered, then its ancestors
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i:]...)
		case a == "-" || !strings.HasPrefix(a, "-"):
			if sub := subcommand(cmd[0], a); sub != nil {
				cmd = append([]*cli.Command{sub}, cmd...)
			}
			out = append(out, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if f := lookupFlag(cmd, name); f != nil || strings.HasPrefix(a, "--") || hasValue {
			// A whole flag name (urfave/cli takes -format as --format):
			// its value, when it takes one, is the next argument.
			out = append(out, a)
			if f != nil && takesValue(f) && !hasValue && i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		split, consumed := splitBundle(cmd, a[1:])
		if split == nil {
			out = append(out, a)
			continue
		}
		out = append(out, split...)
		if consumed && i+1 < len(args) {
			i++
			out = append(out, args[i])
		}
	}
	return out
}

// splitBundle splits the letters of one bundle (without its dash). It
// returns nil when a letter names no flag; consumed says the last
// letter takes the next argument as its value.
func splitBundle(cmd []*cli.Command, letters string) (split []string, consumed bool) {
	for j, c := range letters {
		f := lookupFlag(cmd, string(c))
		if f == nil {
			return nil, false
		}
		if rest := letters[j+len(string(c)):]; rest != "" && optionalArg(f) != "" {
			// -SKEYID: a letter whose value is optional takes the rest
			// of the bundle, as git's -S<keyid>.
			return append(split, "-"+string(c)+"="+rest), false
		}
		split = append(split, "-"+string(c))
		if takesValue(f) {
			if rest := letters[j+len(string(c)):]; rest != "" {
				return append(split, rest), false
			}
			return split, true
		}
	}
	return split, false
}

// subcommand is the command a positional argument names, as urfave/cli
// finds it: any argument naming a subcommand enters it.
func subcommand(cmd *cli.Command, name string) *cli.Command {
	for _, sub := range cmd.Commands {
		if sub.HasName(name) {
			return sub
		}
	}
	return nil
}

// lookupFlag finds a flag of the command entered or, as urfave/cli
// applies persistent flags, of an ancestor. (Command.Lineage is not
// set up before Run.)
func lookupFlag(cmd []*cli.Command, name string) cli.Flag {
	for _, c := range cmd {
		for _, f := range c.Flags {
			for _, n := range f.Names() {
				if n == name {
					return f
				}
			}
		}
	}
	return nil
}

// optionalArg is the placeholder of the value a switch may take
// (--gpg-sign[=<key-id>]), "" for none.
func optionalArg(f cli.Flag) string {
	if sw, ok := f.(switchFlag); ok {
		if v, ok := sw.Value.(interface{ optionalArg() string }); ok {
			return v.optionalArg()
		}
	}
	return ""
}

func takesValue(f cli.Flag) bool {
	d, ok := f.(cli.DocGenerationFlag)
	return ok && d.TakesValue()
}
