package main

import (
	"context"

	"github.com/urfave/cli/v3"
)

func translateCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "translate",
		Usage:     "print the canonical git diff of each reply",
		ArgsUsage: "[REPLY ...]",
		Description: `Resolves each reply against --base (the index by default) and prints its
edits as one git diff on standard output, ready for git apply --cached.
Nothing is written. With --json the report (with each reply's diff in
its "diff" field) is printed instead.`,
		Flags:        commonFlags(),
		OnUsageError: usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			o, err := readCommon(cmd)
			if err != nil {
				return err
			}
			results, err := resolveOnly(o, s)
			if err != nil {
				return err
			}
			diffs := map[int]string{}
			for i, r := range results {
				if len(r.Patch) == 0 {
					continue
				}
				if o.JSON {
					diffs[i] = string(r.Patch)
				} else if _, err := s.out.Write(r.Patch); err != nil {
					return err
				}
			}
			report(s, o, results, "", diffs)
			return statusOf(results)
		},
	}
}
