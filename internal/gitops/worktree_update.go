package gitops

// The state of an existing linked worktree: is it clean, and bringing
// it from one commit to the next after its branch moved.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/index"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// worktree is a working tree of r's repository and its git dir.
type worktree struct {
	root, gitDir string
}

// worktreeAt resolves the worktree whose top is path (relative to the
// current directory). It reads path's own ".git" rather than searching
// upwards, so that a broken worktree is an error instead of the
// enclosing repository, and it must share r's common dir.
func (r *Repo) worktreeAt(path string) (worktree, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return worktree{}, err
	}
	dotGit := filepath.Join(abs, ".git")
	fi, err := os.Lstat(dotGit)
	if err != nil {
		return worktree{}, fmt.Errorf("%s is not a worktree: %w", abs, err)
	}
	gd := dotGit
	if !fi.IsDir() {
		if gd, err = readGitFile(dotGit); err != nil {
			return worktree{}, err
		}
	}
	if !isGitDir(gd) || !SameDir(commonDirOf(gd), r.commonDir) {
		return worktree{}, fmt.Errorf("%s is not a worktree of the repository at %s", abs, r.commonDir)
	}
	return worktree{root: abs, gitDir: gd}, nil
}

// gitIn runs git on worktree w.
func (r *Repo) gitIn(ctx context.Context, w worktree, gitPath string, args ...string) ([]byte, error) {
	return r.runGit(ctx, gitPath, w.root, nil, nil, append([]string{"--git-dir=" + w.gitDir, "--work-tree=" + w.root}, args...)...)
}

// WorktreeClean reports whether the worktree at path (its top, as
// CheckedOutAt gives it) has no staged and no unstaged change to a
// tracked file; untracked files do not count. With git on PATH this is
// `git status --porcelain --untracked-files=no`. Without it, the index
// is compared with HEAD's tree and each file with the index, by
// content; a submodule counts as clean when its directory exists.
func (r *Repo) WorktreeClean(ctx context.Context, path string) (bool, error) {
	wt, err := r.worktreeAt(path)
	if err != nil {
		return false, err
	}
	if gitPath, err := lookGit("git"); err == nil {
		out, err := r.gitIn(ctx, wt, gitPath, "--no-optional-locks", "status", "--porcelain", "--untracked-files=no")
		if err != nil {
			return false, err
		}
		return len(bytes.TrimSpace(out)) == 0, nil
	}
	head, err := r.headOf(wt.gitDir)
	if err != nil {
		return false, err
	}
	want, err := r.treeFiles(head)
	if err != nil {
		return false, err
	}
	idx, err := r.readIndex(filepath.Join(wt.gitDir, "index"), wt.gitDir)
	if err != nil {
		return false, err
	}
	defer idx.Close()
	paths := idx.Paths()
	for p := range want {
		if _, ok := idx.Lookup(p); !ok {
			paths = append(paths, p)
		}
	}
	if err := idx.Err(); err != nil {
		return false, err
	}
	changed, err := r.localChanges(wt, want, idx, paths, 1)
	return len(changed) == 0, err
}

// LocalChangesError is UpdateWorktree's refusal: files of the worktree
// that the update would overwrite hold changes of their own (a staged
// or unstaged change to a tracked file, or an untracked file where a
// new one goes). Nothing was updated.
type LocalChangesError struct {
	Root  string   // the worktree's top
	Paths []string // the files, sorted
	// Untracked are the Paths that are in the way of a new file.
	Untracked []string
}

func (e *LocalChangesError) Error() string {
	return fmt.Sprintf("%s in the worktree at %s %s changes of its own that the update would overwrite; nothing was updated",
		strings.Join(e.Paths, ", "), e.Root, map[bool]string{true: "has", false: "have"}[len(e.Paths) == 1])
}

// UpdateInterruptedError is UpdateWorktree stopped by a signal while
// git wrote the worktree: some of Paths may hold To's content and some
// the old, with the index as it was. None of them had changes of their
// own (that was checked first), so restoring them from To finishes the
// update and loses nothing.
type UpdateInterruptedError struct {
	Root  string   // the worktree's top
	To    string   // the commit the update was bringing
	Paths []string // the files the update changes, sorted
	Err   error    // the context's error
}

func (e *UpdateInterruptedError) Error() string {
	return fmt.Sprintf("bringing the worktree at %s up to date was interrupted: %v", e.Root, e.Err)
}

func (e *UpdateInterruptedError) Unwrap() error { return e.Err }

// UpdateWorktree brings the index and files of the worktree at path
// from commit from's tree to commit to's, once the caller has moved
// the branch checked out there from from to to (HEAD there must
// resolve to to). Only the paths that differ between the two trees are
// touched. A local change to one of them (staged or not), or an
// untracked file where a new one goes, makes it fail with nothing
// changed and a *LocalChangesError naming every such file; local
// changes to other paths, and untracked files elsewhere, are kept
// (SPEC section 3, worktrees). The check is made here, by content, so
// that the files named are the same with git and without; then with
// git on PATH this is `git read-tree -m -u FROM TO` after refreshing
// the index's stat data; without it, the changed paths are written
// here, except that a path turning from a file into a directory or
// back is refused. A signal ends git (SPEC section 2): the error is then
// an *UpdateInterruptedError naming the paths left to bring over.
func (r *Repo) UpdateWorktree(ctx context.Context, path, from, to string) error {
	if !isFullHex(from) || !isFullHex(to) {
		return fmt.Errorf("UpdateWorktree wants full commit ids, not %q and %q", from, to)
	}
	wt, err := r.worktreeAt(path)
	if err != nil {
		return err
	}
	if head, err := r.headOf(wt.gitDir); err != nil {
		return err
	} else if head != to {
		return fmt.Errorf("HEAD of the worktree at %s is %s, not %s", wt.root, head, to)
	}
	if from == to {
		return nil
	}
	// Only the files that differ, as each commit has them: the paths
	// checked and written, and (for the file-or-directory check) every
	// file that turns into a directory or back, which differs too.
	fromFiles, toFiles, changed, err := r.changedCommitFiles(from, to)
	if err != nil {
		return err
	}
	if len(changed) == 0 {
		return nil
	}
	idx, err := r.readIndex(filepath.Join(wt.gitDir, "index"), wt.gitDir)
	if err != nil {
		return err
	}
	local, err := r.localChanges(wt, fromFiles, idx, changed, -1)
	idx.Close()
	if err != nil {
		return err
	}
	if len(local) > 0 {
		e := &LocalChangesError{Root: wt.root, Paths: local}
		for _, p := range local {
			if _, tracked := fromFiles[p]; !tracked {
				e.Untracked = append(e.Untracked, p)
			}
		}
		return e
	}
	if gitPath, err := lookGit("git"); err == nil {
		// read-tree compares stat data only and refuses a file whose
		// stat changed although its content did not.
		if _, err := r.gitIn(ctx, wt, gitPath, "update-index", "-q", "--refresh"); err != nil {
			return err
		}
		_, err := r.gitIn(ctx, wt, gitPath, "read-tree", "-m", "-u", from, to)
		if err != nil && ctx.Err() != nil {
			return &UpdateInterruptedError{Root: wt.root, To: to, Paths: changed, Err: ctx.Err()}
		}
		return err
	}
	for _, p := range changed {
		for dir := pathpkg.Dir(p); dir != "."; dir = pathpkg.Dir(dir) {
			_, inFrom := fromFiles[dir]
			_, inTo := toFiles[dir]
			if inFrom || inTo {
				return fmt.Errorf("%s changes between a file and a directory, which only git can check out in the worktree at %s", dir, wt.root)
			}
		}
	}
	return checkoutFiles(wt.root, oid.FromHex(to), changed)
}

// headOf returns the commit HEAD of the worktree with this git dir
// resolves to.
func (r *Repo) headOf(gitDir string) (string, error) {
	if target, ok := symbolicTarget(filepath.Join(gitDir, "HEAD")); ok {
		id, exists, err := r.readRef(target)
		if err != nil {
			return "", err
		}
		if !exists {
			return "", fmt.Errorf("%w: %s", ErrUnbornHead, target)
		}
		return id, nil
	}
	data, err := fsread.ReadFile(filepath.Join(gitDir, "HEAD"))
	if err != nil {
		return "", err
	}
	if id := strings.TrimSpace(string(data)); isFullHex(id) {
		return id, nil
	}
	return "", fmt.Errorf("%s is malformed", filepath.Join(gitDir, "HEAD"))
}

// treeFile is a file of a tree: everything git compares.
type treeFile struct {
	mode patch.Mode
	id   oid.ID
}

// treeFiles lists the files of commit's tree by path.
func (r *Repo) treeFiles(commit string) (map[string]treeFile, error) {
	c, err := r.readCommit(oid.FromHex(commit))
	if err != nil {
		return nil, fmt.Errorf("reading commit %s: %w", commit, err)
	}
	out := map[string]treeFile{}
	err = walkFiles(r.readTree, c.TreeHash, func(p string, e treeEntry) {
		out[p] = treeFile{mode: e.engineMode(), id: e.id}
	})
	return out, err
}

// localChanges returns the paths (sorted) whose index entry or file
// in wt differs from want (a path want lacks must be in neither), at
// most max of them (-1: all).
func (r *Repo) localChanges(wt worktree, want map[string]treeFile, idx *index.Index, paths []string, max int) ([]string, error) {
	cfg, err := r.config()
	if err != nil {
		return nil, err
	}
	fileMode := cfgBool(cfg, "core.filemode", true)
	slices.Sort(paths)
	var out []string
	for _, p := range paths {
		if len(out) == max {
			break
		}
		w, inTree := want[p]
		e, inIndex := idx.Lookup(p)
		if err := idx.Err(); err != nil {
			return nil, err
		}
		if inTree != inIndex || inIndex && (e.Unmerged || e.IntentToAdd || e.Mode != w.mode || e.ID != w.id) {
			out = append(out, p)
			continue
		}
		same, err := onDisk(wt.root, p, w, inTree, fileMode)
		if err != nil {
			return nil, err
		}
		if !same {
			out = append(out, p)
		}
	}
	return out, nil
}

// onDisk reports whether the file at p under root is want (or, when
// !exists, whether nothing is there), by content as git stores it.
func onDisk(root, p string, want treeFile, exists, fileMode bool) (bool, error) {
	full := root
	parts := strings.Split(p, "/")
	for i, c := range parts {
		full = filepath.Join(full, c)
		fi, err := os.Lstat(full)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			return !exists, nil
		}
		if err != nil {
			return false, err
		}
		if i < len(parts)-1 {
			// git never follows a link or a file as a directory.
			if !fi.IsDir() {
				return false, nil
			}
			continue
		}
		if !exists {
			return false, nil
		}
		var data []byte
		switch {
		case want.mode == patch.ModeGitlink:
			return fi.IsDir(), nil
		case want.mode == patch.ModeSymlink && fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(full)
			if err != nil {
				return false, err
			}
			data = []byte(target)
		case want.mode != patch.ModeSymlink && fi.Mode().IsRegular():
			if fileMode && (fi.Mode()&0o111 != 0) != (want.mode == patch.ModeExec) {
				return false, nil
			}
			if data, err = fsread.ReadFile(full); err != nil {
				return false, err
			}
		default:
			return false, nil
		}
		return oid.Sum(oid.Blob, data) == want.id, nil
	}
	return false, nil
}
