package gitops

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// ErrDubiousOwnership: the repository found belongs to another user
// and safe.directory does not name it, so its configuration and
// attributes, which that user wrote, are not read (SPEC section 5).
var ErrDubiousOwnership = errors.New("detected dubious ownership in repository")

// ownershipError is git's refusal, with git's advice.
type ownershipError struct{ path string }

func (e *ownershipError) Error() string {
	return fmt.Sprintf("%s at '%s'\nTo add an exception for this directory, call:\n\n\tgit config --global --add safe.directory %s",
		ErrDubiousOwnership, e.path, shquote.Word(e.path))
}

func (e *ownershipError) Unwrap() error { return ErrDubiousOwnership }

// checkOwnership refuses a discovered repository as git 2.39's
// ensure_valid_ownership (setup.c) does: the ".git" file (a linked
// worktree's or a submodule's, "" when there is none), the top of the
// working tree ("" when bare) and the git dir must each be owned by
// the current user, else safe.directory must name the repository: its
// top, or its git dir when bare (SPEC section 5). Like git, a
// repository GIT_DIR names is not checked.
func checkOwnership(gitFile, top, gitDir string, env func(string) (string, bool)) error {
	assume, err := config.EnvBool(env, "GIT_TEST_ASSUME_DIFFERENT_OWNER")
	if err != nil {
		return err
	}
	if !assume && ownedByUs(gitFile, env) && ownedByUs(top, env) && ownedByUs(gitDir, env) {
		return nil
	}
	path := top
	if path == "" {
		path = gitDir
	}
	cfg, err := config.ReadProtected(env)
	if err != nil {
		return err
	}
	home, _ := env("HOME")
	safe := false
	for _, v := range cfg.Multi("safe.directory") {
		switch v {
		case "":
			safe = false // an empty value resets the list
		case "*":
			safe = true
		default:
			// git 2.39 compares the value, "~/" expanded, with the
			// path as it is: no realpath, no trailing "/*".
			if config.ExpandHome(v, home) == path {
				safe = true
			}
		}
	}
	if !safe {
		return &ownershipError{path}
	}
	return nil
}

// ownedByUs reports whether path ("" passes) is owned by the effective
// user, not following a symbolic link; root also owns what the user
// SUDO_UID names owns, as for git run under sudo.
func ownedByUs(path string, env func(string) (string, bool)) bool {
	if path == "" {
		return true
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return false
	}
	uid, ok := fileOwner(fi)
	if !ok {
		return true // no owner to compare (not a Unix file system)
	}
	euid := uint64(os.Geteuid())
	if euid == 0 && uid != 0 {
		if v, ok := env("SUDO_UID"); ok {
			// git's extract_id_from_env: strtoul, the whole value.
			if n, err := strconv.ParseUint(strings.TrimLeft(v, " \t\n\v\f\r"), 10, 32); err == nil {
				euid = n
			}
		}
	}
	return uid == euid
}
