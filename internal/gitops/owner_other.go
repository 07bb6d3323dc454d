//go:build !unix

package gitops

import "io/fs"

// fileOwner has no user id to give where files have none in Unix's
// sense (Windows, where git compares security identifiers, which this
// check does not read): ownership is not checked there.
func fileOwner(fs.FileInfo) (uint64, bool) { return 0, false }
