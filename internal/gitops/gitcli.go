package gitops

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// gitWait is how long a git child stopped by runGit's context has to
// end (and to close its output: a hook it ran may hold it) before it is
// killed.
const gitWait = 3 * time.Second

// lookGit finds the git CLI; tests replace it to take the paths that
// work without git.
var lookGit = exec.LookPath

// repoEnv are the variables that point git at a repository, work tree
// or index. They describe the process's own checkout (a hook is run
// with GIT_INDEX_FILE set, for one), while each git run here names its
// repository itself.
var repoEnv = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_INDEX_FILE",
	"GIT_OBJECT_DIRECTORY", "GIT_PREFIX", "GIT_IMPLICIT_WORK_TREE"}

// configEnv are the variables that decide which configuration git
// reads; a child git sees them as r.env does, so that it reads what
// this package reads.
var configEnv = []string{"HOME", "XDG_CONFIG_HOME", "GIT_CONFIG_NOSYSTEM", "GIT_CONFIG_SYSTEM",
	"GIT_CONFIG_GLOBAL", "GIT_CONFIG_PARAMETERS"}

// runGit runs the git CLI at gitPath in dir, with stdin (nil: none),
// and returns its standard output; a failure carries git's message.
// The child's environment is the process's without repoEnv, with
// configEnv as r.env has them, plus extra ("K=V"). git runs the code
// the repository configures (hooks, filters, fsmonitor), so only the
// steps that are git porcelain by nature call it: adding, checking and
// updating a linked worktree, and the pre-commit check, which git runs
// as a hook. Reading a base and recording never do (doc.go).
//
// When ctx ends (a signal, SPEC section 2) the child is stopped as a
// signal would stop git: SIGTERM to its process group, git and what it
// runs (hooks, filters, a checkout of its own), so that git's own
// handlers clean up what it was making (a worktree add removes its
// half-made worktree, a lock file goes); what has not ended gitWait
// later is killed, and the error is then ctx's, wrapped.
func (r *Repo) runGit(ctx context.Context, gitPath, dir string, stdin io.Reader, extra []string, args ...string) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, gitPath, args...)
	inGroup(cmd)
	cmd.WaitDelay = gitWait
	cmd.Dir = dir
	cmd.Stdin = stdin
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); !slices.Contains(repoEnv, k) && !slices.Contains(configEnv, k) {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	for _, k := range configEnv {
		if v, ok := r.env(k); ok {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	cmd.Env = append(cmd.Env, extra...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("git %s: %w", strings.Join(args, " "), ctx.Err())
		}
		sub := ""
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				sub = a
				break
			}
		}
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			return nil, fmt.Errorf("git %s: %w", sub, err)
		}
		return nil, fmt.Errorf("git %s: %s (%w)", sub, msg, err)
	}
	return out.Bytes(), nil
}
