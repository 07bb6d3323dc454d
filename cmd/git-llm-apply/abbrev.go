package main

import (
	"github.com/git-llm-apply/git-llm-apply/engine"
	"github.com/git-llm-apply/git-llm-apply/gitops"
)

// patchOptions abbreviates object names as git does in repo
// (core.abbrev, by default from the number of objects, each name
// lengthened until unique): the index lines of diffs and patch files,
// and the commit ids of the report. A core.abbrev git refuses stops
// the command, as it stops git.
func patchOptions(repo *gitops.Repo) (engine.PatchOptions, error) {
	n, err := repo.Abbrev()
	if err != nil {
		return engine.PatchOptions{}, &exitError{exitUsage, err}
	}
	return engine.PatchOptions{Abbrev: n, Unique: repo.ShortID}, nil
}
