package gitops

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// ResolveCommit returns the full hex id of the commit rev names: HEAD
// (or "@"), a branch, a tag (annotated tags are peeled), a remote
// branch, a full ref name, a full or unambiguous short commit id,
// followed by any of "~", "~N", "^", "^N", "^{}", "^{commit}". Names
// are looked up as git does (refs/<rev>, refs/tags/, refs/heads/,
// refs/remotes/, refs/remotes/<rev>/HEAD), before short ids. It returns
// ErrUnbornHead when rev needs HEAD's commit and HEAD has none yet,
// else ErrUnknownRevision for anything that is not a commit.
func (r *Repo) ResolveCommit(rev string) (string, error) {
	unknown := func(why string) error {
		if why != "" {
			return fmt.Errorf("%w: %q: %s", ErrUnknownRevision, rev, why)
		}
		return fmt.Errorf("%w: %q", ErrUnknownRevision, rev)
	}
	cut := strings.IndexAny(rev, "~^")
	if cut < 0 {
		cut = len(rev)
	}
	base, suffix := rev[:cut], rev[cut:]
	if base == "@" {
		base = "HEAD"
	}
	if base == "" || strings.ContainsAny(base, ":") || strings.Contains(base, "@{") {
		return "", unknown("")
	}
	id, err := r.resolveBase(base)
	if err != nil {
		return "", err
	}
	if id.IsZero() {
		if b, ok := r.CurrentBranch(); base == "HEAD" || (ok && (base == b || base == "refs/heads/"+b || base == "heads/"+b)) {
			if _, exists, _ := r.BranchTip(b); !exists {
				return "", fmt.Errorf("%w: %q", ErrUnbornHead, rev)
			}
		}
		return "", unknown("")
	}
	c, err := r.peelToCommit(id)
	if err != nil {
		return "", unknown(err.Error())
	}
	for suffix != "" {
		op := suffix[0]
		suffix = suffix[1:]
		if op != '~' && op != '^' {
			return "", unknown("")
		}
		if op == '^' && strings.HasPrefix(suffix, "{") {
			end := strings.IndexByte(suffix, '}')
			if end < 0 || (suffix[1:end] != "" && suffix[1:end] != "commit") {
				return "", unknown("only ^{} and ^{commit} are supported")
			}
			suffix = suffix[end+1:]
			continue
		}
		digits := len(suffix) - len(strings.TrimLeft(suffix, "0123456789"))
		n := 1
		if digits > 0 {
			if n, err = strconv.Atoi(suffix[:digits]); err != nil {
				return "", unknown("")
			}
			suffix = suffix[digits:]
		}
		switch {
		case op == '^' && n == 0:
		case op == '^':
			if n > len(c.ParentHashes) {
				return "", unknown(fmt.Sprintf("%s has no parent %d", c.Hash, n))
			}
			if c, err = r.readCommit(c.ParentHashes[n-1]); err != nil {
				return "", unknown(err.Error())
			}
		default: // '~'
			for ; n > 0; n-- {
				if len(c.ParentHashes) == 0 {
					return "", unknown(fmt.Sprintf("%s has no parent", c.Hash))
				}
				if c, err = r.readCommit(c.ParentHashes[0]); err != nil {
					return "", unknown(err.Error())
				}
			}
		}
	}
	return c.Hash.String(), nil
}

// resolveBase finds the object a name without suffix stands for; the
// zero hash means not found.
func (r *Repo) resolveBase(base string) (plumbing.Hash, error) {
	if len(base) == 40 && isHex(base) {
		return plumbing.NewHash(base), nil
	}
	rules := plumbing.RefRevParseRules
	if !strings.HasPrefix(base, "refs/") && strings.Trim(base, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" {
		rules = rules[1:] // only refs and pseudo-refs like ORIG_HEAD as they are
	}
	for _, rule := range rules {
		ref, err := storer.ResolveReference(r.repo.Storer, plumbing.ReferenceName(fmt.Sprintf(rule, base)))
		// Errors other than "not found" (a directory where a ref file
		// would be, say) also mean the rule does not apply.
		if err == nil && ref.Type() == plumbing.HashReference {
			return ref.Hash(), nil
		}
	}
	if len(base) >= 4 && len(base) < 40 && isHex(base) {
		return r.resolveShortID(strings.ToLower(base))
	}
	return plumbing.ZeroHash, nil
}

// resolveShortID expands a short id. Several matches are ambiguous
// unless exactly one of them leads to a commit.
func (r *Repo) resolveShortID(short string) (plumbing.Hash, error) {
	lister, ok := r.repo.Storer.(interface {
		HashesWithPrefix(prefix []byte) ([]plumbing.Hash, error)
	})
	if !ok {
		return plumbing.ZeroHash, nil
	}
	prefix, _ := hex.DecodeString(short[:len(short)&^1])
	hashes, err := lister.HashesWithPrefix(prefix)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("gitops: %w", err)
	}
	var all, commits []plumbing.Hash
	for _, h := range hashes {
		if !strings.HasPrefix(h.String(), short) {
			continue
		}
		all = append(all, h)
		if _, err := r.peelToCommit(h); err == nil {
			commits = append(commits, h)
		}
	}
	switch {
	case len(all) == 1:
		return all[0], nil
	case len(commits) == 1:
		return commits[0], nil
	case len(all) > 1:
		return plumbing.ZeroHash, fmt.Errorf("%w: short id %s is ambiguous", ErrUnknownRevision, short)
	}
	return plumbing.ZeroHash, nil
}

// peelToCommit follows annotated tags down to a commit.
func (r *Repo) peelToCommit(h plumbing.Hash) (*object.Commit, error) {
	for range 16 {
		o, err := r.readEncoded(h)
		if err != nil {
			return nil, fmt.Errorf("object %s: %w", h, err)
		}
		switch o.Type() {
		case plumbing.CommitObject:
			return object.DecodeCommit(r.repo.Storer, o)
		case plumbing.TagObject:
			t, err := object.DecodeTag(r.repo.Storer, o)
			if err != nil {
				return nil, err
			}
			h = t.Target
		default:
			return nil, fmt.Errorf("%s is a %s, not a commit", h, o.Type())
		}
	}
	return nil, fmt.Errorf("tag chain too long at %s", h)
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') && (c < 'A' || c > 'F') {
			return false
		}
	}
	return true
}
