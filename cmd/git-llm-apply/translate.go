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
With -o DIR each reply becomes NNNN-<slug>.patch in DIR instead, in the
mailbox form of git format-patch (git am applies them in order; their
From line carries no commit, as nothing is recorded). Nothing else is
written. With --json the report (with each reply's diff in its "diff"
field and its patch file in "patch") is printed instead.`,
		Flags: append(commonFlags(),
			&cli.StringFlag{Name: "patch-dir", Aliases: []string{"o"}, Usage: "write one format-patch file per reply into `DIR`"},
		),
		OnUsageError: usageOnError,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			o, err := readCommon(cmd)
			if err != nil {
				return err
			}
			if err := checkPatchDir(o.Dir, cmd.String("patch-dir"), "written"); err != nil {
				return err
			}
			res, err := resolveOnly(ctx, o, s)
			if err != nil {
				return err
			}
			repo, results := res.repo, res.results
			out, stopped := interruption(res.stop, res.results, res.inputs, "")
			patches := map[int]string{}
			if dir := cmd.String("patch-dir"); dir != "" {
				author, err := repo.Author()
				if err != nil {
					return err
				}
				if patches, err = writePatches(o.Dir, dir, results, author); err != nil {
					return err
				}
			}
			for _, r := range results {
				// With --json the diffs are in the report; with -o, in
				// the patch files.
				if len(r.Patch) == 0 || o.JSON || cmd.String("patch-dir") != "" {
					continue
				}
				if err := writeDiff(res.s.out, r.Patch, res.s.outColor); err != nil {
					return err
				}
			}
			out.diffs, out.patches = true, patches
			printReport(res.s, o, results, out)
			if stopped != nil {
				return stopped
			}
			return statusOf(results)
		},
	}
}
