package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// streams are the command's standard input and outputs, passed in so
// that tests can run commands in-process.
type streams struct {
	in       io.Reader
	out, err io.Writer
	// rawErr is standard error itself, for the colour and progress
	// sequences of our own that must not be escaped.
	rawErr io.Writer
	// errColor and outColor: colour the report, and translate's diff
	// (streams.withColor).
	errColor, outColor bool
	// at is where the command was typed, for the git commands the
	// report suggests (set once the repository is open).
	at place
	// jsonDone is set once a JSON report is written on out.
	jsonDone *bool
	// dir is the directory the command starts in ("" for the process's
	// working directory): relative paths (-C, replies, -o) are read
	// from it.
	dir string
}

// run executes one command line, as if started in dir ("" for the
// process's working directory), and returns the exit status. ctx ends
// the work in hand when it is done (main's ends at SIGINT or SIGTERM).
// What it writes on standard error (the human report, errors) goes
// through termWriter; standard output holds what the command produces
// (a diff, JSON, a prompt), as it is. Tests call it in-process.
func run(ctx context.Context, args []string, dir string, in io.Reader, out, errw io.Writer) int {
	jsonDone := false
	s := streams{in: in, out: out, err: termWriter{errw}, rawErr: errw, jsonDone: &jsonDone, dir: dir}
	app := newApp(s, namedCommand(args))
	args = splitShortOptions(app, args)
	err := checkOptions(app, args)
	if err == nil {
		err = app.Run(ctx, args)
	}
	say(s, err)
	var help shortHelp
	if err != nil && !errors.Is(err, errEditsFailed) && !errors.Is(err, errVersionShown) && !errors.As(err, &help) {
		reportStop(app, s, err, jsonDone)
	}
	return exitCode(err)
}

// say writes what ends a run on standard error as git does (SPEC
// section 2): "fatal: " and what stopped it; "error: " and a mistake in
// the options, with the command's short usage when git gives it; an
// unknown command with the most similar ones; -h's short usage on
// standard output. Nothing for an error the report has already told.
func say(s streams, err error) {
	var (
		flag    *flagError
		help    shortHelp
		unknown *unknownCommandError
		child   *childExit
	)
	switch {
	case err == nil, errors.Is(err, errEditsFailed), errors.Is(err, errVersionShown), errors.As(err, &child),
		errors.Is(err, errNoEdit), errors.Is(err, errMalformed), errors.Is(err, errOverLimit):
	case errors.As(err, &help):
		writeShortUsage(s.out, help.at)
	case errors.As(err, &flag):
		fmt.Fprintf(s.err, "error: %s\n", flag.Error())
		if flag.usage {
			writeShortUsage(s.err, flag.at)
		}
	case errors.As(err, &unknown):
		fmt.Fprintf(s.err, "%s\n", unknown.Error())
	default:
		fmt.Fprintf(s.err, "fatal: %s\n", err.Error())
	}
}

// commonOptions are the flags apply, translate and check share.
type commonOptions struct {
	Dir      string // where the command runs: run's dir, then -C (relative paths are read from it)
	DirArg   string // -C as given, "" for none: messages and suggested git commands name it
	Format   string
	Base     string
	BaseSet  bool
	Fuzz     engine.Fuzz
	JSON     bool
	Quiet    bool
	Verbose  bool
	ShellOps bool
	Limits   engine.Limits
	Replies  []string
	Command  string // apply, check or translate
	Color    string // --color, --no-color: always, never, auto, or "" (not given)
	Progress string // --progress, --no-progress: always, never, or ""
}

func commonFlags() []cli.Flag {
	return append([]cli.Flag{
		&cli.StringFlag{Name: "format", Value: "auto", Usage: "reply `FORMAT`: auto, or one of " + joinNames()},
		&cli.StringFlag{Name: "base", Value: "index", Usage: "resolve edits against `SRC`: index, worktree, or a revision"},
		&cli.StringFlag{Name: "fuzz", Value: "format", Usage: "matching tolerance `LEVEL`: exact, format (each format's own), or loose"},
		&cli.BoolFlag{Name: "json", Usage: "print a machine-readable report on stdout"},
		&cli.BoolFlag{Name: "shell-ops", Usage: "turn git rm, git mv, rm and mv lines of shell blocks into delete and rename operations (nothing is run)"},
		&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only errors"},
		&cli.BoolFlag{Name: "verbose", Aliases: []string{"v"}, Usage: "say how each edit was matched"},
	}, append(limitFlags(), terminalFlags()...)...)
}

// joinNames lists the format names for a usage message.
func joinNames() string { return strings.Join(translate.FormatNames(), ", ") }

// readCommon fills the shared options from a parsed command.
func readCommon(cmd *cli.Command) (commonOptions, error) {
	o := commonOptions{
		Format:   cmd.String("format"),
		Base:     cmd.String("base"),
		BaseSet:  cmd.IsSet("base"),
		JSON:     cmd.Bool("json"),
		Quiet:    cmd.Bool("quiet"),
		Verbose:  cmd.Bool("verbose"),
		ShellOps: cmd.Bool("shell-ops"),
		Replies:  cmd.Args().Slice(),
		Command:  cmd.Name,
		Color:    cmd.String("color"),
		Progress: cmd.String("progress"),
	}
	o.Dir, o.DirArg = startOf(cmd)
	err := checkStartDir(o.Dir, o.DirArg)
	if err != nil {
		return o, err
	}
	if o.Limits, err = readLimits(cmd); err != nil {
		return o, err
	}
	if o.Fuzz, err = engine.ParseFuzz(cmd.String("fuzz")); err != nil {
		return o, usageError("%v", err.Error())
	}
	if o.Format != "auto" {
		found := false
		for _, n := range translate.FormatNames() {
			found = found || n == o.Format
		}
		if !found {
			return o, usageError("unknown format %q (want auto, %s)", o.Format, joinNames())
		}
	}
	return o, nil
}

// commands are the commands, in the order usage lists them, each with
// what makes it.
var commands = []struct {
	name string
	make func(streams) *cli.Command
}{
	{"apply", applyCommand}, {"replay", replayCommand}, {"translate", translateCommand}, {"check", checkCommand},
	{"hook", hookCommand}, {"formats", formatsCommand}, {"prompt", promptCommand}, {"mcp", mcpCommand},
	{"version", versionCommand}, {"man", manCommand}, {"completion", completionCommand},
}

// namedCommand is the command a command line names: its first word
// after the root's options, or "version" for a --version before any
// word (git turns its own --version into the version command, git.c).
// "" when it names none.
func namedCommand(args []string) string {
	version := false
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			return ""
		case a == "-C" || a == "--C":
			i++ // its value
		case a == "--version":
			version = true
		case strings.HasPrefix(a, "-") && a != "-":
		default:
			return a
		}
	}
	if version {
		return "version"
	}
	return ""
}

// newApp is the command tree of a run of the command named (""
// none). It holds that command alone when the name is one of ours
// (whose run needs no other), else every command: a run without one,
// an unknown one (the similar ones are named), help, man and
// completion list them all. urfave/cli sets up every command of the
// tree before it runs one, and doing so for all of them was most of
// --version's work (0.99 M of 2.42 M instructions).
func newApp(s streams, named string) *cli.Command {
	var cmds []*cli.Command
	for _, c := range commands {
		if c.name == named && named != "man" && named != "completion" {
			cmds = []*cli.Command{c.make(s)}
			break
		}
	}
	if cmds == nil {
		for _, c := range commands {
			cmds = append(cmds, c.make(s))
		}
	}
	app := &cli.Command{
		Name:      "git llm-apply",
		Usage:     "apply a language model's edits to a git repository, as commits",
		UsageText: "git llm-apply [-C DIR] <command> [options] [REPLY ...]",
		Description: `Each REPLY is a file holding one model reply, "-" for standard input, or a
directory (its files in name order); with none, standard input is read.
Edits are resolved against the index by default and recorded as one commit
per reply on a branch. Your working tree, index and HEAD are never changed.

Exit status: 0 every edit resolved (or was already applied), 1 an edit
failed, 2 bad usage, unreadable input, no repository, no edit found or a
reply over a limit, 3 the branch moved under us (or is locked), 129
-h printed the short usage, 130 interrupted (SIGINT or SIGTERM; the
replies finished before it are kept, the one in hand records nothing).`,
		Flags: []cli.Flag{
			&cli.GenericFlag{Name: "C", Value: &startDir{base: s.dir}, Usage: "run as if started in `DIR` (each -C relative to the one before)"},
			versionFlag(s),
		},
		Commands:       cmds,
		Reader:         s.in,
		Writer:         s.out,
		ErrWriter:      s.err,
		HideVersion:    true,
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		OnUsageError:   usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return unknownCommand(cmd.Lineage(), cmd.Args().First())
			}
			return &flagError{err: errors.New("a command is needed"), at: cmd.Lineage(), usage: true}
		},
	}
	for _, c := range app.Commands {
		// git stops at a -C it cannot change to whatever the command,
		// version and help included. Each command checks once its own
		// flags are read, so that --json still gets its document.
		c.Before = func(ctx context.Context, cmd *cli.Command) (context.Context, error) {
			return ctx, checkStartDir(startOf(cmd))
		}
	}
	return app
}

// usageOnError makes a command's flag errors, those checkOptions left
// to urfave/cli, git's, exiting with status 2.
func usageOnError(_ context.Context, cmd *cli.Command, err error, _ bool) error {
	return &flagError{err: err, at: cmd.Lineage()}
}
