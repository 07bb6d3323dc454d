package gitops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// StagedFile is a file whose staged content is what the next commit
// would record and differs from HEAD's.
type StagedFile struct {
	Path string     // slash-separated, from the top of the working tree
	Mode patch.Mode // patch.ModeRegular or patch.ModeExec
	ID   string     // the staged blob's id
	r    *Repo
}

// Read returns the staged content: the blob the index holds, not the
// working tree file.
func (f StagedFile) Read() ([]byte, error) {
	return f.r.readObject(oid.Blob, oid.FromHex(f.ID))
}

// StagedFiles lists, in path order, the regular and executable files
// whose index entry is added or changed relative to HEAD (every entry
// when HEAD has no commit yet): the files a pre-commit hook checks.
// Deletions, symbolic links, submodules, unmerged paths and `git add
// -N` entries are left out, as none holds staged text.
//
// It runs `git diff-index --cached` rather than comparing the index
// with HEAD's tree itself: git walks both in one pass (split and
// sparse indexes included, which readIndex would hand to git anyway),
// so that thousands of staged files cost one process. The index
// is the one GIT_INDEX_FILE names, as for every reader of this
// package; that is the temporary index git hands a pre-commit hook
// during `git commit -a` or `git commit PATH`. Blobs are read without
// git. It returns the error of ResolveCommit when HEAD is unreadable,
// and an error when git cannot be run or fails.
func (r *Repo) StagedFiles(ctx context.Context) ([]StagedFile, error) {
	base := emptyTree.String()
	switch head, err := r.ResolveCommit("HEAD"); {
	case err == nil:
		base = head
	case !errors.Is(err, ErrUnbornHead):
		return nil, err
	}
	out, err := r.gitHere(ctx, nil, "diff-index", "--cached", "-z", "--no-renames", "--ita-invisible-in-index",
		"--diff-filter=AMT", base, "--")
	if err != nil {
		return nil, err
	}
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(fields) == 1 && fields[0] == "" {
		return nil, nil
	}
	if len(fields)%2 != 0 {
		return nil, fmt.Errorf("git diff-index: unexpected output %q", shorten(string(out), 200))
	}
	var files []StagedFile
	for i := 0; i < len(fields); i += 2 {
		// ":<old mode> <new mode> <old id> <new id> <status>", then the path.
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		if len(meta) != 5 || !isFullHex(meta[3]) {
			return nil, fmt.Errorf("git diff-index: unexpected record %q", fields[i])
		}
		var mode patch.Mode
		switch meta[1] {
		case "100644":
			mode = patch.ModeRegular
		case "100755":
			mode = patch.ModeExec
		default:
			continue // a symbolic link or a submodule
		}
		files = append(files, StagedFile{Path: fields[i+1], Mode: mode, ID: meta[3], r: r})
	}
	return files, nil
}

// CheckAttr returns the value of the gitattributes attribute attr for
// each path, as `git check-attr --cached` prints it: "set", "unset"
// (written "-attr"), "unspecified", or the value given ("attr=value").
// The attributes come from the .gitattributes files of the index (what
// is staged, not the working tree), $GIT_DIR/info/attributes and
// core.attributesFile, with git's own rules of precedence and macros,
// which is why git computes them: one `git check-attr --stdin` for all
// paths. It returns an error when git cannot be run or rejects attr.
func (r *Repo) CheckAttr(ctx context.Context, attr string, paths []string) (map[string]string, error) {
	values := make(map[string]string, len(paths))
	if len(paths) == 0 {
		return values, nil
	}
	var in bytes.Buffer
	for _, p := range paths {
		if strings.IndexByte(p, 0) >= 0 {
			return nil, fmt.Errorf("bad path %q: NUL byte", p)
		}
		in.WriteString(p)
		in.WriteByte(0)
	}
	out, err := r.gitHere(ctx, &in, "check-attr", "--cached", "-z", "--stdin", attr)
	if err != nil {
		return nil, err
	}
	// "<path> NUL <attribute> NUL <value> NUL" per path, in input order.
	fields := strings.Split(string(out), "\x00")
	if len(fields) != 3*len(paths)+1 {
		return nil, fmt.Errorf("git check-attr: %d values for %d paths", len(fields)/3, len(paths))
	}
	for i, p := range paths {
		values[p] = fields[3*i+2]
	}
	return values, nil
}

// HooksDir returns the directory git runs hooks from: core.hooksPath
// when set ("~/" expanded; a relative path is taken from the top of
// the working tree, or from the git directory of a bare repository,
// where git runs hooks), else the hooks directory of the common dir,
// which linked worktrees share.
func (r *Repo) HooksDir() (string, error) {
	cfg, err := r.config()
	if err != nil {
		return "", err
	}
	if v, _ := cfg.Get("core.hookspath"); v != "" {
		home, _ := r.env("HOME")
		p := config.ExpandHome(v, home)
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.hookCwd(), p)
		}
		return filepath.Clean(p), nil
	}
	return filepath.Join(r.commonDir, "hooks"), nil
}

// ReadHook reads the hook file at path (in HooksDir) as every file of
// the repository is read: without waiting on a FIFO put there, and
// refusing what is no regular file (SPEC section 5); a symbolic link
// is followed, as git follows it to run the hook.
func ReadHook(path string) ([]byte, error) { return fsread.ReadFile(path) }

// hookCwd is where git runs hooks and other commands of this
// repository: the top of the working tree, else the git directory.
func (r *Repo) hookCwd() string {
	if r.root != "" {
		return r.root
	}
	return r.gitDir
}

// gitHere runs the git CLI on this repository (its git dir and working
// tree given explicitly, so that GIT_DIR or a search from elsewhere
// cannot pick another), reading the index this package reads.
func (r *Repo) gitHere(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	idx, err := r.indexPath()
	if err != nil {
		return nil, err
	}
	full := []string{"--git-dir=" + r.gitDir}
	if r.root != "" {
		full = append(full, "--work-tree="+r.root)
	}
	return r.runGit(ctx, "git", r.hookCwd(), stdin, []string{"GIT_INDEX_FILE=" + idx}, append(full, args...)...)
}

// shorten cuts s to n bytes for an error message.
func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
