package gitops

// Partial clones: objects the clone's filter left out are fetched from
// the promisor remote on demand, which only git knows how to do, and
// which is not done here: a fetch runs the transport the repository
// configures (core.sshCommand, remote.<name>.uploadpack, credential
// helpers, proxies, and the automatic gc with its hook), and check,
// translate and apply run no code the repository configures (SPEC
// section 5). The error says which command fetches the object.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// ErrMissingObject: an object this partial clone left out is needed.
// The error says which and how to fetch it.
var ErrMissingObject = errors.New("object missing from this partial clone")

// isPartialClone reports whether objects may be missing on purpose: a
// promisor remote is configured (remote.<name>.promisor, which git
// clone --filter sets) or extensions.partialClone names one (older
// gits set that).
func (r *Repo) isPartialClone() bool {
	cfg, err := r.config()
	if err != nil {
		return false
	}
	if v, _ := cfg.Get("extensions.partialclone"); v != "" {
		return true
	}
	for k := range cfg.All() {
		if strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".promisor") && cfgBool(cfg, k, false) {
			return true
		}
	}
	return false
}

// missingPromised is the error for object id, which this partial clone
// left out: the command that fetches it, run where git runs commands
// of this repository.
func (r *Repo) missingPromised(id oid.ID) error {
	return fmt.Errorf("%w, and git llm-apply does not fetch (a fetch runs the transport the repository configures); fetch it with git -C %s cat-file -p %s >/dev/null, then run again",
		ErrMissingObject, shquote.Word(r.hookCwd()), id)
}
