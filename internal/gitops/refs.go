package gitops

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
)

// CurrentBranch returns the short name of the branch HEAD points at,
// also when that branch has no commit yet, and false when HEAD is
// detached (or unreadable).
func (r *Repo) CurrentBranch() (string, bool) {
	target, ok := symbolicTarget(filepath.Join(r.gitDir, "HEAD"))
	if !ok {
		return "", false
	}
	name, ok := strings.CutPrefix(target, "refs/heads/")
	return name, ok && name != ""
}

// BranchTip returns the commit refs/heads/<name> holds, from its loose
// file in the common dir or else from packed-refs; exists is false when
// the branch does not exist. A symbolic or malformed ref is an error.
func (r *Repo) BranchTip(name string) (commit string, exists bool, err error) {
	return r.readRef("refs/heads/" + name)
}

// readRef reads a ref of the common dir: the loose file, else its line
// in packed-refs.
func (r *Repo) readRef(ref string) (string, bool, error) {
	data, err := fsread.ReadFile(filepath.Join(r.commonDir, filepath.FromSlash(ref)))
	var nr *fsread.NotRegularError
	switch {
	case err == nil:
		v := strings.TrimRight(string(data), "\r\n")
		if strings.HasPrefix(v, "ref:") {
			return "", false, fmt.Errorf("%s is a symbolic ref (%s)", ref, v)
		}
		if !isFullHex(v) {
			return "", false, fmt.Errorf("%s is malformed", ref)
		}
		return v, true, nil
	case errors.Is(err, fs.ErrNotExist), errors.As(err, &nr) && nr.Mode.IsDir(), errors.Is(err, syscall.ENOTDIR):
		return r.packedRef(ref)
	default:
		return "", false, fmt.Errorf("reading %s: %w", ref, err)
	}
}

// packedRef looks ref up in <commondir>/packed-refs.
func (r *Repo) packedRef(ref string) (string, bool, error) {
	var found string
	err := r.eachPackedRef(func(name, id string) bool {
		if name == ref {
			found = id
			return false
		}
		return true
	})
	return found, found != "", err
}

// eachPackedRef calls fn for each "<id> <name>" line of packed-refs
// until fn returns false. A missing file holds no refs.
func (r *Repo) eachPackedRef(fn func(name, id string) bool) error {
	f, _, err := fsread.Open(filepath.Join(r.commonDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' || line[0] == '^' {
			continue
		}
		id, name, ok := strings.Cut(line, " ")
		if !ok || !isFullHex(id) {
			return fmt.Errorf("unexpected line in packed-refs: %q", line)
		}
		if !fn(name, id) {
			return nil
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("reading packed-refs: %w", err)
	}
	return nil
}

// symbolicTarget returns the ref a "ref: <target>" file names.
func symbolicTarget(path string) (string, bool) {
	data, err := fsread.ReadFile(path)
	if err != nil {
		return "", false
	}
	v, ok := strings.CutPrefix(strings.TrimRight(string(data), "\r\n"), "ref:")
	return strings.TrimSpace(v), ok
}

// ValidBranchName reports whether name may name a branch, by the rules
// of `git check-ref-format --branch`: refs/heads/<name> must be a valid
// ref name (no "..", "@{", control characters, space, ~ ^ : ? * [ \,
// no component starting with "." or ending with ".lock", no empty
// component, no trailing "." or "/"), name must not start with "-" and
// must not be "HEAD". It returns an error wrapping ErrBadBranchName.
func ValidBranchName(name string) error {
	bad := func(why string) error {
		return fmt.Errorf("%w: %q %s", ErrBadBranchName, name, why)
	}
	switch {
	case name == "":
		return bad("is empty")
	case name == "HEAD":
		return bad("is reserved")
	case name == "@":
		return bad("is reserved")
	case strings.HasPrefix(name, "-"):
		return bad("starts with '-'")
	case strings.HasSuffix(name, "."):
		return bad("ends with '.'")
	case strings.Contains(name, ".."):
		return bad("contains '..'")
	case strings.Contains(name, "@{"):
		return bad("contains '@{'")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c < 0x20 || c == 0x7f || strings.IndexByte(" ~^:?*[\\", c) >= 0 {
			return bad(fmt.Sprintf("contains %q", c))
		}
	}
	for _, comp := range strings.Split(name, "/") {
		switch {
		case comp == "":
			return bad("has an empty path component")
		case strings.HasPrefix(comp, "."):
			return bad("has a component starting with '.'")
		case strings.HasSuffix(comp, ".lock"):
			return bad("has a component ending with '.lock'")
		}
	}
	return nil
}

// CheckedOutAt returns the top of the worktree where refs/heads/<branch>
// is checked out (HEAD points at it, or a rebase or bisect in that
// worktree is working on it): the main worktree or any linked one
// listed under <commondir>/worktrees. A bare repository's HEAD does
// not count.
func (r *Repo) CheckedOutAt(branch string) (string, bool) {
	ref := "refs/heads/" + branch
	if r.mainRoot != "" && usesRef(r.commonDir, ref) {
		return r.mainRoot, true
	}
	ents, err := os.ReadDir(filepath.Join(r.commonDir, "worktrees"))
	if err != nil {
		return "", false
	}
	for _, e := range ents {
		wtGitDir := filepath.Join(r.commonDir, "worktrees", e.Name())
		if !e.IsDir() || !usesRef(wtGitDir, ref) {
			continue
		}
		return worktreeTop(wtGitDir), true
	}
	return "", false
}

// HeadAt returns the top of the linked worktree whose HEAD is
// refs/heads/<branch> (not a rebase or bisect of it): the one worktree
// whose files a writer may keep in step with the branch. The main
// worktree does not count, nor does the current one: those are the
// user's checkout.
func (r *Repo) HeadAt(branch string) (string, bool) {
	ents, err := os.ReadDir(filepath.Join(r.commonDir, "worktrees"))
	if err != nil {
		return "", false
	}
	for _, e := range ents {
		wtGitDir := filepath.Join(r.commonDir, "worktrees", e.Name())
		t, sym := symbolicTarget(filepath.Join(wtGitDir, "HEAD"))
		if !e.IsDir() || !sym || t != "refs/heads/"+branch {
			continue
		}
		path := worktreeTop(wtGitDir)
		if !usesOnlyHead(wtGitDir) || r.isCurrentOrMain(path) {
			return "", false
		}
		return path, true
	}
	return "", false
}

// worktreeTop returns the top of the linked worktree whose git dir is
// wtGitDir, from its "gitdir" file (absolute, or relative to wtGitDir
// under worktree.useRelativePaths).
func worktreeTop(wtGitDir string) string {
	data, err := fsread.ReadFile(filepath.Join(wtGitDir, "gitdir"))
	if err != nil {
		return wtGitDir
	}
	p := strings.TrimRight(string(data), "\r\n")
	if !filepath.IsAbs(p) {
		p = filepath.Join(wtGitDir, p)
	}
	return filepath.Dir(p)
}

// usesOnlyHead reports whether a worktree is neither rebasing nor
// bisecting.
func usesOnlyHead(gitDir string) bool {
	for _, f := range []string{"rebase-merge", "rebase-apply", "BISECT_START"} {
		if _, err := os.Stat(filepath.Join(gitDir, f)); err == nil {
			return false
		}
	}
	return true
}

func (r *Repo) isCurrentOrMain(path string) bool {
	return SameDir(path, r.root) || (r.mainRoot != "" && SameDir(path, r.mainRoot))
}

// SameDir reports whether two paths name one directory.
func SameDir(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	ia, errA := os.Stat(a)
	ib, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(ia, ib)
}

// checkNotCheckedOut refuses a branch checked out in a worktree other
// than opts.Worktree, which must itself have the branch as its HEAD.
func (r *Repo) checkNotCheckedOut(opts WriteOptions) error {
	path, ok := r.CheckedOutAt(opts.Branch)
	if !ok {
		return nil
	}
	if opts.Worktree != "" && SameDir(path, opts.Worktree) {
		if head, ok := r.HeadAt(opts.Branch); ok && SameDir(head, path) {
			return nil
		}
	}
	return fmt.Errorf("%w: %s is checked out in the worktree at %s", ErrBranchCheckedOut, opts.Branch, path)
}

// usesRef reports whether the worktree with this git dir has ref
// checked out, or is rebasing or bisecting it.
func usesRef(gitDir, ref string) bool {
	if t, ok := symbolicTarget(filepath.Join(gitDir, "HEAD")); ok && t == ref {
		return true
	}
	for _, f := range []string{"rebase-merge/head-name", "rebase-apply/head-name"} {
		if data, err := fsread.ReadFile(filepath.Join(gitDir, f)); err == nil && strings.TrimSpace(string(data)) == ref {
			return true
		}
	}
	if data, err := fsread.ReadFile(filepath.Join(gitDir, "BISECT_START")); err == nil {
		if "refs/heads/"+strings.TrimSpace(string(data)) == ref {
			return true
		}
	}
	return false
}

// isFullHex reports whether s is a 40-digit lower-case hex object id.
func isFullHex(s string) bool {
	if len(s) != 40 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
