//go:build !linux && !darwin

package gitops

import (
	"errors"
	"os"
)

// writeOutFile: no writeout without a flush here, so the callers
// flush, as git does when sync_file_range is missing.
func writeOutFile(*os.File) error { return errors.ErrUnsupported }
