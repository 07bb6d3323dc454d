package main

import (
	"context"
	"fmt"
	"runtime/debug"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/buildinfo"
)

func versionFlag(s streams) cli.Flag {
	return &cli.BoolFlag{Name: "version", Local: true, Usage: "print the version and exit",
		Action: func(context.Context, *cli.Command, bool) error {
			fmt.Fprintln(s.out, versionLine())
			return errVersionShown
		}}
}

func versionCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version",
		Description: `Prints the release tag the binary was built from, or else the commit and
its date from the build's version control stamp, with -dirty when the
checkout had uncommitted changes.`,
		OnUsageError: usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usageError("version takes no arguments")
			}
			_, err := fmt.Fprintln(s.out, versionLine())
			return err
		},
	}
}

func versionLine() string {
	info, _ := debug.ReadBuildInfo() // nil when there is none
	return "git llm-apply version " + describeBuild(info)
}

// describeBuild says which source a binary was built from
// (buildinfo.Describe; git-llm-apply-mcp says the same in the MCP
// handshake).
func describeBuild(info *debug.BuildInfo) string { return buildinfo.Describe(info) }
