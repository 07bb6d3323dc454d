package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

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
			writeFormats(s.out)
			return nil
		},
	}
}

// formatsWidth is the terminal's customary 80 columns: each format is a
// block of lines, its name, how auto recognises it, and each source
// that defines it on a line of its own.
const (
	formatsWidth  = 80
	formatsIndent = 13
)

func writeFormats(w io.Writer) {
	pad := strings.Repeat(" ", formatsIndent)
	fmt.Fprintf(w, "%-*sRECOGNISED BY, then WHERE IT IS DEFINED\n", formatsIndent, "NAME")
	for i, f := range translate.Formats() {
		if i > 0 {
			fmt.Fprintln(w)
		}
		for j, l := range wrapWords(f.Markers, formatsWidth-formatsIndent) {
			name := ""
			if j == 0 {
				name = f.Name
			}
			fmt.Fprintf(w, "%-*s%s\n", formatsIndent, name, l)
		}
		for _, src := range strings.Split(f.Seed, "; ") {
			for j, l := range wrapWords(src, formatsWidth-formatsIndent-2) {
				lead := "  "
				if j == 0 {
					lead = "- "
				}
				fmt.Fprintf(w, "%s%s%s\n", pad, lead, l)
			}
		}
	}
}

// wrapWords breaks s into lines of at most width columns at spaces; a
// word longer than width stands alone on its line.
func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		switch {
		case line == "":
			line = word
		case utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
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
