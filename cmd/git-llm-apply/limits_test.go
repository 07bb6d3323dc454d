package main

import (
	"bufio"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseSize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]int64{
		"0": 0, "512": 512, "64m": 64 << 20, "64M": 64 << 20, "64MiB": 64 << 20, "64mb": 64 << 20,
		"1k": 1024, "2g": 2 << 30, " 3k ": 3 << 10,
	} {
		if got, err := parseSize("f", in); err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "x", "-1", "1t", "9999999999g", "1.5m"} {
		if _, err := parseSize("f", in); err == nil || exitCode(err) != exitUsage {
			t.Errorf("parseSize(%q): %v, want a usage error", in, err)
		}
	}
	for _, n := range []int64{0, 1, 1000, 1024, 64 << 20, 1<<20 + 1} {
		if got, err := parseSize("f", sizeFlag(n)); err != nil || got != n {
			t.Errorf("sizeFlag(%d) = %q reads back as %d, %v", n, sizeFlag(n), got, err)
		}
	}
}

// Each limit refuses with an error naming its flag, records nothing,
// and gives way when the flag raises it.
func TestLimitsEndToEnd(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 2000)
	r := newRepo(t, map[string]string{"src/app.py": appPy, "big.txt": strings.Repeat("big line\n", 1000), "minified.js": long + "\nshort\n"})
	before := r.snapshot()
	edit := r.reply("edit.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	bigEdit := r.reply("big.md", "Change big.\n\n"+block("big.txt", "big line\n", "small line\n"))
	minEdit := r.reply("min.md", "Change min.\n\n"+block("minified.js", "short\n", "y\n"))
	for _, c := range []struct {
		name  string
		args  []string
		code  int
		want  string
		raise []string // flags under which the same command works
	}{
		{"reply size", []string{"--max-reply-size", "100", edit}, exitUsage, "is larger than --max-reply-size (100 bytes)", []string{"--max-reply-size", "1k"}},
		{"reply line", []string{"--max-line-length", "10", edit}, exitUsage, "reply line 1 is 11 bytes long, more than --max-line-length (10 bytes)", []string{"--max-line-length", "0"}},
		{"edits", []string{"--max-edits", "0", edit}, exitOK, "", nil},
		{"file size", []string{"--max-file-size", "1k", bigEdit}, exitFailed, "big.txt is 8.8 KiB, more than --max-file-size (1 KiB)", []string{"--max-file-size", "16k"}},
		{"file line", []string{"--max-line-length", "1k", minEdit}, exitFailed, "line 1 of minified.js is 2.0 KiB long, more than --max-line-length (1 KiB)", []string{"--max-line-length", "4k"}},
		{"bad size", []string{"--max-file-size", "lots", edit}, exitUsage, `--max-file-size: "lots" is not a size`, nil},
	} {
		args := append([]string{"apply", "-b", "limits"}, c.args...)
		res := r.run(args...)
		if res.code != c.code || !strings.Contains(res.stderr, c.want) {
			t.Errorf("%s: exit %d, want %d saying %q\n%s", c.name, res.code, c.code, c.want, res.stderr)
		}
		if c.code != exitOK {
			if b := r.branches(); b != "main" {
				t.Errorf("%s: branches %q after a refusal", c.name, b)
			}
		} else {
			r.git("branch", "-D", "limits")
		}
		if c.raise != nil {
			last := c.args[len(c.args)-1]
			if res := r.run(append(append([]string{"apply", "-b", "limits"}, c.raise...), last)...); res.code != 0 {
				t.Errorf("%s, raised: exit %d\n%s", c.name, res.code, res.stderr)
			}
			r.git("branch", "-D", "limits")
		}
	}
	res := r.runIn(r.dir, strings.Repeat("y", 2048), "check", "--max-reply-size", "1k")
	if res.code != exitUsage || !strings.Contains(res.stderr, "reply on standard input is larger than --max-reply-size (1 KiB)") {
		t.Errorf("standard input over the limit: exit %d\n%s", res.code, res.stderr)
	}
	r.fsck()
	r.assertUntouched(before)
}

// maxRSS runs cmd and returns its exit status and peak resident
// memory in MiB. Linux counts the memory of the process that starts a
// program into that program's peak (Go starts it from a clone sharing
// its memory), and the test binary grows with the tests running beside
// this one: so cmd is started by a fresh copy of the test binary (see
// rssHelper), whose own memory stays a few MiB.
func maxRSS(t *testing.T, cmd *exec.Cmd) (int, int64) {
	t.Helper()
	h := exec.Command(os.Args[0], append([]string{cmd.Path}, cmd.Args[1:]...)...)
	h.Dir, h.Stdin = cmd.Dir, cmd.Stdin
	h.Env = append(cmd.Environ(), rssHelperEnv+"=1")
	out, err := h.Output()
	var code int
	var kib int64
	if _, serr := fmt.Sscan(string(out), &code, &kib); err != nil || serr != nil {
		t.Fatalf("measuring %v: %v %v: %q", cmd.Args, err, serr, out)
	}
	if kib < 0 {
		t.Skip("no rusage here")
	}
	return code, kib >> 10
}

// rssHelperEnv makes the test binary rssHelper.
const rssHelperEnv = "GIT_LLM_APPLY_TEST_RSS_HELPER"

// rssHelper runs the command its arguments name, with its standard
// input, and prints the command's exit status and peak resident memory
// in KiB (-1 where the system does not say).
func rssHelper() int {
	c := exec.Command(os.Args[1], os.Args[2:]...)
	c.Stdin = os.Stdin
	c.Run()
	if c.ProcessState == nil {
		return 2
	}
	fmt.Println(c.ProcessState.ExitCode(), peakRSSKiB(c.ProcessState))
	return 0
}

// writeStream writes n lines made by line to path without holding them.
func writeStream(t *testing.T, path string, n int, line func(i int) string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := 0; i < n; i++ {
		w.WriteString(line(i))
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// A 100 MB reply is refused without being read whole, and a
// 1,000,000-line file is edited, both in bounded memory. How long they
// take is scripts/bench's business (case 7), not a test's.
func TestLargeInputs(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("large inputs")
	}
	r := newRepo(t, map[string]string{"small.txt": "small\n"})
	writeStream(t, filepath.Join(r.dir, "big.txt"), 1000000, func(i int) string { return fmt.Sprintf("line %d of the file\n", i) })
	r.git("add", "big.txt")
	r.git("commit", "-q", "-m", "big")
	huge := filepath.Join(t.TempDir(), "huge.md")
	blk := block("big.txt", "line 5 of the file\n", "line five\n")
	writeStream(t, huge, (100<<20)/len(blk)+1, func(int) string { return blk })

	cmd := exec.Command(binary(), "check", huge)
	cmd.Dir = r.dir
	code, rss := maxRSS(t, cmd)
	t.Logf("100 MB reply: exit %d, %d MiB", code, rss)
	if code != exitUsage || rss > 64 {
		t.Errorf("100 MB reply: exit %d, %d MiB; want exit 2, refused before it is read", code, rss)
	}
	cmd = exec.Command(binary(), "check")
	cmd.Dir = r.dir
	cmd.Stdin, _ = os.Open(huge)
	code, rss = maxRSS(t, cmd)
	t.Logf("100 MB reply on standard input, from the file: exit %d, %d MiB", code, rss)
	if code != exitUsage || rss > 64 {
		t.Errorf("100 MB reply on standard input, from the file: exit %d, %d MiB; want exit 2, refused before it is read", code, rss)
	}
	cmd = exec.Command(binary(), "check")
	cmd.Dir = r.dir
	in, err := os.Open(huge)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	cmd.Stdin = struct{ io.Reader }{in} // not an *os.File: os/exec copies it through a pipe
	code, rss = maxRSS(t, cmd)
	t.Logf("100 MB reply on standard input, through a pipe: exit %d, %d MiB", code, rss)
	if code != exitUsage || rss > 3*64 {
		t.Errorf("100 MB reply on standard input, through a pipe: exit %d, %d MiB; want exit 2, under 3 x --max-reply-size", code, rss)
	}

	edit := r.reply("edit.md", "Change the end.\n\n"+block("big.txt", "line 999998 of the file\nline 999999 of the file\n", "the end\n"))
	cmd = exec.Command(binary(), "apply", "-q", "-b", "big", edit)
	cmd.Dir = r.dir
	code, rss = maxRSS(t, cmd)
	t.Logf("1,000,000-line file (19 MB): exit %d, %d MiB", code, rss)
	if code != 0 || rss > 1024 {
		t.Errorf("1,000,000-line file: exit %d, %d MiB; want it applied, under 1 GiB", code, rss)
	}
	if got := r.git("diff", "--stat", "main", "big"); !strings.Contains(got, "1 insertion(+), 2 deletions(-)") {
		t.Errorf("diff: %s", got)
	}
	r.fsck()
}

// A new file of millions of one-character lines is recorded whole and
// in memory a small multiple of the reply (it took 80 times the reply:
// a string, offsets and a diff edit for every line). Measured by
// scripts/bench (case 9): about 4.5 times the reply for udiffx, once
// the process's own 14 MB are set aside; the bounds here are loose
// enough for any machine and far below what the per-line copies took.
func TestNewFileOfShortLines(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("large inputs")
	}
	const n = 4000000 // lines of "a\n": an 8 MB file
	for _, c := range []struct {
		format, head, line, tail string
		times                    int64 // the bound: 64 MiB and this many times the reply
	}{
		{"udiffx", "Add a big file.\n\n<FILE_CHANGES>\n<FILE_NEW file_path=\"big.txt\">\n", "a\n", "</FILE_NEW>\n</FILE_CHANGES>\n", 8},
		// The apply-patch and whole readers still keep a string per
		// reply line (scripts/bench, case 9).
		{"apply-patch", "Add a big file.\n\n*** Begin Patch\n*** Add File: big.txt\n", "+a\n", "*** End Patch\n", 16},
		{"whole", "Add a big file.\n\nbig.txt\n```\n", "a\n", "```\n", 24},
	} {
		t.Run(c.format, func(t *testing.T) {
			r := newRepo(t, map[string]string{"small.txt": "small\n"})
			reply := filepath.Join(t.TempDir(), "new.md")
			writeStream(t, reply, n+2, func(i int) string {
				switch i {
				case 0:
					return c.head
				case n + 1:
					return c.tail
				}
				return c.line
			})
			fi, err := os.Stat(reply)
			if err != nil {
				t.Fatal(err)
			}
			size := fi.Size() >> 20
			cmd := exec.Command(binary(), "apply", "-q", "-b", "big", reply)
			cmd.Dir = r.dir
			code, rss := maxRSS(t, cmd)
			t.Logf("%s: a new file of %d lines, a %d MiB reply: exit %d, %d MiB", c.format, n, size, code, rss)
			if code != 0 {
				t.Fatalf("exit %d", code)
			}
			if bound := 64 + c.times*size; rss > bound {
				t.Errorf("peak memory %d MiB, want at most %d MiB (64 MiB and %d times the reply)", rss, bound, c.times)
			}
			h := sha1.New()
			fmt.Fprintf(h, "blob %d\x00", 2*n)
			for range n {
				h.Write([]byte("a\n"))
			}
			if got, want := strings.TrimSpace(r.git("rev-parse", "big:big.txt")), hex.EncodeToString(h.Sum(nil)); got != want {
				t.Errorf("big.txt on big is %s, want %s", got, want)
			}
			r.fsck()
		})
	}
}
