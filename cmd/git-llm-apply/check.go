package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/engine"
	"github.com/git-llm-apply/git-llm-apply/gitops"
)

func checkCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:      "check",
		Usage:     "resolve every edit and report, writing nothing",
		ArgsUsage: "[REPLY ...]",
		Description: `Resolves each reply against --base (the index by default) exactly as apply
would, and reports. Nothing is written: no object, no ref. Exit status 0
means apply would succeed.`,
		Flags:        commonFlags(),
		OnUsageError: usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			o, err := readCommon(cmd)
			if err != nil {
				return err
			}
			_, results, err := resolveOnly(o, s)
			if err != nil {
				return err
			}
			report(s, o, results, outputs{})
			return statusOf(results)
		},
	}
}

// resolveOnly runs the replies against the base without recording.
func resolveOnly(o commonOptions, s streams) (*gitops.Repo, []*engine.ReplyResult, error) {
	repo, err := openRepo(o.Dir)
	if err != nil {
		return nil, nil, err
	}
	inputs, err := readReplies(o.Replies, s.in)
	if err != nil {
		return nil, nil, err
	}
	src, _, err := openBase(repo, o.Base)
	if err != nil {
		return nil, nil, err
	}
	results, err := engine.Run(inputs, src, nil, engine.RunOptions{Format: o.Format, Fuzz: o.Fuzz, ShellOps: o.ShellOps})
	return repo, results, err
}
