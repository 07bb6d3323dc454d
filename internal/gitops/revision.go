package gitops

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
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
			if n > len(c.Parents) {
				return "", unknown(fmt.Sprintf("%s has no parent %d", c.Hash, n))
			}
			if c, err = r.readCommit(c.Parents[n-1]); err != nil {
				return "", unknown(err.Error())
			}
		default: // '~'
			for ; n > 0; n-- {
				if len(c.Parents) == 0 {
					return "", unknown(fmt.Sprintf("%s has no parent", c.Hash))
				}
				if c, err = r.readCommit(c.Parents[0]); err != nil {
					return "", unknown(err.Error())
				}
			}
		}
	}
	return c.Hash.String(), nil
}

// refRevParseRules are the places git looks for a ref's short name, in
// its order (ref_rev_parse_rules in git's refs.c).
var refRevParseRules = []string{
	"%s",
	"refs/%s",
	"refs/tags/%s",
	"refs/heads/%s",
	"refs/remotes/%s",
	"refs/remotes/%s/HEAD",
}

// resolveBase finds the object a name without suffix stands for; the
// zero hash means not found.
func (r *Repo) resolveBase(base string) (oid.ID, error) {
	if len(base) == 40 && isHex(base) {
		return oid.FromHex(base), nil
	}
	rules := refRevParseRules
	if !strings.HasPrefix(base, "refs/") && strings.Trim(base, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" {
		rules = rules[1:] // only refs and pseudo-refs like ORIG_HEAD as they are
	}
	for _, rule := range rules {
		if id, ok := r.resolveRef(fmt.Sprintf(rule, base)); ok {
			return id, nil
		}
	}
	if len(base) >= 4 && len(base) < 40 && isHex(base) {
		return r.resolveShortID(strings.ToLower(base))
	}
	return oid.Zero, nil
}

// resolveRef follows ref (and the symbolic refs it leads to) to an
// id. Anything in the way (no such ref, a directory where the ref file
// would be, a malformed file, a chain of symbolic refs deeper than
// git's five) means the ref does not resolve.
func (r *Repo) resolveRef(ref string) (oid.ID, bool) {
	for range 6 {
		if !safeRefName(ref) {
			return oid.Zero, false
		}
		dir := r.commonDir
		if perWorktreeRef(ref) {
			dir = r.gitDir
		}
		data, err := fsread.ReadFile(filepath.Join(dir, filepath.FromSlash(ref)))
		if err != nil {
			var nr *fsread.NotRegularError
			if !errors.Is(err, fs.ErrNotExist) && !(errors.As(err, &nr) && nr.Mode.IsDir()) && !errors.Is(err, syscall.ENOTDIR) {
				return oid.Zero, false
			}
			id, ok, err := r.packedRef(ref)
			if err != nil || !ok || !isFullHex(id) {
				return oid.Zero, false
			}
			return oid.FromHex(id), true
		}
		line, _, _ := strings.Cut(strings.TrimSpace(string(data)), "\n")
		if target, ok := strings.CutPrefix(line, "ref:"); ok {
			ref = strings.TrimSpace(target)
			continue
		}
		if len(line) < hexLen || !isHex(line[:hexLen]) || (len(line) > hexLen && line[hexLen] != ' ' && line[hexLen] != '\t') {
			return oid.Zero, false
		}
		return oid.FromHex(line[:hexLen]), true
	}
	return oid.Zero, false
}

// perWorktreeRef: the refs each worktree keeps in its own git dir
// (gitrepository-layout): HEAD and the other pseudo-refs, and refs
// under refs/bisect, refs/worktree and refs/rewritten.
func perWorktreeRef(ref string) bool {
	if !strings.HasPrefix(ref, "refs/") {
		return true
	}
	for _, p := range []string{"refs/bisect/", "refs/worktree/", "refs/rewritten/"} {
		if strings.HasPrefix(ref, p) {
			return true
		}
	}
	return false
}

// safeRefName keeps a name from leaving the git dir: no empty, "." or
// ".." component, no backslash.
func safeRefName(ref string) bool {
	if ref == "" || strings.ContainsAny(ref, "\\\x00") {
		return false
	}
	for _, c := range strings.Split(ref, "/") {
		if c == "" || c == "." || c == ".." {
			return false
		}
	}
	return true
}

// resolveShortID expands a short id. Several matches are ambiguous
// unless exactly one of them leads to a commit.
func (r *Repo) resolveShortID(short string) (oid.ID, error) {
	hashes, err := r.objects().WithPrefix(short)
	if err != nil {
		return oid.Zero, err
	}
	var all, commits []oid.ID
	for _, h := range hashes {
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
		return oid.Zero, fmt.Errorf("%w: short id %s is ambiguous", ErrUnknownRevision, short)
	}
	return oid.Zero, nil
}

// peelToCommit follows annotated tags down to a commit.
func (r *Repo) peelToCommit(h oid.ID) (*commit, error) {
	for range 16 {
		t, data, err := r.readRaw(h)
		if err != nil {
			return nil, fmt.Errorf("object %s: %w", h, err)
		}
		switch t {
		case oid.Commit:
			return parseCommit(h, data)
		case oid.Tag:
			if h, _, err = tagTarget(h, data); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("%s is a %s, not a commit", h, t)
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
