package gitops

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// otherUID owns the repositories of the ownership tests: a user that
// is not the one running them.
const otherUID = 12345

// needRoot skips a test that makes another user's repository: only
// root can give a file away.
func needRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("making a repository owned by another user needs root (chown)")
	}
}

func chown(t *testing.T, uid int, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if err := os.Lchown(p, uid, -1); err != nil {
			t.Fatal(err)
		}
	}
}

func writeConf(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A repository another user owns is refused as git 2.39 refuses it
// (setup.c, ensure_valid_ownership), unless safe.directory in the
// protected configuration names it; every case is run by git status
// too, which must accept or refuse it alike and name the same path.
func TestOwnershipAsGit(t *testing.T) {
	t.Parallel()
	needRoot(t)
	type setup struct {
		r   *scratch.Repo
		top string // r.Dir
	}
	for _, c := range []struct {
		name string
		// prepare changes the repository and returns the directory to
		// open from and extra environment.
		prepare func(t *testing.T, s setup) (dir string, env []string)
		refused string // the path the refusal names, relative to the top's parent; "" accepted
	}{
		{"ours", func(t *testing.T, s setup) (string, []string) { return s.top, nil }, ""},
		{"top owned by another user", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			return s.top, nil
		}, "repo"},
		{"git dir owned by another user", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, filepath.Join(s.top, ".git"))
			return s.top, nil
		}, "repo"},
		{"from a subdirectory: the top is named", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			return filepath.Join(s.top, "dir"), nil
		}, "repo"},
		{"from inside the git dir: the git dir is named", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, filepath.Join(s.top, ".git"))
			return filepath.Join(s.top, ".git"), nil
		}, "repo/.git"},
		{"a file inside owned by another user", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, filepath.Join(s.top, "a.txt"), filepath.Join(s.top, ".git", "config"))
			return s.top, nil
		}, ""},
		{"safe.directory in the global config", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			writeConf(t, filepath.Join(s.r.Home, ".gitconfig"), "[safe]\n\tdirectory = "+s.top+"\n")
			return s.top, nil
		}, ""},
		{"safe.directory in GIT_CONFIG_GLOBAL with ~/", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			g := filepath.Join(s.r.Home, "g.conf")
			writeConf(t, g, "[safe]\n\tdirectory = ~/repo\n")
			return s.top, []string{"GIT_CONFIG_GLOBAL=" + g, "HOME=" + filepath.Dir(s.top)}
		}, ""},
		{"~/ and .. are not cleaned (git 2.39 compares the strings)", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			writeConf(t, filepath.Join(s.r.Home, ".gitconfig"), "[safe]\n\tdirectory = ~/../repo\n")
			return s.top, nil
		}, "repo"},
		{"safe.directory included by the global config", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			inc := filepath.Join(s.r.Home, "safe.inc")
			writeConf(t, inc, "[safe]\n\tdirectory = "+s.top+"\n")
			writeConf(t, filepath.Join(s.r.Home, ".gitconfig"), "[include]\n\tpath = "+inc+"\n")
			return s.top, nil
		}, ""},
		{"safe.directory in the system config", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			sys := filepath.Join(s.r.Home, "system.conf")
			writeConf(t, sys, "[safe]\n\tdirectory = "+s.top+"\n")
			return s.top, []string{"GIT_CONFIG_NOSYSTEM=0", "GIT_CONFIG_SYSTEM=" + sys}
		}, ""},
		{"safe.directory in the system config, system config off", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			sys := filepath.Join(s.r.Home, "system.conf")
			writeConf(t, sys, "[safe]\n\tdirectory = "+s.top+"\n")
			return s.top, []string{"GIT_CONFIG_SYSTEM=" + sys}
		}, "repo"},
		{"safe.directory in the repository's own config", func(t *testing.T, s setup) (string, []string) {
			s.r.Git("config", "safe.directory", s.top)
			s.r.Git("config", "--add", "safe.directory", "*")
			chown(t, otherUID, s.top)
			return s.top, nil
		}, "repo"},
		{"safe.directory naming another directory", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			return s.top, []string{"GIT_CONFIG_PARAMETERS='safe.directory'='" + s.top + "/dir'"}
		}, "repo"},
		{"safe.directory with a trailing slash (git 2.39: no match)", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			return s.top, []string{"GIT_CONFIG_PARAMETERS='safe.directory'='" + s.top + "/'"}
		}, "repo"},
		{"safe.directory of the parent with /* (git 2.39: no match)", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			return s.top, []string{"GIT_CONFIG_PARAMETERS='safe.directory'='" + filepath.Dir(s.top) + "/*'"}
		}, "repo"},
		{"safe.directory=*", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			writeConf(t, filepath.Join(s.r.Home, ".gitconfig"), "[safe]\n\tdirectory = *\n")
			return s.top, nil
		}, ""},
		{"* then an empty value resets the list", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			writeConf(t, filepath.Join(s.r.Home, ".gitconfig"), "[safe]\n\tdirectory = *\n")
			return s.top, []string{"GIT_CONFIG_PARAMETERS='safe.directory'=''"}
		}, "repo"},
		{"reset, then the path", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			writeConf(t, filepath.Join(s.r.Home, ".gitconfig"), "[safe]\n\tdirectory =\n\tdirectory = "+s.top+"\n")
			return s.top, nil
		}, ""},
		{"git -c safe.directory (GIT_CONFIG_PARAMETERS)", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			return filepath.Join(s.top, "dir"), []string{"GIT_CONFIG_PARAMETERS='safe.directory'='" + s.top + "'"}
		}, ""},
		{"GIT_CONFIG_COUNT", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			return s.top, []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=" + s.top}
		}, ""},
		{"SUDO_UID names the owner", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			return s.top, []string{"SUDO_UID=12345"}
		}, ""},
		{"SUDO_UID that is not a number", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top)
			return s.top, []string{"SUDO_UID=12345x"}
		}, "repo"},
		{"GIT_DIR: not checked", func(t *testing.T, s setup) (string, []string) {
			chown(t, otherUID, s.top, filepath.Join(s.top, ".git"))
			return s.top, []string{"GIT_DIR=" + filepath.Join(s.top, ".git")}
		}, ""},
		{"a linked worktree's .git file owned by another user", func(t *testing.T, s setup) (string, []string) {
			wt := filepath.Join(filepath.Dir(s.top), "wt")
			s.r.Git("worktree", "add", "-q", wt)
			chown(t, otherUID, filepath.Join(wt, ".git"))
			return wt, nil
		}, "wt"},
		{"a linked worktree's git dir owned by another user", func(t *testing.T, s setup) (string, []string) {
			wt := filepath.Join(filepath.Dir(s.top), "wt")
			s.r.Git("worktree", "add", "-q", wt)
			chown(t, otherUID, filepath.Join(s.top, ".git", "worktrees", "wt"))
			return wt, nil
		}, "wt"},
		{"a linked worktree of another user's main worktree (git 2.39 checks no common dir)", func(t *testing.T, s setup) (string, []string) {
			wt := filepath.Join(filepath.Dir(s.top), "wt")
			s.r.Git("worktree", "add", "-q", wt)
			chown(t, otherUID, s.top, filepath.Join(s.top, ".git"))
			return wt, nil
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := scratch.New(t)
			r.Write("a.txt", "a\n", 0o644)
			r.Write("dir/b.txt", "b\n", 0o644)
			r.Commit("initial")
			dir, extra := c.prepare(t, setup{r, r.Dir})
			env := append(append([]string(nil), r.Env...), extra...)
			want := ""
			if c.refused != "" {
				want = filepath.Join(filepath.Dir(r.Dir), c.refused)
			}

			// git itself.
			cmd := exec.Command("git", "status", "--porcelain")
			cmd.Dir, cmd.Env = dir, env
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			gitErr := cmd.Run()
			if want == "" && gitErr != nil {
				t.Fatalf("git status refuses too (the case is wrong): %v\n%s", gitErr, stderr.String())
			}
			if want != "" && (gitErr == nil || !strings.Contains(stderr.String(), "detected dubious ownership in repository at '"+want+"'")) {
				t.Fatalf("git status: %v, %s; want it to refuse %s", gitErr, stderr.String(), want)
			}

			_, err := open(dir, lookupIn(env))
			if want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrDubiousOwnership) {
				t.Fatalf("err = %v; want ErrDubiousOwnership", err)
			}
			advice := "detected dubious ownership in repository at '" + want + "'\n" +
				"To add an exception for this directory, call:\n\n\tgit config --global --add safe.directory " + shquote.Word(want)
			if err.Error() != advice {
				t.Errorf("message:\n%s\nwant:\n%s", err, advice)
			}
			if !strings.Contains(stderr.String(), "fatal: "+advice) {
				t.Errorf("git's message differs:\n%s", stderr.String())
			}
		})
	}
}
