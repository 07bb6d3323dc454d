package main

import (
	"context"
	"errors"

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
			_, results, stopped, err := resolveOnly(o, s)
			if err != nil {
				return err
			}
			report(s, o, results, outputs{stopped: stopped != nil, unread: unreadOf(stopped)})
			if stopped != nil {
				return stopped
			}
			return statusOf(results)
		},
	}
}

// resolveOnly runs the replies against the base without recording.
// An interrupt ends the run early: the results so far come back with
// stopped, the error that says where it stopped.
func resolveOnly(o commonOptions, s streams) (repo *gitops.Repo, results []*engine.ReplyResult, stopped *stopError, err error) {
	if repo, err = openRepo(o.Dir); err != nil {
		return nil, nil, nil, err
	}
	inputs, err := readReplies(o.Replies, s.in, o.Limits.ReplySize)
	if err != nil {
		return nil, nil, nil, err
	}
	src, _, err := openBase(repo, o.Base)
	if err != nil {
		return nil, nil, nil, err
	}
	stop, release := onInterrupt()
	defer release()
	results, err = engine.Run(inputs, src, nil, engine.RunOptions{Format: o.Format, Fuzz: o.Fuzz, ShellOps: o.ShellOps, Interrupt: stop, Limits: o.Limits})
	if errors.Is(err, engine.ErrInterrupted) {
		return repo, results, &stopError{interruptedError(results, inputs, ""), unread(results, inputs)}, nil
	}
	return repo, results, nil, err
}
