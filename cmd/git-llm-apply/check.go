package main

import (
	"context"
	"errors"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
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
		Action: func(ctx context.Context, cmd *cli.Command) error {
			o, err := readCommon(cmd)
			if err != nil {
				return err
			}
			res, err := resolveOnly(ctx, o, s)
			if err != nil {
				return err
			}
			out, stopped := interruption(res.stop, res.results, res.inputs, "")
			printReport(res.s, o, res.results, out)
			if stopped != nil {
				return stopped
			}
			return statusOf(res.results)
		},
	}
}

// resolved is what check and translate learn from the replies.
type resolved struct {
	repo    *gitops.Repo
	inputs  []engine.Input
	results []*engine.ReplyResult
	stop    error   // the engine.InterruptError that ended the run, or nil
	s       streams // the command's, with its colours decided
}

// resolveOnly runs the replies against the base without recording.
func resolveOnly(ctx context.Context, o commonOptions, s streams) (*resolved, error) {
	repo, err := openRepo(o.Dir, o.DirArg)
	if err != nil {
		return nil, err
	}
	patch, err := patchOptions(repo)
	if err != nil {
		return nil, err
	}
	if s, err = s.withColor(o, repo); err != nil {
		return nil, err
	}
	s.at = placeOf(o.Dir, o.DirArg, repo)
	inputs, err := readReplies(o.Dir, o.Replies, s.in, o.Limits.ReplySize)
	if err != nil {
		return nil, err
	}
	src, _, err := openBase(repo, o.Base)
	if err != nil {
		return nil, err
	}
	other, otherName := otherBase(repo, o.Base, src)
	defer interruptible(ctx)()
	m := progress(s, o, inputs)
	results, err := engine.Run(ctx, inputs, src, nil, engine.RunOptions{Format: o.Format, Fuzz: o.Fuzz, ShellOps: o.ShellOps,
		Limits: o.Limits, Progress: m.hook(), Other: other, OtherName: otherName, Patch: patch})
	m.stop(err == nil)
	res := &resolved{repo: repo, inputs: inputs, results: results, s: s}
	if errors.Is(err, engine.ErrInterrupted) {
		res.stop, err = err, nil
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}
