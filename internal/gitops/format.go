package gitops

// The repository format: core.repositoryformatversion and the
// extensions, checked as git checks them before it reads a repository.

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
)

// ErrUnsupportedRepository: the repository is in a format git-llm-apply
// cannot read or write safely (or that git itself refuses). The error
// says which feature and what to do.
var ErrUnsupportedRepository = errors.New("unsupported repository")

// checkFormat applies git's rules (setup.c, as of git 2.39) to the
// common dir's config cfg: a format version above 1 is refused; in
// version 1 an extension git does not know is refused, while version 0
// ignores unknown extensions but refuses the ones that need version 1.
// On top of that, the extensions git knows but gitops does not
// implement are refused, naming the feature. Those that pass are safe
// here: noop; worktreeConfig (config.worktree is read); preciousObjects
// (nothing is ever deleted); partialClone (a missing object is an
// error saying how to fetch it, see missingPromised); objectFormat
// sha1.
func checkFormat(cfg *config.Values, dir string) error {
	version := 0
	if v, ok := cfg.Get("core.repositoryformatversion"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return fmt.Errorf("%w: %s/config: bad core.repositoryformatversion %q (git refuses it too)", ErrUnsupportedRepository, dir, v)
		}
		version = n
	}
	if version > 1 {
		return fmt.Errorf("%w: %s has core.repositoryformatversion = %d; git knows versions 0 and 1 and refuses newer ones, so does git-llm-apply (use the git that made this repository)",
			ErrUnsupportedRepository, dir, version)
	}
	var names []string
	for k := range cfg.All() {
		if name, ok := strings.CutPrefix(k, "extensions."); ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		value, _ := cfg.Get("extensions." + name)
		switch name {
		case "noop", "preciousobjects", "partialclone", "worktreeconfig":
			continue // known to git in either version
		}
		v1Only := name == "noop-v1" || name == "objectformat" || name == "refstorage" || name == "compatobjectformat"
		if version == 0 {
			if !v1Only {
				continue // git ignores what it does not know in version 0
			}
			return fmt.Errorf("%w: %s has extensions.%s, which needs core.repositoryformatversion = 1, but the version is 0; git refuses such a repository too: if the extension is meant, run git config core.repositoryformatversion 1",
				ErrUnsupportedRepository, dir, name)
		}
		switch {
		case name == "noop-v1":
		case name == "objectformat" && strings.EqualFold(value, "sha1"):
		case name == "objectformat" && strings.EqualFold(value, "sha256"):
			return fmt.Errorf("%w: SHA-256 repositories are not supported yet (%s has extensions.objectFormat = sha256; git-llm-apply reads and writes SHA-1 object ids only): apply the reply in a SHA-1 repository holding the same files with -o DIR, then git am DIR/*.patch here",
				ErrUnsupportedRepository, dir)
		case name == "refstorage" && strings.EqualFold(value, "files"):
		case name == "refstorage":
			return fmt.Errorf("%w: %s keeps its refs in the %s ref storage (extensions.refStorage), which is not supported: convert it with git refs migrate --ref-format=files (git 2.46 or newer)",
				ErrUnsupportedRepository, dir, value)
		default:
			return fmt.Errorf("%w: %s uses the repository extension extensions.%s = %s, which git-llm-apply does not know; like git (\"unknown repository extension found\"), it does not touch a repository it might read or write wrongly: use a git that supports the extension",
				ErrUnsupportedRepository, dir, name, value)
		}
	}
	return nil
}

// checkEnvironment refuses the variables that move a repository's
// object directory or common dir away from where gitops reads and
// writes them: objects written to one place while git looks in the
// other would leave a branch naming commits git cannot find. git sets
// them mostly inside its receive hooks (the quarantine).
func checkEnvironment(env func(string) (string, bool)) error {
	for _, name := range []string{"GIT_OBJECT_DIRECTORY", "GIT_COMMON_DIR"} {
		if v, _ := env(name); v != "" {
			return fmt.Errorf("%w: %s is set (%s), which git-llm-apply does not follow: it would write where git does not look; unset it and run again",
				ErrUnsupportedRepository, name, v)
		}
	}
	return nil
}
