package main

import (
	"context"
	"fmt"
	"text/tabwriter"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

func formatsCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "formats",
		Usage: "list the supported reply formats and how each is recognised",
		Description: `Lists every format name --format accepts, the markers by which --format auto
recognises it, and the specification it follows. git llm-apply prompt NAME
prints the instructions to give a model for one of them.`,
		OnUsageError: usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			w := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tRECOGNISED BY\tSPECIFICATION")
			for _, f := range translate.Formats() {
				fmt.Fprintf(w, "%s\t%s\t%s\n", f.Name, f.Markers, f.Seed)
			}
			return w.Flush()
		},
	}
}

func promptCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "prompt",
		Usage:     "print the instructions to give a model so that it writes a format",
		ArgsUsage: "FORMAT",
		Description: `Prints, for the named format, the instructions to put in a model's system
prompt, with a worked example. What they describe is what the reader
accepts.`,
		OnUsageError: usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() != 1 {
				return usageError("prompt needs one format name (one of %s)", joinNames())
			}
			p, err := translate.Prompt(cmd.Args().First())
			if err != nil {
				return usageError("%s", err.Error())
			}
			_, err = fmt.Fprint(s.out, p)
			return err
		},
	}
}
