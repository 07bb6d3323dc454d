package main

import (
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// patchOptions abbreviates object names as git does in repo
// (core.abbrev, by default from the number of objects, each name
// lengthened until unique): the index lines of diffs and patch files,
// and the commit ids of the report. A core.abbrev git refuses stops
// the command, as it stops git.
func patchOptions(repo *gitops.Repo) (patch.Options, error) {
	n, err := repo.Abbrev()
	if err != nil {
		return patch.Options{}, err
	}
	return patch.Options{Abbrev: n, Unique: repo.ShortID}, nil
}
