package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

func completionCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "completion",
		Usage:     "print a shell completion script",
		ArgsUsage: "bash|zsh|fish",
		Description: `Prints the completion script of the shell named, made from the same command
and flag definitions as -h: commands, flags, the format names of --format,
branch names for --branch and --onto, index, worktree and refs for --base,
files for REPLY. It works for git llm-apply through git's own completion
and for git-llm-apply; README, Install, says where to put it.`,
		OnUsageError: usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usageError("completion needs one shell name: bash, zsh or fish")
			}
			tree := completionTree(cmd.Root())
			switch cmd.Args().First() {
			case "bash":
				return writeBashCompletion(s.out, tree)
			case "zsh":
				return writeZshCompletion(s.out, tree)
			case "fish":
				return writeFishCompletion(s.out, tree)
			}
			return usageError("completion: unknown shell %q (want bash, zsh or fish)", cmd.Args().First())
		},
	}
}

// valueKind is what a flag's value or a command's argument is, for
// the scripts to offer.
type valueKind struct {
	words    []string // a fixed list
	branches bool     // branch names
	revs     bool     // index, worktree and refs
	dirs     bool
	files    bool
}

// compCommand is a command as the scripts see it.
type compCommand struct {
	path  string // below the root, "" for the root, "hook install"
	names []string
	usage string
	flags []compFlag // its own, and the persistent flags of its ancestors
	subs  []*compCommand
	args  valueKind
}

type compFlag struct {
	names []string // as typed: -b, --branch
	usage string
	value *valueKind // nil: takes no value
}

func completionTree(root *cli.Command) *compCommand {
	var build func(c *cli.Command, inherited []compFlag) *compCommand
	build = func(c *cli.Command, inherited []compFlag) *compCommand {
		cc := &compCommand{path: commandPath(c), names: c.Names(), usage: c.Usage, args: argValues(c, root)}
		cc.flags = append(cc.flags, inherited...)
		var persistent []compFlag
		persistent = append(persistent, inherited...)
		for _, f := range c.Flags {
			if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
				continue
			}
			if c != root && f.Names()[0] == "help" {
				continue // the root's, inherited
			}
			_, usage := flagUsage(f)
			cf := compFlag{usage: usage}
			for _, n := range shortFirst(f.Names()) {
				cf.names = append(cf.names, dashed(n))
			}
			if takesValue(f) {
				v := flagValues(f.Names()[0])
				cf.value = &v
			}
			cc.flags = append(cc.flags, cf)
			if l, ok := f.(cli.LocalFlag); (!ok || !l.IsLocal()) && c == root {
				persistent = append(persistent, cf)
			}
		}
		walkChildren(c, func(sub *cli.Command) {
			cc.subs = append(cc.subs, build(sub, persistent))
		})
		return cc
	}
	return build(root, nil)
}

// walkChildren calls fn for the subcommands -h lists: the help command
// only under the root.
func walkChildren(c *cli.Command, fn func(*cli.Command)) {
	for _, sub := range c.Commands {
		if !sub.Hidden && (sub.Name != "help" || len(c.Lineage()) == 1) {
			fn(sub)
		}
	}
}

// flagValues says what a flag's value is, by the flag's name; a flag
// not named here completes as a file name.
func flagValues(name string) valueKind {
	switch name {
	case "format":
		return valueKind{words: append([]string{"auto"}, translate.FormatNames()...)}
	case "fuzz":
		return valueKind{words: []string{"exact", "format", "loose"}}
	case "color":
		return valueKind{words: []string{"auto", "always", "never"}}
	case "branch", "onto":
		return valueKind{branches: true}
	case "base":
		return valueKind{revs: true}
	case "C", "patch-dir", "worktree":
		return valueKind{dirs: true}
	}
	return valueKind{files: true}
}

// argValues reads what a command's arguments are from its ArgsUsage:
// a list of alternatives (bash|zsh|fish), a format name, a reply file,
// a command name.
func argValues(c, root *cli.Command) valueKind {
	u := strings.Trim(c.ArgsUsage, "[] .")
	switch {
	case strings.Contains(u, "|"):
		return valueKind{words: strings.Split(u, "|")}
	case u == "FORMAT":
		return valueKind{words: translate.FormatNames()}
	case strings.HasPrefix(u, "REPLY"):
		return valueKind{files: true}
	case strings.EqualFold(u, "command"):
		var names []string
		walkChildren(root, func(sub *cli.Command) { names = append(names, sub.Name) })
		return valueKind{words: names}
	}
	return valueKind{}
}

func (c *compCommand) walk(fn func(*compCommand)) {
	fn(c)
	for _, s := range c.subs {
		s.walk(fn)
	}
}

func (c *compCommand) subNames() []string {
	var names []string
	for _, s := range c.subs {
		names = append(names, s.names[0])
	}
	return names
}

func (c *compCommand) flagNames() []string {
	var names []string
	for _, f := range c.flags {
		for _, n := range f.names {
			// git's completion offers the long form of a flag that has one
			if strings.HasPrefix(n, "--") || len(f.names) == 1 {
				names = append(names, n)
			}
		}
	}
	return names
}

// bashCompletion is the script's fixed part; the generated cases fill
// it. _git_llm_apply is the name git's completion calls for
// "git llm-apply"; it works in git's variables (cur, words, cword,
// __git_cmd_idx) and with its helpers (__gitcomp, __git_heads,
// __git_complete_refs). Returning no words leaves file names to the
// "-o default" git's completion is registered with.
const bashCompletion = `# bash completion for git llm-apply, generated by "git llm-apply completion bash".
# It completes "git llm-apply ..." through git's own completion, and
# "git-llm-apply ...".

_git_llm_apply ()
{
	local i word path="" expect=""
	for ((i = __git_cmd_idx + 1; i < cword; i++)); do
		word="${words[i]}"
		if [ -n "$expect" ]; then
			expect=""
			continue
		fi
		case "$word" in
		--)
			break ;;
		-*=*)
			;;
		-*)
			case "$path:$word" in
%[1]s			esac ;;
		*)
			case "$path:$word" in
%[2]s			esac ;;
		esac
	done

	local flag="" value="$cur" pfx=""
	if [ -n "$expect" ]; then
		flag="$prev"
	else
		case "$cur" in
		-*=*)
			# git's completion splits the word at "=": what is replaced
			# is the value alone
			flag="${cur%%%%=*}" value="${cur#*=}" ;;
		esac
	fi
	if [ -n "$flag" ]; then
		case "$path:$flag" in
%[3]s		esac
		COMPREPLY=()
		return
	fi
	case "$cur" in
	-*)
		case "$path" in
%[4]s		esac
		return ;;
	esac
	case "$path" in
%[5]s	*) COMPREPLY=() ;;
	esac
}

__git_llm_apply_branches ()
{
	__gitcomp_direct "$(__git_heads "$1" "$2" " ")"
}

__git_llm_apply_revs ()
{
	__git_complete_refs --pfx="$1" --cur="$2"
	local w
	for w in index worktree; do
		case "$w" in
		"$2"*) COMPREPLY+=("$1$w ") ;;
		esac
	done
}

# "git-llm-apply ..." typed as a command of its own goes through git's
# completion too, which bash-completion loads on demand.
if ! declare -F __git_complete >/dev/null 2>&1 && declare -F _completion_loader >/dev/null 2>&1; then
	_completion_loader git
fi
if declare -F __git_complete >/dev/null 2>&1; then
	__git_complete git-llm-apply _git_llm_apply
fi
`

func writeBashCompletion(w io.Writer, tree *compCommand) error {
	var takesValue, enter, values, flags, args strings.Builder
	var actions []string // the value completions, each once, with the flags that take it
	patterns := map[string][]string{}
	tree.walk(func(c *compCommand) {
		var pats []string
		for _, f := range c.flags {
			if f.value == nil {
				continue
			}
			for _, n := range f.names {
				pats = append(pats, fmt.Sprintf("%q", c.path+":"+n))
			}
			if a := bashValues(*f.value); a != "" {
				if patterns[a] == nil {
					actions = append(actions, a)
				}
				for _, n := range f.names {
					patterns[a] = append(patterns[a], fmt.Sprintf("%q", c.path+":"+n))
				}
			}
		}
		if len(pats) > 0 {
			fmt.Fprintf(&takesValue, "\t\t\t%s) expect=1 ;;\n", strings.Join(pats, "|"))
		}
		for _, s := range c.subs {
			var pats []string
			for _, n := range s.names {
				pats = append(pats, fmt.Sprintf("%q", c.path+":"+n))
			}
			fmt.Fprintf(&enter, "\t\t\t%s) path=%q ;;\n", strings.Join(pats, "|"), s.path)
		}
		fmt.Fprintf(&flags, "\t\t%q) __gitcomp %q ;;\n", c.path, strings.Join(c.flagNames(), " "))
		switch {
		case len(c.subs) > 0:
			fmt.Fprintf(&args, "\t%q) __gitcomp %q ;;\n", c.path, strings.Join(c.subNames(), " "))
		case len(c.args.words) > 0:
			fmt.Fprintf(&args, "\t%q) __gitcomp %q ;;\n", c.path, strings.Join(c.args.words, " "))
		}
	})
	for _, a := range actions {
		fmt.Fprintf(&values, "\t\t%s)\n\t\t\t%s\n\t\t\treturn ;;\n", strings.Join(patterns[a], "|"), a)
	}
	_, err := fmt.Fprintf(w, bashCompletion, takesValue.String(), enter.String(), values.String(), flags.String(), args.String())
	return err
}

func bashValues(v valueKind) string {
	switch {
	case len(v.words) > 0:
		return fmt.Sprintf(`__gitcomp %q "$pfx" "$value"`, strings.Join(v.words, " "))
	case v.branches:
		return `__git_llm_apply_branches "$pfx" "$value"`
	case v.revs:
		return `__git_llm_apply_revs "$pfx" "$value"`
	}
	return "" // file names, from the default completion
}
