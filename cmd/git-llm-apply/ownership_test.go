package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// gitDirState lists every file under .git with its size and time: a
// refused run must leave all of it as it was.
func gitDirState(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.Walk(filepath.Join(dir, ".git"), func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %v %d %d", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// A repository another user owns (SPEC section 5): refused as git
// refuses it, with git's message and advice, exit 2 and nothing
// written, unless safe.directory in the protected configuration (the
// global file, git -c) names it; the repository's own safe.directory
// is not heard.
func TestRepositoryOwnedByAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("making a repository owned by another user needs root (chown)")
	}
	const other = 12345
	withPath := "PATH=" + filepath.Dir(binary()) + string(os.PathListSeparator) + os.Getenv("PATH")
	for _, c := range []struct {
		name string
		// config prepares the repository (before it is given away) and
		// returns the command to run, as args to git (git llm-apply) or
		// to the binary, and extra environment.
		config  func(t *testing.T, r *repo, reply string) (viaGit bool, args, env []string)
		refused bool
	}{
		{"no exception", func(t *testing.T, r *repo, reply string) (bool, []string, []string) {
			return false, []string{"apply", "-b", "fix", reply}, nil
		}, true},
		{"no exception, through git", func(t *testing.T, r *repo, reply string) (bool, []string, []string) {
			return true, []string{"llm-apply", "apply", "-b", "fix", reply}, nil
		}, true},
		{"check is refused too", func(t *testing.T, r *repo, reply string) (bool, []string, []string) {
			return false, []string{"check", reply}, nil
		}, true},
		{"the repository's own safe.directory", func(t *testing.T, r *repo, reply string) (bool, []string, []string) {
			r.git("config", "--add", "safe.directory", r.dir)
			r.git("config", "--add", "safe.directory", "*")
			return false, []string{"apply", "-b", "fix", reply}, nil
		}, true},
		{"git -c safe.directory", func(t *testing.T, r *repo, reply string) (bool, []string, []string) {
			return true, []string{"-c", "safe.directory=" + r.dir, "llm-apply", "apply", "-b", "fix", reply}, nil
		}, false},
		{"git -c safe.directory=*", func(t *testing.T, r *repo, reply string) (bool, []string, []string) {
			return true, []string{"-c", "safe.directory=*", "llm-apply", "apply", "-b", "fix", reply}, nil
		}, false},
		{"safe.directory in the global config", func(t *testing.T, r *repo, reply string) (bool, []string, []string) {
			global := filepath.Join(t.TempDir(), "gitconfig")
			if err := os.WriteFile(global, []byte("[safe]\n\tdirectory = "+r.dir+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return false, []string{"apply", "-b", "fix", reply}, []string{"GIT_CONFIG_GLOBAL=" + global}
		}, false},
		{"GIT_CONFIG_COUNT", func(t *testing.T, r *repo, reply string) (bool, []string, []string) {
			return false, []string{"apply", "-b", "fix", reply},
				[]string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=safe.directory", "GIT_CONFIG_VALUE_0=" + r.dir}
		}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"app.py": appPy})
			reply := r.reply("r.md", "Import sys.\n\n"+block("app.py", "import os\n", "import os\nimport sys\n"))
			viaGit, args, env := c.config(t, r, reply)
			before := r.snapshot()
			state := gitDirState(t, r.dir)
			if err := os.Chown(r.dir, other, -1); err != nil {
				t.Fatal(err)
			}
			name := binary()
			if viaGit {
				name = "git"
			}
			cmd := exec.Command(name, args...)
			cmd.Dir = r.dir
			cmd.Env = append(append(os.Environ(), withPath), env...)
			res := r.collect(cmd)

			// What git says of the same repository, given the same
			// options.
			var opts []string
			if viaGit {
				for _, a := range args {
					if a == "llm-apply" {
						break
					}
					opts = append(opts, a)
				}
			}
			st := exec.Command("git", append(opts, "status")...)
			st.Dir, st.Env = r.dir, cmd.Env
			gitOut, gitErr := st.CombinedOutput()
			if err := os.Chown(r.dir, 0, -1); err != nil {
				t.Fatal(err)
			}
			if !c.refused {
				if res.code != 0 {
					t.Fatalf("exit %d\n%s", res.code, res.stderr)
				}
				if gitErr != nil {
					t.Errorf("git status refuses what we accept: %s", gitOut)
				}
				if got := r.show("fix", "app.py"); !strings.Contains(got, "import sys\n") {
					t.Errorf("app.py on fix: %q", got)
				}
				r.fsck()
				r.assertUntouched(before)
				return
			}
			if res.code != 2 {
				t.Errorf("exit %d; want 2\n%s", res.code, res.stderr)
			}
			msg := "detected dubious ownership in repository at '" + r.dir + "'\n" +
				"To add an exception for this directory, call:\n\n\tgit config --global --add safe.directory " + shquote.Word(r.dir) + "\n"
			// git's words, prefix included (the same as git status's).
			if res.stderr != "fatal: "+msg {
				t.Errorf("stderr:\n%s\nwant:\n%s", res.stderr, msg)
			}
			if gitErr == nil || string(gitOut) != "fatal: "+msg {
				t.Errorf("git status: %v\n%s\nwant git to refuse it alike", gitErr, gitOut)
			}
			if res.stdout != "" {
				t.Errorf("stdout: %q", res.stdout)
			}
			if got := gitDirState(t, r.dir); got != state {
				t.Errorf(".git changed:\n%s\nwas:\n%s", got, state)
			}
			r.fsck()
			r.assertUntouched(before)
		})
	}
}
