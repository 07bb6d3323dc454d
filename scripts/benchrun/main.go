// Command benchrun measures git-llm-apply side by side with git doing
// the same job, in the same run, on repositories it generates
// deterministically, and prints a table of medians and ratios. It is
// what scripts/bench runs; see the README's Performance section.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

var (
	workDir = flag.String("dir", "", "where to generate the repositories (default: a temporary directory, removed afterwards)")
	runs    = flag.Int("runs", 9, "timed runs of each command, after one warm-up run")
	files   = flag.Int("files", 100000, "files of the large repository")
	lines   = flag.Int("lines", 50000, "lines of the large source file")
	binary  = flag.String("bin", "", "the git-llm-apply binary to measure, git-llm-apply-mcp beside it (default: both built from this checkout)")
	quick   = flag.Bool("quick", false, "small sizes and few runs: check that the benchmark works, not how fast")
	only    = flag.String("only", "", "run only these cases: replay, round2 (issue 16's: Codex apply_patch, a huge file, 10,000 edits, a cold apply), codex (case 13 and its scoped twin), startup (case 5), lazy (case 17: issue 28's lazy edit), mcp (case 18: the MCP server's start, apply, and 1,000 calls in a session), or mcp-long (case 18's 1,000 calls alone)")
	codexAt = flag.String("codex", "", "Codex's apply_patch to compare with: a codex binary, or none (default: installed from npm into the scratch directory)")
)

func main() {
	if os.Getenv(rssChildEnv) != "" {
		rssChild()
		return
	}
	flag.Parse()
	if *quick {
		*files, *lines, *runs = 2000, 5000, 3
	}
	dir := *workDir
	if dir == "" {
		d, err := os.MkdirTemp("", "llm-apply-bench")
		check(err)
		defer os.RemoveAll(d)
		dir = d
	}
	env := benchEnv(dir)
	bin := *binary
	if bin == "" {
		// Built as the README installs it: static, without cgo, the MCP
		// server's binary beside it.
		bin = filepath.Join(dir, "git-llm-apply")
		run(append(env, "CGO_ENABLED=0"), ".", "go", "build", "-o", dir+string(filepath.Separator), "./cmd/...")
	}
	b := &bench{env: env, bin: bin, dir: dir}
	b.report()
}

// benchEnv is the environment of every command: no user or system
// configuration, fixed identities and dates, so that runs compare.
func benchEnv(dir string) []string {
	home := filepath.Join(dir, "home")
	check(os.MkdirAll(home, 0o755))
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_CONFIG_HOME=") {
			env = append(env, kv)
		}
	}
	// The go command keeps its caches under HOME unless told: the
	// builds use the user's, not a download of every module again.
	if out, err := exec.Command("go", "env", "GOPATH", "GOMODCACHE", "GOCACHE").Output(); err == nil {
		if v := strings.Split(strings.TrimSpace(string(out)), "\n"); len(v) == 3 {
			env = append(env, "GOPATH="+v[0], "GOMODCACHE="+v[1], "GOCACHE="+v[2])
		}
	}
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Bench", "GIT_AUTHOR_EMAIL=bench@example.com", "GIT_AUTHOR_DATE=@1700000000 +0000",
		"GIT_COMMITTER_NAME=Bench", "GIT_COMMITTER_EMAIL=bench@example.com", "GIT_COMMITTER_DATE=@1700000000 +0000")
}

type bench struct {
	env       []string
	bin, dir  string
	rows      []row
	checkGits time.Duration // git apply --cached --check of case 1, for case 2
	tenFile   string        // the case-1 reply in the diff format
	codex     *[2]string    // Codex's apply_patch and why not, once installed (codexApplyPatch)
}

// row is one line of the table: our median, git's (0 when there is no
// git equivalent), the bound the issue sets and whether it holds.
type row struct {
	name       string
	ours, gits time.Duration
	bound      string
	ok         bool
	note       string
}

func (b *bench) report() {
	switch *only {
	case "":
		big := b.bigRepo()
		small := b.smallRepo()
		b.caseCheck(big)
		b.caseApply(big)
		b.caseManyEdits()
		b.caseCorpus()
		b.caseStartup(small)
		b.caseLimits()
		b.caseHook()
		b.caseNewFile()
		b.caseInterrupt()
		b.caseFailing()
		b.caseReplay()
		b.caseLazy()
		b.round2(big)
		b.caseMCP(big)
	case "lazy":
		b.caseLazy()
	case "mcp":
		b.caseMCP(b.bigRepo())
	case "mcp-long":
		b.caseMCPLong()
	case "replay":
		b.caseReplay()
	case "round2":
		b.round2(b.bigRepo())
	case "startup":
		b.caseStartup(b.smallRepo())
	case "codex":
		b.caseCodex(false)
		b.caseCodex(true)
	default:
		fail("-only %s: no such case (want replay, round2, codex, startup, lazy, mcp or mcp-long)", *only)
	}
	fmt.Printf("\n%d runs per command after a warm-up; median wall time. %s, %d CPUs.\n\n", *runs, strings.TrimSpace(output(b.env, ".", "git", "--version")), numCPU())
	fmt.Println("| case | git-llm-apply | git | ratio | target | met |")
	fmt.Println("| --- | ---: | ---: | ---: | --- | --- |")
	for _, r := range b.rows {
		gits, ratio := "", ""
		if r.gits > 0 {
			gits = ms(r.gits)
			ratio = fmt.Sprintf("%.2f", float64(r.ours)/float64(r.gits))
		}
		met := "yes"
		switch {
		case r.bound == "":
			met = "" // a figure to read the others by, with no target
		case !r.ok:
			met = "**no**"
		}
		ours := ms(r.ours)
		if r.note != "" {
			ours = r.note
		}
		fmt.Printf("| %s | %s | %s | %s | %s | %s |\n", r.name, ours, gits, ratio, r.bound, met)
	}
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

func numCPU() int {
	out, err := exec.Command("nproc").Output()
	if err != nil {
		return 0
	}
	var n int
	fmt.Sscan(string(out), &n)
	return n
}

// median runs fn once to warm up, then *runs times, and returns the
// median wall time. prepare, when set, runs before each run, untimed.
func median(prepare func(), fn func()) time.Duration {
	if prepare != nil {
		prepare()
	}
	fn()
	times := make([]time.Duration, *runs)
	for i := range times {
		if prepare != nil {
			prepare()
		}
		start := time.Now()
		fn()
		times[i] = time.Since(start)
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2]
}

// interleaved runs fns in turn, once to warm up and then rounds times,
// and returns the median wall time of each.
func interleaved(rounds int, fns ...func()) []time.Duration {
	times := make([][]time.Duration, len(fns))
	for r := 0; r <= rounds; r++ {
		for i, fn := range fns {
			start := time.Now()
			fn()
			if r > 0 {
				times[i] = append(times[i], time.Since(start))
			}
		}
	}
	out := make([]time.Duration, len(fns))
	for i, t := range times {
		out[i] = medianOf(t)
	}
	return out
}

// run runs a command and fails the benchmark when it fails.
func run(env []string, dir string, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		fail("%s %s: %v\n%s", name, strings.Join(args, " "), err, errb.String())
	}
}

// runExpect runs a command that must exit with status code.
func runExpect(code int, env []string, dir string, name string, args ...string) {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != code {
		fail("%s %s: want exit %d: %v\n%s", name, strings.Join(args, " "), code, err, errb.String())
	}
}

func output(env []string, dir string, name string, args ...string) string {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		fail("%s %s: %v\n%s", name, strings.Join(args, " "), err, errb.String())
	}
	return string(out)
}

// maxRSS runs a command and returns its peak resident memory. Linux
// counts the peak of the process that starts a command into the
// command's own (Go starts it from a copy of the parent's memory), and
// this process holds generated files of tens of megabytes: so a fresh
// copy of this program, small, starts the command and reports its
// peak (see rssChild).
func maxRSS(env []string, dir string, name string, args ...string) int64 {
	return measure(env, dir, name, args...).rss
}

// usage is what one run of a command cost: its peak resident memory,
// its processor time (user and system), which the other processes of a
// loaded machine do not lengthen as they do the wall time, and that.
type usage struct {
	rss       int64
	cpu, wall time.Duration
}

// measure runs a command through a fresh copy of this program (see
// maxRSS) and returns what it cost.
func measure(env []string, dir string, name string, args ...string) usage {
	self, err := os.Executable()
	check(err)
	cmd := exec.Command(self, append([]string{name}, args...)...)
	cmd.Dir, cmd.Env = dir, append(env, rssChildEnv+"=1")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		fail("%s: %v\n%s", name, err, errb.String())
	}
	var kb, cpu, wall int64
	if _, err := fmt.Sscan(string(out), &kb, &cpu, &wall); err != nil {
		fail("%s: peak memory %q: %v", name, out, err)
	}
	return usage{rss: kb * 1024, cpu: time.Duration(cpu) * time.Microsecond, wall: time.Duration(wall) * time.Microsecond} // kilobytes on Linux
}

// rssChildEnv makes this program run its arguments as a command and
// print the command's peak memory in kilobytes (see maxRSS).
const rssChildEnv = "BENCHRUN_RSS_CHILD"

func rssChild() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		fail("%s: %v", os.Args[1], err)
	}
	wall := time.Since(start)
	ps := cmd.ProcessState
	fmt.Println(peakKB(ps), (ps.UserTime() + ps.SystemTime()).Microseconds(), wall.Microseconds())
}

func check(err error) {
	if err != nil {
		fail("%v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
	os.Exit(1)
}

// rng is the one source of randomness: a fixed seed, so that every run
// generates the same repositories and replies.
var rng = rand.New(rand.NewPCG(1, 2))
