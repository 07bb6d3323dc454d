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
	base, suffix := splitRevision(rev)
	if base == "" || strings.ContainsAny(base, ":") || strings.Contains(base, "@{") {
		return "", unknownRevision(rev, "")
	}
	id, err := r.resolveBase(base)
	if err != nil {
		return "", err
	}
	if id.IsZero() {
		if r.unbornName(base) {
			return "", fmt.Errorf("%w: %q", ErrUnbornHead, rev)
		}
		return "", unknownRevision(rev, "")
	}
	c, err := r.peelToCommit(id)
	if err != nil {
		return "", unknownRevision(rev, err.Error())
	}
	for suffix != "" {
		var s revStep
		if s, suffix, err = nextRevStep(rev, suffix); err != nil {
			return "", err
		}
		if c, err = r.step(rev, c, s); err != nil {
			return "", err
		}
	}
	return c.Hash.String(), nil
}

// unknownRevision is the error of a rev that names no commit, saying
// why when why is not empty.
func unknownRevision(rev, why string) error {
	if why != "" {
		return fmt.Errorf("%w: %q: %s", ErrUnknownRevision, rev, why)
	}
	return fmt.Errorf("%w: %q", ErrUnknownRevision, rev)
}

// splitRevision splits rev into its name and the suffix of "~" and "^"
// steps after it; the name "@" is HEAD.
func splitRevision(rev string) (base, suffix string) {
	cut := strings.IndexAny(rev, "~^")
	if cut < 0 {
		cut = len(rev)
	}
	base, suffix = rev[:cut], rev[cut:]
	if base == "@" {
		base = "HEAD"
	}
	return base, suffix
}

// unbornName reports whether base, a name that resolves to nothing,
// names the current branch (or HEAD) and that branch has no commit yet.
func (r *Repo) unbornName(base string) bool {
	b, ok := r.CurrentBranch()
	if base != "HEAD" && !(ok && (base == b || base == "refs/heads/"+b || base == "heads/"+b)) {
		return false
	}
	_, exists, _ := r.BranchTip(b)
	return !exists
}

// revStep is one step of a revision's suffix: "^N" (parent N; "^0",
// "^{}" and "^{commit}" stay on the commit) or "~N" (N first parents
// back).
type revStep struct {
	op byte // '^' or '~'
	n  int
}

// nextRevStep reads the first step of suffix and returns the rest;
// the error is an ErrUnknownRevision for rev.
func nextRevStep(rev, suffix string) (revStep, string, error) {
	s := revStep{op: suffix[0], n: 1}
	suffix = suffix[1:]
	if s.op != '~' && s.op != '^' {
		return s, suffix, unknownRevision(rev, "")
	}
	if s.op == '^' && strings.HasPrefix(suffix, "{") {
		end := strings.IndexByte(suffix, '}')
		if end < 0 || (suffix[1:end] != "" && suffix[1:end] != "commit") {
			return s, suffix, unknownRevision(rev, "only ^{} and ^{commit} are supported")
		}
		s.n = 0 // the commit itself
		return s, suffix[end+1:], nil
	}
	digits := len(suffix) - len(strings.TrimLeft(suffix, "0123456789"))
	if digits > 0 {
		var err error
		if s.n, err = strconv.Atoi(suffix[:digits]); err != nil {
			return s, suffix, unknownRevision(rev, "")
		}
		suffix = suffix[digits:]
	}
	return s, suffix, nil
}

// step takes step s back from commit c; the error is an
// ErrUnknownRevision for rev.
func (r *Repo) step(rev string, c *commit, s revStep) (*commit, error) {
	var err error
	switch {
	case s.op == '^' && s.n == 0:
	case s.op == '^':
		if s.n > len(c.Parents) {
			return c, unknownRevision(rev, fmt.Sprintf("%s has no parent %d", c.Hash, s.n))
		}
		if c, err = r.readCommit(c.Parents[s.n-1]); err != nil {
			return c, unknownRevision(rev, err.Error())
		}
	default: // '~'
		for n := s.n; n > 0; n-- {
			if len(c.Parents) == 0 {
				return c, unknownRevision(rev, fmt.Sprintf("%s has no parent", c.Hash))
			}
			if c, err = r.readCommit(c.Parents[0]); err != nil {
				return c, unknownRevision(rev, err.Error())
			}
		}
	}
	return c, nil
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
