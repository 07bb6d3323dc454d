package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// binaryPath is where the tests that need a real process (signals,
// terminals, git or a hook running us, memory) find git-llm-apply,
// built on first use by binary: most tests run in-process, and a fuzz
// worker, which runs TestMain too, never needs it.
var (
	binaryPath string
	binaryOnce sync.Once
)

// binary builds git-llm-apply once and returns its path. The MCP
// server's binary, git-llm-apply-mcp, is built beside it, where mcp
// finds it, as go install puts them. A failed build ends the test
// binary: no test of it could mean anything.
func binary() string {
	binaryOnce.Do(func() {
		build := exec.Command("go", "build", "-o", filepath.Dir(binaryPath)+string(filepath.Separator), ".", "../git-llm-apply-mcp")
		if out, err := build.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "building git-llm-apply: %v\n%s", err, out)
			os.Exit(2)
		}
	})
	return binaryPath
}

// Tests call t.Parallel (in-process runs share only TestMain's
// environment) unless they set the environment or the collector
// (t.Setenv, debug.SetGCPercent), write an executable that a process
// then runs (hook_test.go, hookscript_test.go: Linux refuses to run a
// file another test's fork still holds open for writing, ETXTBSY,
// go.dev/issue/22315), or race processes against each other
// (TestConcurrentRunsOnOneBranch).
func TestMain(m *testing.M) {
	if os.Getenv(rssHelperEnv) != "" {
		os.Exit(rssHelper())
	}
	dir, err := os.MkdirTemp("", "git-llm-apply-e2e")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	binaryPath = filepath.Join(dir, "git-llm-apply")
	// The go command's caches stay where they are: under the scratch
	// HOME below they would be empty, and the go builds of binary and
	// TestVersion would compile (and download) everything again.
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if os.Getenv(k) == "" {
			if v, err := exec.Command("go", "env", k).Output(); err == nil {
				os.Setenv(k, strings.TrimSpace(string(v)))
			}
		}
	}
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o755)
	for k, v := range map[string]string{
		"HOME": home, "XDG_CONFIG_HOME": home, "GIT_CONFIG_NOSYSTEM": "1",
		"GIT_AUTHOR_NAME": "Ada Author", "GIT_AUTHOR_EMAIL": "ada@example.com", "GIT_AUTHOR_DATE": "@1700000000 +0100",
		"GIT_COMMITTER_NAME": "Cy Committer", "GIT_COMMITTER_EMAIL": "cy@example.com", "GIT_COMMITTER_DATE": "@1700000100 +0100",
	} {
		os.Setenv(k, v)
	}
	code := scratch.Main(m)
	os.RemoveAll(dir)
	os.Exit(code)
}

// repo is a scratch repository (internal/scratch) whose git runs in
// TestMain's environment, as the in-process runs do.
type repo struct {
	t   *testing.T
	dir string
}

func (r *repo) scratch() *scratch.Repo { return &scratch.Repo{T: r.t, Dir: r.dir} }

// newRepo commits files (path -> content; a path ending in "*" is
// made executable) as the first commit of a new repository: a copy of
// the one the first test with the same files made (scratch.Kept).
func newRepo(t *testing.T, files map[string]string) *repo {
	t.Helper()
	key := []string{"newRepo"}
	for p, content := range files {
		key = append(key, p+"\x00"+content)
	}
	for _, kv := range os.Environ() { // what else reaches git
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" {
			key = append(key, kv)
		}
	}
	sort.Strings(key)
	s := scratch.Kept(t, strings.Join(key, "\x00\x00"), func(t testing.TB) *scratch.Repo {
		s := &scratch.Repo{T: t, Dir: t.TempDir()}
		s.Git("init", "-q", "-b", "main")
		s.WriteFiles(files)
		s.Git("add", "-A")
		s.Git("-c", "maintenance.auto=false", "commit", "-q", "-m", "initial")
		return s
	})
	return &repo{t: t, dir: s.Dir}
}

// write writes a file of the working tree; a path ending in "*" is
// made executable. A file that exists keeps its mode.
func (r *repo) write(p, content string) {
	r.t.Helper()
	mode := os.FileMode(0o644)
	if strings.HasSuffix(p, "*") {
		p, mode = strings.TrimSuffix(p, "*"), 0o755
	}
	full := filepath.Join(r.dir, p)
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), mode); err != nil {
		r.t.Fatal(err)
	}
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	return r.scratch().Output(r.dir, nil, "", args...)
}

// reply writes a reply file outside the repository and returns its path.
func (r *repo) reply(name, text string) string {
	r.t.Helper()
	p := filepath.Join(r.t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		r.t.Fatal(err)
	}
	return p
}

type result struct {
	stdout, stderr string
	code           int
}

// run runs git-llm-apply in the repository, in-process.
func (r *repo) run(args ...string) result {
	return r.runIn(r.dir, "", args...)
}

// runIn runs git-llm-apply in-process through run, as if started in
// dir with stdin on standard input: the command line, the start
// directory and the streams are all a command reads of its process,
// the environment aside (TestMain's, shared). A panic fails the test.
func (r *repo) runIn(dir, stdin string, args ...string) result {
	r.t.Helper()
	if dir == "" {
		// "" is the process's working directory: this package's, in
		// this project's own repository.
		r.t.Fatal("runIn needs a directory to start in")
	}
	var out, errb bytes.Buffer
	code := run(r.t.Context(), append([]string{"git-llm-apply"}, args...), dir, strings.NewReader(stdin), &out, &errb)
	return result{out.String(), errb.String(), code}
}

// runBinary runs the built binary in the repository, for what only a
// process of its own shows: what it records as its own path (the
// hook), its build information (version), how it reads its own
// environment, terminal or signals.
func (r *repo) runBinary(args ...string) result {
	return r.runBinaryIn(r.dir, "", args...)
}

func (r *repo) runBinaryIn(dir, stdin string, args ...string) result {
	r.t.Helper()
	cmd := exec.Command(binary(), args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	return r.collect(cmd)
}

// collect runs cmd and returns its outputs and exit status without
// failing the test on a non-zero status.
func (r *repo) collect(cmd *exec.Cmd) result {
	r.t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		r.t.Fatal(err)
	}
	return result{out.String(), errb.String(), code}
}

// checkout is what the user's checkout looks like: it must never change.
type checkout struct {
	head, index, status string
	files               map[string]string
}

func (r *repo) snapshot() checkout {
	r.t.Helper()
	c := checkout{
		index: r.git("ls-files", "-s", "--debug"),
		// With --branch, status names HEAD's commit too ("# branch.oid"):
		// one git run less than rev-parse beside it.
		status: r.git("status", "--porcelain=v2", "--branch", "--untracked-files=all"),
		files:  map[string]string{},
	}
	for _, l := range strings.Split(c.status, "\n") {
		if oid, ok := strings.CutPrefix(l, "# branch.oid "); ok {
			c.head = oid
		}
	}
	if c.head == "" {
		r.t.Fatalf("git status --porcelain=v2 --branch names no commit:\n%s", c.status)
	}
	filepath.Walk(r.dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if fi.IsDir() && fi.Name() == ".git" {
			return filepath.SkipDir
		}
		if !fi.IsDir() {
			data, _ := os.ReadFile(p)
			c.files[p] = fmt.Sprintf("%v %q", fi.Mode(), data)
		}
		return nil
	})
	return c
}

func (r *repo) assertUntouched(before checkout) {
	r.t.Helper()
	after := r.snapshot()
	if before.head != after.head || before.index != after.index || before.status != after.status {
		r.t.Errorf("the checkout changed:\nHEAD %s -> %s\nindex %s -> %s\nstatus %q -> %q",
			before.head, after.head, before.index, after.index, before.status, after.status)
	}
	if fmt.Sprint(before.files) != fmt.Sprint(after.files) {
		r.t.Errorf("working tree files changed")
	}
}

// tree lists "mode path" of every file of rev.
func (r *repo) tree(rev string) []string {
	r.t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(r.git("ls-tree", "-r", rev)), "\n") {
		f := strings.Fields(l)
		if len(f) >= 4 {
			out = append(out, f[0]+" "+f[3])
		}
	}
	sort.Strings(out)
	return out
}

func (r *repo) show(rev, path string) string {
	r.t.Helper()
	return r.git("show", rev+":"+path)
}

// fsck runs git fsck --strict and fails on any finding, warnings
// included (dangling objects aside: a refused run may leave some).
func (r *repo) fsck() {
	r.t.Helper()
	r.scratch().Fsck()
}

func (r *repo) branches() string {
	return strings.TrimSpace(r.git("branch", "--format=%(refname:short)"))
}
