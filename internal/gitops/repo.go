package gitops

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/fsread"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
)

// Errors callers can match with errors.Is. Returned errors wrap them
// with details (the revision, the branch, the path of a lock file).
var (
	// ErrNoRepository: no git repository at or above the directory.
	ErrNoRepository = errors.New("not a git repository")
	// ErrUnknownRevision: a revision names no commit.
	ErrUnknownRevision = errors.New("unknown revision")
	// ErrRefMoved: the branch no longer holds the value it was expected
	// to hold (another writer moved it); nothing was updated.
	ErrRefMoved = errors.New("branch moved")
	// ErrRefLocked: the ref's lock file exists (another git process is
	// updating it, or one crashed and left it behind).
	ErrRefLocked = errors.New("ref is locked")
	// ErrUnbornHead: HEAD names a branch that has no commit yet.
	ErrUnbornHead = errors.New("HEAD has no commit yet")
	// ErrBadBranchName: not a valid branch name (git check-ref-format
	// --branch).
	ErrBadBranchName = errors.New("invalid branch name")
	// ErrBranchCheckedOut: the branch is checked out in a worktree, so
	// moving it would change that worktree's HEAD under the user.
	ErrBranchCheckedOut = errors.New("branch is checked out")
)

// Repo is an opened repository. Its methods only read, except those of
// the BranchWriter it makes, which add objects and move one branch.
type Repo struct {
	root      string // top of the working tree, "" when bare
	gitDir    string // this worktree's git dir
	commonDir string // objects, refs, config
	mainRoot  string // the main worktree's top, "" when bare

	objs     *odb.Store // objects read without go-git's whole pack index
	objsOnce sync.Once
	running  runningPacks // of its BranchWriters, not yet named
	history  historyCache // the commits the walks of a branch's history read

	// cfg is the configuration, read once per run as git reads it once
	// per process: a run reads a handful of keys (identity, colour,
	// abbreviation, filters, ...), and the files do not change under it.
	cfg     *config.Values
	cfgErr  error
	cfgOnce sync.Once
	// openCfg is the repository's config file as open read it (the
	// format, the worktree), and cfgBranch the branch HEAD named when
	// cfg was read (includeIf onbranch:): ConfigChanged compares them.
	openCfg   *config.Values
	cfgBranch string

	// env looks up environment variables (os.LookupEnv; tests replace
	// it).
	env func(string) (string, bool)
}

// Open finds the repository holding dir, from dir or any directory
// above it, the way git does: a ".git" directory or ".git" file
// ("gitdir: ..." of a linked worktree or submodule), else dir itself
// being a git dir (bare repository). GIT_CEILING_DIRECTORIES stops the
// search. GIT_DIR and GIT_WORK_TREE (relative to dir) and core.worktree
// say where the repository and its working tree are, as they do for
// git. It returns ErrNoRepository when there is none, refuses a
// repository another user owns unless safe.directory names it
// (ErrDubiousOwnership, as git), and refuses a repository whose format
// git-llm-apply does not support, saying why.
func Open(dir string) (*Repo, error) {
	return open(dir, os.LookupEnv)
}

func open(dir string, env func(string) (string, bool)) (*Repo, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	} else {
		return nil, err
	}
	if err := checkEnvironment(env); err != nil {
		return nil, err
	}
	var root, gitDir string
	explicit := false
	if gd, _ := env("GIT_DIR"); gd != "" {
		if gitDir, err = explicitGitDir(abs, gd); err != nil {
			return nil, err
		}
		explicit = true
	} else {
		ceil, _ := env("GIT_CEILING_DIRECTORIES")
		if root, gitDir, err = discover(abs, ceilings(ceil)); err != nil {
			return nil, err
		}
		gitFile := ""
		if root != "" && gitDir != filepath.Join(root, ".git") {
			gitFile = filepath.Join(root, ".git")
		}
		if err := checkOwnership(gitFile, root, gitDir, env); err != nil {
			return nil, err
		}
	}
	r := &Repo{root: root, gitDir: gitDir, commonDir: commonDirOf(gitDir), env: env}
	cfg, err := config.ReadFile(filepath.Join(r.commonDir, "config"))
	if err != nil {
		return nil, err
	}
	r.openCfg = cfg
	if err := checkFormat(cfg, r.commonDir); err != nil {
		return nil, err
	}
	if err := checkBooleans(cfg); err != nil {
		return nil, err
	}
	if r.root, err = r.workTree(abs, explicit, cfg, env); err != nil {
		return nil, err
	}
	r.mainRoot = r.findMainRoot(cfg)
	return r, nil
}

// explicitGitDir is the git dir GIT_DIR names, relative to cwd; like
// git, it may be a ".git" file.
func explicitGitDir(cwd, gd string) (string, error) {
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(cwd, gd)
	}
	if fi, err := os.Stat(gd); err == nil && fi.Mode().IsRegular() {
		var err error
		if gd, err = readGitFile(gd); err != nil {
			return "", err
		}
	}
	if real, err := filepath.EvalSymlinks(gd); err == nil {
		gd = real
	}
	if !isGitDir(gd) {
		return "", fmt.Errorf("%w: GIT_DIR names %s", ErrNoRepository, gd)
	}
	return filepath.Clean(gd), nil
}

// workTree decides the top of the working tree as git's setup does
// (t1510 lists the cases): GIT_WORK_TREE (relative to cwd) first, then
// core.bare (none), then core.worktree (relative to the git dir); with
// neither and GIT_DIR set, cwd itself is the top. A discovered
// repository without GIT_WORK_TREE or core.worktree keeps the top it
// was found at (with core.bare set too: git then calls it bare, but
// still reads its index, as gitops does). Like git, a linked worktree
// ignores the core.bare and core.worktree of the common config, which
// are the main worktree's.
func (r *Repo) workTree(cwd string, explicit bool, cfg *config.Values, env func(string) (string, bool)) (string, error) {
	wtEnv, _ := env("GIT_WORK_TREE")
	var cfgWt, bare string
	var hasCfgWt bool
	if r.gitDir == r.commonDir {
		cfgWt, hasCfgWt = cfg.Get("core.worktree")
		bare, _ = cfg.Get("core.bare")
	}
	if !explicit && wtEnv == "" && !hasCfgWt {
		return r.root, nil
	}
	var top, from string
	switch {
	case wtEnv != "":
		top, from = wtEnv, "GIT_WORK_TREE"
		if !filepath.IsAbs(top) {
			top = filepath.Join(cwd, top)
		}
	case mustBool(bare):
		return "", nil
	case hasCfgWt:
		top, from = cfgWt, "core.worktree"
		if !filepath.IsAbs(top) {
			top = filepath.Join(r.gitDir, top)
		}
	default:
		return cwd, nil
	}
	real, err := filepath.EvalSymlinks(top)
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(real); err == nil && !fi.IsDir() {
			err = errors.New("not a directory")
		}
	}
	if err != nil {
		return "", fmt.Errorf("the working tree %s names (%s) cannot be used: %w", from, top, err)
	}
	return real, nil
}

// Root returns the top of the working tree, or "" for a bare
// repository.
func (r *Repo) Root() string { return r.root }

// GitDir returns this worktree's git directory (".git", or
// ".git/worktrees/<name>" for a linked worktree).
func (r *Repo) GitDir() string { return r.gitDir }

// CommonDir returns the git directory shared by all worktrees: objects,
// refs, packed-refs, config and logs live there.
func (r *Repo) CommonDir() string { return r.commonDir }

// discover walks up from dir (absolute) looking for a repository.
func discover(dir string, stop map[string]bool) (root, gitDir string, err error) {
	for d := dir; ; {
		dotGit := filepath.Join(d, ".git")
		if fi, err := os.Stat(dotGit); err == nil {
			switch {
			case fi.IsDir() && isGitDir(dotGit):
				return d, dotGit, nil
			case fi.Mode().IsRegular():
				gd, err := readGitFile(dotGit)
				if err != nil {
					return "", "", err
				}
				if !isGitDir(gd) {
					return "", "", fmt.Errorf("%w: %s points to %s, which is not a git directory", ErrNoRepository, dotGit, gd)
				}
				return d, gd, nil
			}
		}
		if isGitDir(d) {
			return "", d, nil
		}
		parent := filepath.Dir(d)
		if parent == d || stop[parent] {
			return "", "", fmt.Errorf("%w (or any of the parent directories): %s", ErrNoRepository, dir)
		}
		d = parent
	}
}

// ceilings parses GIT_CEILING_DIRECTORIES: directories the search does
// not enter.
func ceilings(v string) map[string]bool {
	m := map[string]bool{}
	for _, p := range filepath.SplitList(v) {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		m[filepath.Clean(p)] = true
	}
	return m
}

// isGitDir reports whether d looks like a git directory: a HEAD file,
// and objects and refs in its common dir.
func isGitDir(d string) bool {
	if fi, err := os.Stat(filepath.Join(d, "HEAD")); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	common := commonDirOf(d)
	for _, sub := range []string{"objects", "refs"} {
		if fi, err := os.Stat(filepath.Join(common, sub)); err != nil || !fi.IsDir() {
			return false
		}
	}
	return true
}

// readGitFile reads a ".git" file ("gitdir: <path>"); a relative path
// is relative to the file's directory.
func readGitFile(path string) (string, error) {
	data, err := fsread.ReadFile(path)
	if err != nil {
		return "", err
	}
	line := strings.TrimRight(string(data), "\r\n")
	gd, ok := strings.CutPrefix(line, "gitdir: ")
	if !ok || gd == "" {
		return "", fmt.Errorf("%w: invalid gitfile format: %s", ErrNoRepository, path)
	}
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(filepath.Dir(path), gd)
	}
	return filepath.Clean(gd), nil
}

// commonDirOf returns the common dir of gitDir: the content of its
// "commondir" file (relative to gitDir), else gitDir itself.
func commonDirOf(gitDir string) string {
	data, err := fsread.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	cd := strings.TrimRight(string(data), "\r\n")
	if cd == "" {
		return gitDir
	}
	if !filepath.IsAbs(cd) {
		cd = filepath.Join(gitDir, cd)
	}
	return filepath.Clean(cd)
}

// findMainRoot returns the main worktree's top: this root when r is
// the main worktree, else the parent of a common dir named ".git"
// (unless core.bare says otherwise); "" for a bare repository. cfg is
// the common dir's config file.
func (r *Repo) findMainRoot(cfg *config.Values) string {
	if r.gitDir == r.commonDir {
		return r.root
	}
	if filepath.Base(r.commonDir) != ".git" {
		return ""
	}
	if cfgBool(cfg, "core.bare", false) {
		return ""
	}
	return filepath.Dir(r.commonDir)
}

// ConfigChanged reports whether the configuration r read (at Open, and
// for config's keys: every file, included ones too) changed since, or
// HEAD names another branch than when it was read: a Repo kept open
// across requests is then opened again (SPEC section 2, mcp). It
// does not read the configuration itself.
func (r *Repo) ConfigChanged() bool {
	if r.openCfg != nil && r.openCfg.Changed() {
		return true
	}
	if r.cfg == nil {
		return false // not read yet: what reads it will see the files as they are
	}
	branch, _ := r.CurrentBranch()
	return branch != r.cfgBranch || r.cfg.Changed()
}

// config reads git configuration as git does for a command run in this
// repository (see config.Read: system, global, the repository's,
// config.worktree, then the environment's, includes followed), once.
func (r *Repo) config() (*config.Values, error) {
	r.cfgOnce.Do(func() {
		branch, _ := r.CurrentBranch()
		r.cfgBranch = branch
		r.cfg, r.cfgErr = config.Read(config.Where{GitDir: r.gitDir, CommonDir: r.commonDir, Branch: branch, Env: r.env})
		if r.cfgErr == nil {
			r.cfgErr = checkBooleans(r.cfg)
		}
	})
	return r.cfg, r.cfgErr
}
