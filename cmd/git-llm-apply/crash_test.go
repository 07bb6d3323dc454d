package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Crashes, races and interrupts (issue: reliability). Each test runs
// the built binary against a real repository and checks what git
// itself says afterwards.

// createReply is a reply that creates path with content: it applies
// whatever earlier runs recorded, and again, identically, when a run
// recorded it before being killed.
func createReply(subject, path, content string) string {
	return subject + "\n\n" + block(path, "", content)
}

// lockFiles lists the *.lock files under the repository's .git.
func lockFiles(t *testing.T, gitDir string) []string {
	t.Helper()
	var locks []string
	filepath.WalkDir(gitDir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lock") {
			locks = append(locks, p)
		}
		return nil
	})
	return locks
}

// SIGKILL at random moments of many apply runs: afterwards git fsck is
// clean, every branch names a complete commit whose files are whole, a
// lock left behind is reported with the command that removes it, and
// the checkout never changed.
func TestKilledRunsLeaveARepositoryGitAccepts(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	before := r.snapshot()
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	t.Logf("seed %d", seed)
	runs := 60
	if testing.Short() {
		runs = 15
	}
	dir := t.TempDir()
	// Three replies per run, on a branch of its own or appended to a
	// shared one; -o writes patch files as well.
	apply := func(i int) *exec.Cmd {
		replies := filepath.Join(dir, fmt.Sprintf("run%03d", i))
		os.MkdirAll(replies, 0o755)
		for k := 0; k < 3; k++ {
			name := fmt.Sprintf("new/%03d-%d.txt", i, k)
			os.WriteFile(filepath.Join(replies, fmt.Sprintf("r%d.md", k)),
				[]byte(createReply(fmt.Sprintf("Add %s.", name), name, strings.Repeat(name+"\n", 50))), 0o644)
		}
		branch := "crash/shared"
		if i%3 == 0 {
			branch = fmt.Sprintf("crash/own-%03d", i)
		}
		cmd := exec.Command(binary(), "apply", "-q", "-b", branch, "-o", filepath.Join(dir, "patches", strconv.Itoa(i)), replies)
		cmd.Dir = r.dir
		return cmd
	}
	// Unkilled runs of the same shape bound the random delays (their
	// median, and a tenth more, so that some kills come after the
	// last write).
	var spans []time.Duration
	for i := runs; i < runs+3; i++ {
		start := time.Now()
		if out, err := apply(i).CombinedOutput(); err != nil {
			t.Fatalf("unkilled run: %v\n%s", err, out)
		}
		spans = append(spans, time.Since(start))
	}
	slices.Sort(spans)
	span := spans[1] * 11 / 10
	probe := r.reply("probe.md", createReply("Probe.", "probe.txt", "probe\n"))
	killed, stale := 0, 0
	for i := 0; i < runs; i++ {
		branch := "crash/shared"
		if i%3 == 0 {
			branch = fmt.Sprintf("crash/own-%03d", i)
		}
		cmd := apply(i)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.Int64N(int64(span) + 1)))
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			killed++
		}

		for _, lock := range lockFiles(t, filepath.Join(r.dir, ".git")) {
			// The next run refuses, saying the lock is older than it and
			// how to remove it; removing it as told recovers. (The
			// binary: a lock's age is measured against the process's.)
			res := r.runBinary("apply", "-q", "-b", branch, probe)
			if res.code != exitMoved || !strings.Contains(res.stderr, "rm "+lock) {
				t.Fatalf("run after a kill left %s: exit %d, want 3 with the rm command\n%s", lock, res.code, res.stderr)
			}
			os.Remove(lock)
			stale++
		}
	}
	tmp, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", "pack", "tmp_*"))
	t.Logf("%d of %d runs killed (an unkilled run takes about %v); %d stale locks reported and removed; %d temporary object files left for git gc",
		killed, runs, span, stale, len(tmp))

	r.fsck()
	r.assertUntouched(before)
	// Every branch is a chain of whole commits: each file a commit adds
	// holds exactly what its reply wrote.
	for _, b := range strings.Fields(r.branches()) {
		if !strings.HasPrefix(b, "crash/") {
			continue
		}
		for _, f := range r.tree(b) {
			name := strings.Fields(f)[1]
			if strings.HasPrefix(name, "new/") {
				if got, want := r.show(b, name), strings.Repeat(name+"\n", 50); got != want {
					t.Errorf("%s:%s is not whole: %q", b, name, got)
				}
			}
		}
	}
	// A patch file is whole or absent: a killed run leaves at most a
	// temporary file beside it.
	patches, _ := filepath.Glob(filepath.Join(dir, "patches", "*", "*.patch"))
	for _, p := range patches {
		data, _ := os.ReadFile(p)
		if !strings.HasSuffix(string(data), "\n-- \ngit-llm-apply\n\n") {
			t.Errorf("%s is truncated:\n%s", p, data)
		}
	}
	if len(patches) == 0 {
		t.Error("no patch file written")
	}
	// And the repository goes on working.
	final := r.reply("final.md", createReply("Final.", "final.txt", "final\n"))
	if res := r.run("apply", "-q", "-b", "crash/shared", final); res.code != 0 {
		t.Fatalf("apply after the crashes: exit %d\n%s", res.code, res.stderr)
	}
	r.fsck()
}

// A ref lock left by a killed process, older than the run: the run
// records nothing, exits 3 and gives the command that removes it; once
// removed, the same command works.
func TestStaleRefLock(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	before := r.snapshot()
	lock := filepath.Join(r.dir, ".git", "refs", "heads", "stale.lock")
	if err := os.WriteFile(lock, []byte("0123456789012345678901234567890123456789\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(lock, old, old)
	reply := r.reply("r.md", createReply("Add a.", "a.txt", "a\n"))
	// The binary: "older than the run" is older than its process.
	res := r.runBinary("apply", "-b", "stale", reply)
	if res.code != exitMoved || !strings.Contains(res.stderr, "rm "+lock) || !strings.Contains(res.stderr, "nothing was recorded") {
		t.Fatalf("exit %d, want 3 with the rm command\n%s", res.code, res.stderr)
	}
	if b := r.branches(); b != "main" {
		t.Errorf("branches: %s", b)
	}
	os.Remove(lock)
	if res := r.run("apply", "-b", "stale", reply); res.code != 0 {
		t.Fatalf("after removing the lock: exit %d\n%s", res.code, res.stderr)
	}
	r.fsck()
	r.assertUntouched(before)
}

// Eight processes append to one branch at once, round after round:
// each records its commit on top of the others or exits 3 having
// recorded nothing, and no recorded commit is lost.
func TestConcurrentRunsOnOneBranch(t *testing.T) {
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	r.git("branch", "race")
	before := r.snapshot()
	rounds, procs := 12, 8
	if testing.Short() {
		rounds = 4
	}
	var recorded []string // commits of the runs that exited 0
	want := map[string]bool{}
	for round := 0; round < rounds; round++ {
		cmds := make([]*exec.Cmd, procs)
		outs := make([]*strings.Builder, procs)
		errs := make([]*strings.Builder, procs)
		for j := range cmds {
			name := fmt.Sprintf("race/%02d-%d.txt", round, j)
			reply := r.reply(fmt.Sprintf("r%02d-%d.md", round, j), createReply("Add "+name+".", name, name+"\n"))
			cmds[j] = exec.Command(binary(), "apply", "--json", "-b", "race", reply)
			cmds[j].Dir = r.dir
			outs[j], errs[j] = &strings.Builder{}, &strings.Builder{}
			cmds[j].Stdout, cmds[j].Stderr = outs[j], errs[j]
		}
		for _, c := range cmds {
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
		}
		won := 0
		for j, c := range cmds {
			c.Wait()
			name := fmt.Sprintf("race/%02d-%d.txt", round, j)
			switch code := c.ProcessState.ExitCode(); code {
			case 0:
				var doc struct {
					Replies []struct{ Commit string } `json:"replies"`
				}
				if err := json.Unmarshal([]byte(outs[j].String()), &doc); err != nil || len(doc.Replies) != 1 || doc.Replies[0].Commit == "" {
					t.Fatalf("round %d, run %d: report %q (%v)", round, j, outs[j], err)
				}
				recorded = append(recorded, doc.Replies[0].Commit)
				want[name] = true
				won++
			case exitMoved:
				if !strings.Contains(errs[j].String(), "nothing was recorded") {
					t.Errorf("round %d, run %d: exit 3 without saying nothing was recorded:\n%s", round, j, errs[j])
				}
				var doc struct {
					OK      bool
					Error   string
					Replies []struct{ Commit *string }
				}
				// The move may be seen before the reply is read or after;
				// a run may also find the ref's lock held by another
				// (exit 3 too, SPEC section 2).
				err := json.Unmarshal([]byte(outs[j].String()), &doc)
				lost := strings.Contains(doc.Error, "branch moved") || strings.Contains(doc.Error, "is locked")
				if err != nil || doc.OK || !lost || len(doc.Replies) > 1 ||
					len(doc.Replies) == 1 && doc.Replies[0].Commit != nil {
					t.Errorf("round %d, run %d: exit 3 with the report %s (%v)", round, j, outs[j], err)
				}
			default:
				t.Fatalf("round %d, run %d: exit %d\n%s", round, j, code, errs[j])
			}
		}
		if won == 0 {
			t.Fatalf("round %d: no run recorded (the first to take the lock always can)", round)
		}
	}
	// The branch is one line of exactly the recorded commits.
	chain := strings.Fields(r.git("rev-list", "--first-parent", "race", "^main"))
	if all := strings.Fields(r.git("rev-list", "race", "^main")); len(all) != len(chain) {
		t.Errorf("race is not linear: %d commits, %d on the first-parent line", len(all), len(chain))
	}
	if len(chain) != len(recorded) {
		t.Errorf("race holds %d commits; %d runs said they recorded one", len(chain), len(recorded))
	}
	for _, c := range recorded {
		if out, err := exec.Command("git", "-C", r.dir, "merge-base", "--is-ancestor", c, "race").CombinedOutput(); err != nil {
			t.Errorf("commit %s, reported recorded, is not on race: %v %s", c, err, out)
		}
	}
	got := map[string]bool{}
	for _, f := range r.tree("race") {
		if name := strings.Fields(f)[1]; strings.HasPrefix(name, "race/") {
			got[name] = true
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("files on race:\n%v\nwant those of the runs that exited 0:\n%v", got, want)
	}
	t.Logf("%d rounds of %d processes: %d recorded, %d refused with exit 3", rounds, procs, len(recorded), rounds*procs-len(recorded))
	r.fsck()
	r.assertUntouched(before)
}

// SIGINT during a long batch: the replies finished before it stay, the
// one in hand (if the signal came while it was worked on) records
// nothing, the rest are not read, and the report says which.
func TestInterruptedBatch(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	before := r.snapshot()
	const n = 3000
	dir := batchReplies(t, n)
	res := interruptAt(t, r, "progress: reply 40 of 3000", "apply", "-q", "-b", "batch", dir)
	m := regexp.MustCompile(`interrupted: (\d+) of 3000 replies done, the last, (\S+), recorded on batch(?:; (\S+) was cut short: nothing of it is recorded)?; not read: (\S+) to (\S+) \((\d+) replies\)`).FindStringSubmatch(res.stderr)
	if m == nil {
		t.Fatalf("the report does not say where the run stopped:\n%s", res.stderr)
	}
	done, _ := strconv.Atoi(m[1])
	reply := func(i int) string { return filepath.Join(dir, fmt.Sprintf("r%04d.md", i)) }
	next := done
	if m[3] != "" {
		if m[3] != reply(done) {
			t.Errorf("cut %s after %d replies done", m[3], done)
		}
		next++
	}
	// The signal came as reply 40 started: the 39 before it were done.
	if done < 39 || m[2] != reply(done-1) || m[4] != reply(next) || m[6] != strconv.Itoa(n-next) {
		t.Errorf("report %q does not match %d replies done", m[0], done)
	}
	// One commit per reply done, in order, each holding its file, and
	// nothing of the reply cut short.
	subjects := strings.Split(strings.TrimSpace(r.git("log", "--reverse", "--format=%s", "batch", "^main")), "\n")
	if len(subjects) != done {
		t.Fatalf("batch holds %d commits, the report says %d replies were recorded", len(subjects), done)
	}
	for i, s := range subjects {
		if want := fmt.Sprintf("Add new/%04d.txt.", i); s != want {
			t.Fatalf("commit %d is %q, want %q", i, s, want)
		}
	}
	files := r.tree("batch")
	if len(files) != done+1 { // and src/app.py
		t.Errorf("batch holds %d files, want %d", len(files), done+1)
	}
	t.Logf("interrupted after %d of %d replies (cut short: %q)", done, n, m[3])
	r.fsck()
	r.assertUntouched(before)
}

// batchReplies writes n replies, each creating one file, into a new
// directory and returns it.
func batchReplies(t *testing.T, n int) string {
	dir := t.TempDir()
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("new/%04d.txt", i)
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("r%04d.md", i)), []byte(createReply("Add "+name+".", name, name+"\n")), 0o644)
	}
	return dir
}

// slowBatch makes a repository holding big.c and four replies: the
// first two and the last create a file each; the third makes 2000
// edits to big.c, each found at the comments rung only, which indexes
// the whole file again for each edit: half a minute of work or more,
// which the tests cut short as soon as it starts. It returns the
// repository, the replies and big.c.
func slowBatch(t *testing.T) (*repo, []string, string) {
	var big, slow strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&big, "int v%d = %d; /* step %d */\n", i, i, i)
	}
	slow.WriteString("Renumber the steps.\n\n```diff\n")
	for i := 0; i < 20000; i += 10 {
		fmt.Fprintf(&slow, "--- a/big.c\n+++ b/big.c\n@@\n-int v%d = %d; // step %d\n+int v%d = %d; /* stage %d */\n", i, i, i, i, i, i)
	}
	slow.WriteString("```\n")
	r := newRepo(t, map[string]string{"big.c": big.String()})
	dir := t.TempDir()
	var replies []string
	for i, text := range []string{
		createReply("Add a.txt.", "a.txt", "a\n"),
		createReply("Add b.txt.", "b.txt", "b\n"),
		slow.String(),
		createReply("Add d.txt.", "d.txt", "d\n"),
	} {
		p := filepath.Join(dir, fmt.Sprintf("r%d.md", i+1))
		os.WriteFile(p, []byte(text), 0o644)
		replies = append(replies, p)
	}
	return r, replies, big.String()
}

// SIGINT while a slow reply is being resolved stops the run there: exit
// 130, the two replies before it recorded, nothing of it, the last one
// not read, and a repository git accepts.
func TestInterruptedSlowReply(t *testing.T) {
	t.Parallel()
	r, replies, big := slowBatch(t)
	before := r.snapshot()
	res := interruptAt(t, r, "progress: reply 3 of 4 ("+replies[2]+"): resolve", "apply", "-b", "slow", filepath.Dir(replies[0]))
	want := fmt.Sprintf("interrupted: 2 of 4 replies done, the last, %s, recorded on slow; %s was cut short: nothing of it is recorded; not read: %s",
		replies[1], replies[2], replies[3])
	if !strings.Contains(res.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, res.stderr)
	}
	if got := strings.TrimSpace(r.git("log", "--reverse", "--format=%s", "slow", "^main")); got != "Add a.txt.\nAdd b.txt." {
		t.Errorf("slow holds the commits %q, want those of r1.md and r2.md", got)
	}
	if got := r.show("slow", "big.c"); got != big {
		t.Errorf("big.c changed on slow: the reply cut short left part of its edits")
	}
	if files := r.tree("slow"); len(files) != 3 {
		t.Errorf("slow holds %v, want big.c, a.txt and b.txt", files)
	}
	r.fsck()
	r.assertUntouched(before)
}

// check stops the same way, and its JSON report says so.
func TestInterruptedCheck(t *testing.T) {
	t.Parallel()
	r, replies, _ := slowBatch(t)
	res := interruptAt(t, r, "progress: reply 3 of 4 ("+replies[2]+"): resolve", "check", "--json", filepath.Dir(replies[0]))
	var doc struct {
		Replies []struct {
			Source string
			Status string
		}
		OK          bool
		Interrupted bool
		Cut         string
		Unread      []string
	}
	if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
		t.Fatalf("report: %v\n%s", err, res.stdout)
	}
	if doc.OK || !doc.Interrupted || doc.Cut != replies[2] || !slices.Equal(doc.Unread, replies[3:]) || len(doc.Replies) != 2 ||
		doc.Replies[0].Source != replies[0] || doc.Replies[1].Source != replies[1] || doc.Replies[1].Status != "checked" {
		t.Errorf("report %+v; want r1.md and r2.md checked, r3.md cut, r4.md unread", doc)
	}
	want := fmt.Sprintf("interrupted: 2 of 4 replies done, the last being %s; %s was cut short: it is not reported; not read: %s", replies[1], replies[2], replies[3])
	if !strings.Contains(res.stderr, want) {
		t.Errorf("stderr does not say %q:\n%s", want, res.stderr)
	}
}

// translate prints the diffs of the replies done, nothing of the one
// cut short.
func TestInterruptedTranslate(t *testing.T) {
	t.Parallel()
	r, replies, _ := slowBatch(t)
	res := interruptAt(t, r, "progress: reply 3 of 4 ("+replies[2]+"): resolve", "translate", filepath.Dir(replies[0]))
	var files []string
	for _, l := range strings.Split(res.stdout, "\n") {
		if strings.HasPrefix(l, "diff --git ") {
			files = append(files, l)
		}
	}
	if want := []string{"diff --git a/a.txt b/a.txt", "diff --git a/b.txt b/b.txt"}; !slices.Equal(files, want) {
		t.Errorf("translate printed the diffs of %q, want %q", files, want)
	}
	if !strings.Contains(res.stderr, replies[2]+" was cut short") {
		t.Errorf("stderr does not name the reply cut short:\n%s", res.stderr)
	}
}

// interruptAt runs the binary in r with args, its progress lines on
// (progressEnv), sends it SIGINT as soon as a line of its standard
// error contains at, and requires exit status 130.
func interruptAt(t *testing.T, r *repo, at string, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary(), args...)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), progressEnv+"=1")
	var out strings.Builder
	cmd.Stdout = &out
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	sent := false
	lines := bufio.NewScanner(pipe)
	lines.Buffer(nil, 1<<20)
	for lines.Scan() {
		errb.WriteString(lines.Text() + "\n")
		if !sent && strings.Contains(lines.Text(), at) {
			cmd.Process.Signal(os.Interrupt)
			sent = true
		}
	}
	cmd.Wait()
	if !sent {
		t.Fatalf("the run ended without printing %q:\n%s", at, errb.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s", code, exitInterrupted, errb.String())
	}
	return result{out.String(), errb.String(), exitInterrupted}
}
