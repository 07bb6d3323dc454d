package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/index"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// ErrWorktreePath: the path given for a new linked worktree exists and
// is not an empty directory; nothing was created.
var ErrWorktreePath = errors.New("worktree path exists and is not empty")

// AddWorktree adds a linked worktree at path with refs/heads/<branch>
// checked out, as `git worktree add PATH BRANCH` does; a relative path
// is taken from the current directory, and git's files record it
// absolute with symbolic links resolved. path must not exist or be an
// empty directory (else ErrWorktreePath); the branch must exist
// (ErrUnknownRevision) and not be checked out in any worktree
// (ErrBranchCheckedOut). With git on PATH, git does the work and its
// message is in the error. Without it, the worktree's administrative
// files are written here and the tree is checked out here: no checkout
// filters, sparse checkout or post-checkout hook. Either way a failure
// leaves no worktree registered and no file at path.
func (r *Repo) AddWorktree(ctx context.Context, path, branch string) error {
	if err := ValidBranchName(branch); err != nil {
		return err
	}
	tip, ok, err := r.BranchTip(branch)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: no branch %s", ErrUnknownRevision, branch)
	}
	// Checked here rather than left to git so that callers can match
	// the error whether git is installed or not.
	if at, ok := r.CheckedOutAt(branch); ok {
		return fmt.Errorf("%w: %s is checked out in the worktree at %s", ErrBranchCheckedOut, branch, at)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	existed, err := checkNewWorktreePath(abs)
	if err != nil {
		return err
	}
	if gitPath, err := lookGit("git"); err == nil {
		// git takes BRANCH as a branch because refs/heads/BRANCH exists
		// (checked above), not as a commit to detach at.
		_, registered := r.registeredAt(abs)
		_, err := r.runGit(ctx, gitPath, r.commonDir, nil, nil, "--git-dir="+r.gitDir, "worktree", "add", "--quiet", abs, branch)
		if err != nil && ctx.Err() != nil && !registered {
			r.removeHalfAdded(abs, existed)
		}
		return err
	}
	return r.addWorktreeFiles(abs, branch, oid.FromHex(tip), existed)
}

// removeHalfAdded removes what a `git worktree add` stopped by a
// signal left of the worktree at abs (SPEC section 2): git removes a
// worktree it had not finished checking out (its handler of SIGTERM),
// but one checked out whose post-checkout hook was still running
// stays registered. Its administrative directory goes, and the files
// at abs (all of them: abs was new, or an empty directory, which is
// emptied).
func (r *Repo) removeHalfAdded(abs string, existed bool) {
	if name, ok := r.registeredAt(abs); ok {
		os.RemoveAll(filepath.Join(r.commonDir, "worktrees", name))
	}
	if existed {
		clearDir(abs)
	} else {
		os.RemoveAll(abs)
	}
}

// checkNewWorktreePath accepts a path that does not exist or is an
// empty directory, as git does, and says which.
func checkNewWorktreePath(abs string) (existed bool, err error) {
	ents, err := os.ReadDir(abs)
	switch {
	case err == nil && len(ents) == 0:
		return true, nil
	case err == nil:
		return false, fmt.Errorf("%w: %s", ErrWorktreePath, abs)
	case errors.Is(err, fs.ErrNotExist):
		if _, lerr := os.Lstat(abs); lerr == nil {
			// A dangling symbolic link: git refuses it too.
			return false, fmt.Errorf("%w: %s", ErrWorktreePath, abs)
		}
		return false, nil
	case errors.Is(err, syscall.ENOTDIR):
		return false, fmt.Errorf("%w: %s is not a directory", ErrWorktreePath, abs)
	}
	return false, err
}

// addWorktreeFiles makes git's linked-worktree layout without git:
// <commondir>/worktrees/<name>/{HEAD,commondir,gitdir,index} and a
// ".git" file at abs, then checks the branch out.
func (r *Repo) addWorktreeFiles(abs, branch string, tip oid.ID, existed bool) (err error) {
	if name, ok := r.registeredAt(abs); ok {
		return fmt.Errorf("%s is a missing but already registered worktree (%s); run git worktree prune", abs, name)
	}
	admin := filepath.Join(r.commonDir, "worktrees")
	if err := os.MkdirAll(admin, 0o777); err != nil {
		return err
	}
	gd, name, err := mkdirUnique(admin, worktreeName(filepath.Base(abs)))
	if err != nil {
		return err
	}
	defer func() {
		if err == nil {
			return
		}
		os.RemoveAll(gd)
		if existed {
			clearDir(abs)
		} else {
			os.RemoveAll(abs)
		}
	}()
	// git locks the entry while it is incomplete, so that a concurrent
	// `git worktree prune` leaves it alone.
	locked := filepath.Join(gd, "locked")
	if err := os.WriteFile(locked, []byte("initializing\n"), 0o666); err != nil {
		return err
	}
	if err := os.MkdirAll(abs, 0o777); err != nil {
		return err
	}
	realWt, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return err
	}
	realCommon, err := filepath.EvalSymlinks(r.commonDir)
	if err != nil {
		return err
	}
	for _, f := range []struct{ path, content string }{
		{filepath.Join(gd, "gitdir"), filepath.ToSlash(filepath.Join(realWt, ".git")) + "\n"},
		{filepath.Join(gd, "commondir"), "../..\n"},
		{filepath.Join(gd, "HEAD"), "ref: refs/heads/" + branch + "\n"},
		{filepath.Join(abs, ".git"), "gitdir: " + filepath.ToSlash(filepath.Join(realCommon, "worktrees", name)) + "\n"},
	} {
		if err := os.WriteFile(f.path, []byte(f.content), 0o666); err != nil {
			return err
		}
	}
	if err := checkoutFiles(abs, tip, nil); err != nil {
		return err
	}
	if err := os.Remove(locked); err != nil {
		return err
	}
	return nil
}

// registeredAt finds a worktree entry whose gitdir file names abs.
// git records the path with links resolved; abs itself may be missing,
// so its parent is resolved.
func (r *Repo) registeredAt(abs string) (string, bool) {
	ents, err := os.ReadDir(filepath.Join(r.commonDir, "worktrees"))
	if err != nil {
		return "", false
	}
	want := []string{filepath.Join(abs, ".git")}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		want = append(want, filepath.Join(dir, filepath.Base(abs), ".git"))
	}
	for _, e := range ents {
		data, err := fsread.ReadFile(filepath.Join(r.commonDir, "worktrees", e.Name(), "gitdir"))
		if err == nil && slices.Contains(want, filepath.Clean(strings.TrimRight(string(data), "\r\n"))) {
			return e.Name(), true
		}
	}
	return "", false
}

// worktreeName is the name git gives the administrative directory of a
// worktree whose path ends in base: base turned into a valid ref name
// component (git's sanitize_refname_component), since the name also
// appears in refs such as worktrees/<name>/HEAD.
func worktreeName(base string) string {
	if base == "@" {
		return "-"
	}
	b := make([]byte, 0, len(base))
	var last byte
	for i := 0; i < len(base); i++ {
		c := base[i]
		switch {
		case c == '.' && last == '.':
			// ".." collapses to "."
		case c == '{' && last == '@', c < 0x20, c == 0x7f, strings.IndexByte(" :?[\\^~*", c) >= 0:
			b = append(b, '-')
		default:
			b = append(b, c)
		}
		last = c
	}
	if len(b) > 0 && base[0] == '.' {
		b[0] = '-'
	}
	if strings.HasSuffix(base, ".lock") {
		for bytes.HasSuffix(b, []byte(".lock")) {
			b = b[:len(b)-len(".lock")]
		}
	}
	return string(b)
}

// mkdirUnique creates dir/name, or dir/name1, dir/name2... when taken,
// as git numbers worktree names; mkdir decides, so two processes never
// get the same one.
func mkdirUnique(dir, name string) (path, got string, err error) {
	for n := 0; ; n++ {
		got = name
		if n > 0 {
			got = name + strconv.Itoa(n)
		}
		path = filepath.Join(dir, got)
		err := os.Mkdir(path, 0o777)
		if err == nil {
			return path, got, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", "", err
		}
	}
}

// clearDir empties a directory that was empty before we wrote to it.
func clearDir(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// checkoutFiles brings the files and index of the worktree at root to
// commit's tree (only paths, when given; else the whole tree into an
// empty worktree without an index). Files are written as git writes
// them without checkout filters; their index entries carry the stat
// data of the files written, so that git sees them clean without
// reading them, and the entries of other paths are kept as they are.
func checkoutFiles(root string, commit oid.ID, paths []string) error {
	// Opened as Open does, and without the environment: GIT_DIR may
	// name the caller's worktree, not this one.
	opened, err := open(root, func(string) (string, bool) { return "", false })
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(root); err != nil || opened.root != real {
		return fmt.Errorf("%s is not the top of a worktree", root)
	}
	files, err := opened.treeFiles(commit.String())
	if err != nil {
		return err
	}
	indexPath := filepath.Join(opened.gitDir, "index")
	var entries []index.Raw
	if paths == nil {
		paths = slices.Sorted(maps.Keys(files))
	} else {
		old, err := index.ReadRaw(indexPath)
		if err != nil {
			return fmt.Errorf("reading the index of %s: %w", root, err)
		}
		touched := map[string]bool{}
		for _, p := range paths {
			touched[p] = true
		}
		for _, e := range old {
			if !touched[e.Path] {
				entries = append(entries, e)
			}
		}
	}
	for _, p := range paths {
		if !safeWorktreePath(p) {
			return fmt.Errorf("checking out %s in %s: refusing the path %q", commit, root, p)
		}
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("checking out %s in %s: %w", commit, root, err)
		}
		f, ok := files[p]
		if !ok {
			// git removes the directories a deletion leaves empty.
			for d := filepath.Dir(full); d != root && os.Remove(d) == nil; d = filepath.Dir(d) {
			}
			continue
		}
		if err := opened.writeWorktreeFile(full, f); err != nil {
			return fmt.Errorf("checking out %s in %s: %w", commit, root, err)
		}
		fi, err := os.Lstat(full)
		if err != nil {
			return fmt.Errorf("checking out %s in %s: %w", commit, root, err)
		}
		entries = append(entries, index.NewRaw(p, uint32(f.mode), f.id, fi))
	}
	if err := index.Write(indexPath, entries); err != nil {
		return fmt.Errorf("writing the index of %s: %w", root, err)
	}
	return nil
}

// writeWorktreeFile writes the file f at full, which does not exist:
// a symbolic link, an empty directory for a submodule, else a file
// with the executable bits the mode asks for (less the umask).
func (r *Repo) writeWorktreeFile(full string, f treeFile) error {
	if err := os.MkdirAll(filepath.Dir(full), 0o777); err != nil {
		return err
	}
	if f.mode == patch.ModeGitlink {
		return os.Mkdir(full, 0o777)
	}
	data, err := r.readObject(oid.Blob, f.id)
	if err != nil {
		return err
	}
	if f.mode == patch.ModeSymlink {
		return os.Symlink(string(data), full)
	}
	perm := fs.FileMode(0o666)
	if f.mode == patch.ModeExec {
		perm = 0o777
	}
	w, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return err
}

// safeWorktreePath refuses a tree path that would write outside the
// worktree or into its .git, which git's fsck refuses too.
func safeWorktreePath(p string) bool {
	for _, c := range strings.Split(p, "/") {
		if c == "" || c == "." || c == ".." || strings.EqualFold(c, ".git") || strings.ContainsRune(c, '\\') {
			return false
		}
	}
	return true
}
