package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/poll"
)

// writeBigFile writes size bytes of numbered lines to path.
func writeBigFile(t *testing.T, path string, size int) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for n, i := 0, 0; n < size; i++ {
		k, _ := fmt.Fprintf(w, "line %d of a file too long to read in one go\n", i)
		n += k
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// pollReport reads the test hook's file (see package poll): the
// "begin" lines, and the bytes processed in all and when the signal
// came.
func pollReport(t *testing.T, path string) (begun []string, processed, atStop int64) {
	t.Helper()
	data, _ := os.ReadFile(path)
	processed, atStop = -1, -1
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 3 && f[0] == "begin":
			begun = append(begun, f[1])
		case len(f) == 6 && f[0] == "processed":
			processed, _ = strconv.ParseInt(f[1], 10, 64)
			atStop, _ = strconv.ParseInt(f[3], 10, 64)
		}
	}
	return begun, processed, atStop
}

// An interrupt stops a run inside a large file (SPEC section 2):
// reading its checked-out copy, inflating its blob, hashing, the clean
// conversion and finding its lines each look at the context every
// poll.Step bytes. The child process says through the test hook when
// it has begun the work on the file, is sent SIGINT then, and must
// exit 130 having begun no more than a step or so of work per loop
// after the signal, writing nothing. No duration is measured.
func TestInterruptInsideALargeFile(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 200 MiB file")
	}
	const size = 200 << 20
	r := newRepo(t, map[string]string{"small.txt": "small\n"})
	big := filepath.Join(r.dir, "big.txt")
	writeBigFile(t, big, size)
	// The fastest deflate level: a blob of git's format all the same,
	// the level is not in it.
	r.git("-c", "core.looseCompression=1", "add", "big.txt")
	r.git("commit", "-q", "-m", "big")
	reply := r.reply("r.md", "Edit the big file.\n\n"+block("big.txt",
		"line 7 of a file too long to read in one go\n", "line seven\n"))
	refs := r.git("for-each-ref")

	for _, c := range []struct {
		name  string
		setup func()
		wait  string // the work the signal is sent in
		args  []string
	}{
		{"the checked-out copy, --max-file-size 0", nil, "read", []string{"check", "--max-file-size", "0", reply}},
		// Over the default limit the file is refused from its blob's
		// header, unread (TestOverLimitRefusedFromTheHeader); under a
		// limit above its size it is read.
		{"the checked-out copy, under a limit above its size", nil, "read", []string{"check", "--max-file-size", "300m", reply}},
		{"apply, the checked-out copy", nil, "read", []string{"apply", "--max-file-size", "0", "-b", "never", reply}},
		{"finding the lines", nil, "index", []string{"apply", "--max-file-size", "0", "-b", "never", reply}},
		// The copy on disk no longer has the staged size: the blob is
		// inflated (a loose object).
		{"inflating the blob", func() {
			f, err := os.OpenFile(big, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("one more line\n")
			f.Close()
		}, "inflate", []string{"apply", "--max-file-size", "0", "-b", "never", reply}},
		{"the working tree's file, --base worktree", nil, "read", []string{"check", "--max-file-size", "0", "--base", "worktree", reply}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.setup != nil {
				c.setup()
			}
			hook := filepath.Join(t.TempDir(), "poll")
			cmd := exec.Command(binary(), c.args...)
			cmd.Dir = r.dir
			cmd.Env = append(os.Environ(), "GIT_LLM_APPLY_TEST_POLL="+hook)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			var err error
		waiting:
			for {
				select {
				case err = <-exited:
					begun, _, _ := pollReport(t, hook)
					t.Fatalf("the child ended (%v) before it said it began %s (it began %q)\n%s", err, c.wait, begun, stderr.String())
				case <-time.After(5 * time.Millisecond):
					if begun, _, _ := pollReport(t, hook); strings.Contains(" "+strings.Join(begun, " ")+" ", " "+c.wait+" ") {
						cmd.Process.Signal(syscall.SIGINT)
						err = <-exited
						break waiting
					}
				}
			}
			if code := cmd.ProcessState.ExitCode(); code != 130 {
				t.Fatalf("exit %d (%v); want 130\n%s", code, err, stderr.String())
			}
			if !strings.Contains(stderr.String(), "interrupted") || !strings.Contains(stderr.String(), "cut short") {
				t.Errorf("stderr: %s", stderr.String())
			}
			_, processed, atStop := pollReport(t, hook)
			if atStop < 0 {
				t.Fatalf("the hook saw no signal: processed %d", processed)
			}
			// The loops that may be under way at once: the two halves
			// of a read and the hash behind them.
			if after := processed - atStop; after > 3*poll.Step {
				t.Errorf("%d bytes of work begun after the signal; want at most %d", after, 3*poll.Step)
			}
			if got := r.git("for-each-ref"); got != refs {
				t.Errorf("refs changed:\n%s\nwas:\n%s", got, refs)
			}
			if packs, _ := filepath.Glob(filepath.Join(r.dir, ".git", "objects", "pack", "*")); len(packs) > 0 {
				t.Errorf("pack files left: %q", packs)
			}
		})
	}
	// Once for all the runs (what one writes stays for the next to
	// show): each fsck inflates and hashes the whole 200 MiB blob.
	r.fsck()
}
