package scratch

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// kept holds the repositories Kept keeps, for the test binary's life:
// Main removes them.
var kept struct {
	mu    sync.Mutex
	main  bool
	dir   string
	repos map[string]*Repo // by key; T unset
}

// Main runs the tests and removes the repositories Kept kept. A
// package whose tests use Kept calls it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(scratch.Main(m)) }
func Main(m *testing.M) int {
	kept.mu.Lock()
	kept.main = true
	kept.mu.Unlock()
	code := m.Run()
	kept.mu.Lock()
	defer kept.mu.Unlock()
	if kept.dir != "" {
		os.RemoveAll(kept.dir)
	}
	return code
}

// Kept returns the repository make makes, which key names: the same
// key, the same repository, whoever asks. The first test to ask runs
// make and keeps a copy of what it made; every later one gets a copy
// of that copy in a directory of its own, as if it had run make: a
// fixture many tests share costs one set of git runs, not one a test.
// A copy's index is refreshed (`git update-index --refresh`, one git
// run a repository, nested ones included): its files' inode and
// change time are not the kept ones'. Whatever reaches make beside the
// key (the process's environment, say) must not change what it makes.
func Kept(t testing.TB, key string, make func(t testing.TB) *Repo) *Repo {
	t.Helper()
	kept.mu.Lock()
	if !kept.main {
		kept.mu.Unlock()
		t.Fatal("scratch.Kept: the package's TestMain must run scratch.Main, which removes what Kept keeps")
	}
	src := kept.repos[key]
	kept.mu.Unlock()
	if src != nil {
		return src.copy(t, t.TempDir(), true)
	}
	r := make(t)
	kept.mu.Lock()
	defer kept.mu.Unlock()
	if kept.repos[key] != nil {
		return r // another test kept one meanwhile
	}
	if kept.dir == "" {
		dir, err := os.MkdirTemp("", "scratch-kept")
		if err == nil {
			dir, err = filepath.EvalSymlinks(dir)
		}
		if err != nil {
			t.Fatal(err)
		}
		kept.dir, kept.repos = dir, map[string]*Repo{}
	}
	keep := r.copy(t, filepath.Join(kept.dir, fmt.Sprint(len(kept.repos))), false)
	keep.T = nil
	kept.repos[key] = keep
	return r
}

// copy copies r into base (its working tree, with Home beside it when
// it has one, as New lays them out); refresh refreshes the copies'
// indexes.
func (r *Repo) copy(t testing.TB, base string, refresh bool) *Repo {
	t.Helper()
	if resolved, err := filepath.EvalSymlinks(base); err == nil {
		base = resolved
	}
	c := &Repo{T: t, Dir: base}
	if r.Home != "" {
		c.Dir, c.Home = filepath.Join(base, filepath.Base(r.Dir)), filepath.Join(base, filepath.Base(r.Home))
		if _, err := copyTree(r.Home, c.Home); err != nil {
			t.Fatal(err)
		}
	}
	if r.Env != nil {
		c.Env = Env(c.Home)
	}
	repos, err := copyTree(r.Dir, c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range repos {
		if refresh {
			c.GitAt(dir, "update-index", "-q", "--refresh")
		}
	}
	return c
}

// copyTree copies the directory src to dst (made if missing): regular
// files with their permissions, directories and symbolic links. It
// returns the working trees in dst that have a .git directory with an
// index.
func copyTree(src, dst string) (repos []string, err error) {
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch mode := info.Mode(); {
		case mode.IsDir():
			if d.Name() == ".git" {
				if _, err := os.Stat(filepath.Join(p, "index")); err == nil {
					repos = append(repos, filepath.Dir(to))
				}
			}
			return os.MkdirAll(to, mode.Perm())
		case mode&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case mode.IsRegular():
			return copyFile(p, to, mode.Perm())
		default:
			return fmt.Errorf("scratch: cannot copy %s, a %v", p, mode.Type())
		}
	})
	return repos, err
}

func copyFile(src, dst string, perm fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return os.Chmod(dst, perm) // past the umask
}
