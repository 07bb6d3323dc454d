package gitops

// Partial clones: objects the clone's filter left out are fetched from
// the promisor remote on demand, which only git knows how to do.

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ErrMissingObject: an object this partial clone left out could not be
// fetched. The error says which and what to do.
var ErrMissingObject = errors.New("gitops: object missing from this partial clone")

// isPartialClone reports whether objects may be missing on purpose: a
// promisor remote is configured (remote.<name>.promisor, which git
// clone --filter sets) or extensions.partialClone names one (older
// gits set that).
func (r *Repo) isPartialClone() bool {
	cfg, err := r.config()
	if err != nil {
		return false
	}
	if v, _ := cfg.get("extensions.partialclone"); v != "" {
		return true
	}
	for k, v := range cfg.vals {
		if strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".promisor") && parseBool(v) {
			return true
		}
	}
	return false
}

// readPromised reads object id, which is not in the object directories
// of this partial clone, through git cat-file: git fetches it from the
// promisor remote (go-git knows nothing of promisors), and the next
// read finds it in the pack git wrote.
func (r *Repo) readPromised(id plumbing.Hash) (plumbing.ObjectType, []byte, error) {
	gitPath, err := lookGit("git")
	if err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("%w, and fetching it needs git, which is not on PATH: fetch it with git cat-file -p %s, then run again",
			ErrMissingObject, id)
	}
	out, err := r.runGit(gitPath, r.hookCwd(), strings.NewReader(id.String()+"\n"), nil,
		"--git-dir="+r.gitDir, "cat-file", "--batch")
	if err != nil {
		// git's first line says why (the remote is gone, refused us...);
		// the rest is advice about remotes in general.
		why, _, _ := strings.Cut(strings.TrimPrefix(err.Error(), "gitops: "), "\n")
		return plumbing.InvalidObject, nil, fmt.Errorf("%w, and git could not fetch it from the promisor remote (%s); fetch it with git cat-file -p %s once the remote is reachable, then run again",
			ErrMissingObject, why, id)
	}
	// "<id> <type> <size>\n<content>\n", or "<id> missing\n".
	head, rest, _ := bytes.Cut(out, []byte{'\n'})
	f := strings.Fields(string(head))
	if len(f) == 2 && f[1] == "missing" {
		return plumbing.InvalidObject, nil, fmt.Errorf("%w, and the promisor remote did not send it", ErrMissingObject)
	}
	if len(f) != 3 || f[0] != id.String() {
		return plumbing.InvalidObject, nil, fmt.Errorf("gitops: git cat-file %s: unexpected output %q", id, shorten(string(head), 80))
	}
	t, err := plumbing.ParseObjectType(f[1])
	size, err2 := strconv.Atoi(f[2])
	if err != nil || err2 != nil || size < 0 || len(rest) != size+1 {
		return plumbing.InvalidObject, nil, fmt.Errorf("gitops: git cat-file %s: unexpected output %q", id, shorten(string(head), 80))
	}
	data := rest[:size]
	if got := plumbing.ComputeHash(t, data); got != id {
		return plumbing.InvalidObject, nil, fmt.Errorf("gitops: git cat-file %s: content hashes to %s", id, got)
	}
	return t, data, nil
}
