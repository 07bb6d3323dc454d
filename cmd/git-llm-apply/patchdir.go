package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// checkPatchDir fails when the -o path dir cannot be made a directory:
// it, or the nearest of its parents that exists, is not a directory (a
// regular file, a dangling symbolic link). apply and translate check
// it before they resolve or record anything, so that the failure costs
// nothing; done says what that was ("recorded", "written"). No -o
// (dir "") passes. dir is relative to at (-C), and messages name it as
// given.
func checkPatchDir(at, dir, done string) error {
	if dir == "" {
		return nil
	}
	for p := filepath.Clean(dir); ; p = filepath.Dir(p) {
		fi, err := os.Stat(under(at, p))
		switch {
		case err == nil && fi.IsDir():
			return nil
		case err == nil:
			return usageError("-o %s: %s is not a directory; nothing was %s", dir, p, done)
		case errors.Is(err, fs.ErrNotExist):
			if _, lerr := os.Lstat(under(at, p)); lerr == nil {
				return usageError("-o %s: %s is a symbolic link to nothing; nothing was %s", dir, p, done)
			}
		case !errors.Is(err, syscall.ENOTDIR):
			return usageError("-o %s: %v; nothing was %s", dir, pathErr(err), done)
		}
		if filepath.Dir(p) == p {
			return nil
		}
	}
}

// writePatches writes each reply that has a diff as one NNNN-<slug>.patch
// in dir, in the mailbox form of git format-patch, numbered over those
// replies, and returns each file's path by result index. A recorded
// reply's From line names its commit; author is the one the commits
// carry (or would carry: translate records nothing). dir is relative
// to at (-C), and so are the paths returned, as git format-patch -o
// prints them.
func writePatches(at, dir string, results []*engine.ReplyResult, author gitops.Ident) (map[int]string, error) {
	var todo []int
	for i, r := range results {
		if len(r.Patch) > 0 && (r.Status == engine.Recorded || r.Status == engine.Partial || r.Status == engine.Checked) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(under(at, dir), 0o777); err != nil {
		return nil, fmt.Errorf("cannot create the patch directory: %w", err)
	}
	paths := map[int]string{}
	for n, i := range todo {
		r := results[i]
		mail, err := patch.FormatMail(r.Patch, r.Changes, patch.MailOptions{
			Commit: r.Commit, Author: author.Name + " <" + author.Email + ">", Date: author.When,
			Message: r.Message, N: n + 1, Total: len(todo), Signature: "git-llm-apply",
		})
		if err != nil {
			return paths, err
		}
		p := filepath.Join(dir, patch.FileName(n+1, r.Message))
		if err := writeWhole(under(at, p), mail); err != nil {
			return paths, fmt.Errorf("cannot write the patch file: %w", err)
		}
		paths[i] = p
	}
	return paths, nil
}

// writeWhole writes data to path through a temporary file renamed over
// it, so that a run killed meanwhile leaves no truncated patch for git
// am to take.
func writeWhole(path string, data []byte) error {
	tmp := fmt.Sprintf("%s.%d.tmp", path, os.Getpid())
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // after a failure; renamed away otherwise
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
