package main

// The cases of the Safety section: how fast limits refuse, how much
// memory large inputs take, how long the pre-commit hook takes on a
// large change, and how soon an interrupt ends a run. The tests assert
// what these runs do; the times are measured here, never there.

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// caseLimits: a 100 MB reply refused (named, then on standard input),
// and one edit at the end of a 1,000,000-line file, each with its peak
// memory.
func (b *bench) caseLimits() {
	n := 1000000
	if *quick {
		n = 20000
	}
	r := b.makeRepo("limits", func(emit func(string, string)) {
		var t strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&t, "line %d of the file\n", i)
		}
		emit("big.txt", t.String())
	})
	blk := searchReplace("big.txt", []string{"line 5 of the file"}, []string{"line five"})
	huge := filepath.Join(b.dir, "huge.md")
	f, err := os.Create(huge)
	check(err)
	w := bufio.NewWriter(f)
	for written := 0; written <= 100<<20; written += len(blk) {
		w.WriteString(blk)
	}
	check(w.Flush())
	check(f.Close())

	refuse := func(stdin bool) func() {
		return func() {
			cmd := exec.Command(b.bin, "check", "-q")
			if stdin {
				in, err := os.Open(huge)
				check(err)
				defer in.Close()
				// Not an *os.File: os/exec gives it through a pipe (a
				// redirected file is refused by its size, as a named one).
				cmd.Stdin = struct{ io.Reader }{in}
			} else {
				cmd.Args = append(cmd.Args, huge)
			}
			cmd.Dir, cmd.Env = r.dir, b.env
			if err := cmd.Run(); exitStatus(err) != 2 {
				fail("a 100 MB reply: %v, want exit 2", err)
			}
		}
	}
	d := median(nil, refuse(false))
	b.rows = append(b.rows, row{name: "7. refuse a 100 MB reply (--max-reply-size 64m)", ours: d, bound: "< 100 ms", ok: d < 100*time.Millisecond})
	d = median(nil, refuse(true))
	b.rows = append(b.rows, row{name: "7. the same through a pipe (reads 64 MiB)", ours: d, bound: "< 1 s", ok: d < time.Second})

	edit := b.writeReply("end-edit.md", "Change the end.\n\n"+searchReplace("big.txt",
		[]string{fmt.Sprintf("line %d of the file", n-2), fmt.Sprintf("line %d of the file", n-1)}, []string{"the end"}))
	drop := func() { output(b.env, r.dir, "git", "update-ref", "-d", "refs/heads/end") }
	d = median(drop, func() { run(b.env, r.dir, b.bin, "apply", "-q", "-b", "end", edit) })
	drop()
	rss := maxRSS(b.env, r.dir, b.bin, "apply", "-q", "-b", "end", edit)
	size := int64(n) * int64(len("line 500000 of the file\n"))
	b.rows = append(b.rows, row{name: fmt.Sprintf("7. one edit at the end of a %d-line file (%.0f MB)", n, float64(size)/1e6),
		note: fmt.Sprintf("%s, %.0f MB", ms(d), float64(rss)/1e6), bound: "< 5 s, < 1 GB", ok: d < 5*time.Second && rss < 1e9})
}

// caseHook: git llm-apply hook run over 5,001 staged files.
func (b *bench) caseHook() {
	n := 5000
	if *quick {
		n = 200
	}
	body := strings.Repeat("// F returns its argument.\nfunc F(x int) int {\n\treturn x // unchanged\n}\n\n", 40)
	r := b.makeRepo("hook", func(emit func(string, string)) {
		emit("README", "readme\n")
	})
	for i := 0; i < n; i++ {
		p := filepath.Join(r.dir, fmt.Sprintf("pkg%02d", i%50), fmt.Sprintf("f%04d.go", i))
		check(os.MkdirAll(filepath.Dir(p), 0o755))
		check(os.WriteFile(p, []byte(fmt.Sprintf("package pkg%02d\n\n%s", i%50, body)), 0o644))
	}
	run(b.env, r.dir, "git", "add", "-A")
	d := median(nil, func() { run(b.env, r.dir, b.bin, "hook", "run") })
	b.rows = append(b.rows, row{name: fmt.Sprintf("8. hook run over %d staged files (%d KB each)", n+1, len(body)>>10),
		ours: d, bound: "< 1 s", ok: d < time.Second})
}

// caseInterrupt: the time from SIGINT to the end of the process, sent
// as a slow reply starts to be resolved (the progress line says when):
// 2000 edits found at the comments rung, each indexing slow.c again
// (half a minute of work); and one edit of a 60 MB file that climbs
// every rung, each indexing the whole file (seconds; left out with
// --quick, where a smaller file could be done before the signal).
func (b *bench) caseInterrupt() {
	lines, edits, bigLines := 20000, 2000, 1300000
	if *quick {
		bigLines = 0
	}
	r := b.makeRepo("interrupt", func(emit func(string, string)) {
		var c, big strings.Builder
		for i := 0; i < lines; i++ {
			fmt.Fprintf(&c, "int v%d = %d; /* step %d */\n", i, i, i)
		}
		for i := 0; i < bigLines; i++ {
			fmt.Fprintf(&big, "int w%d = compute(%d); // step %d\n", i, i*7%1000, i)
		}
		emit("slow.c", c.String())
		emit("big.c", big.String())
	})
	var slow strings.Builder
	slow.WriteString("Renumber the steps.\n\n```diff\n")
	for i := 0; i < lines; i += lines / edits {
		fmt.Fprintf(&slow, "--- a/slow.c\n+++ b/slow.c\n@@\n-int v%d = %d; // step %d\n+int v%d = %d; /* stage %d */\n", i, i, i, i, i, i)
	}
	slow.WriteString("```\n")
	many := b.writeReply("interrupt-many.md", slow.String())
	one := b.writeReply("interrupt-one.md", "Change nothing that is there.\n\n```diff\n--- a/big.c\n+++ b/big.c\n@@\n-int nothing = 1; /* here */\n+int nothing = 2;\n```\n")
	// Parsing: a whole-file block of 5,000,000 lines, about a second
	// of reading.
	f, err := os.Create(filepath.Join(b.dir, "interrupt-parse.md"))
	check(err)
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("Add a big file.\n\nbig.txt\n```\n")
	for range 5000000 {
		w.WriteString("a\n")
	}
	w.WriteString("```\n")
	check(w.Flush())
	check(f.Close())
	cases := []struct{ name, phase, reply string }{
		{fmt.Sprintf("resolving %d edits at the comments rung of a %d-line file", edits, lines), "resolve", many},
		{fmt.Sprintf("resolving one edit climbing every rung of a %d-line file", bigLines), "resolve", one},
		{"reading a 10 MB whole-file reply", "parse", f.Name()},
	}
	for _, c := range cases {
		if bigLines == 0 && c.reply != many {
			continue
		}
		d := b.interruptLatency(r, c.reply, c.phase)
		b.rows = append(b.rows, row{name: "10. SIGINT to exit, " + c.name, ours: d, bound: "≤ 1 s", ok: d <= time.Second})
	}
}

// interruptLatency runs apply on reply *runs times, each time sending
// SIGINT as the reply enters phase, and returns the median time from
// the signal to the end of the process.
func (b *bench) interruptLatency(r *repo, reply, phase string) time.Duration {
	var times []time.Duration
	for i := 0; i <= *runs; i++ {
		cmd := exec.Command(b.bin, "apply", "-q", "-b", "interrupted", reply)
		cmd.Dir, cmd.Env = r.dir, append(b.env, "GIT_LLM_APPLY_TEST_PROGRESS=1")
		pipe, err := cmd.StderrPipe()
		check(err)
		check(cmd.Start())
		lines := bufio.NewScanner(pipe)
		var sent time.Time
		for lines.Scan() {
			if sent.IsZero() && strings.HasSuffix(lines.Text(), ": "+phase) {
				sent = time.Now()
				cmd.Process.Signal(os.Interrupt)
			}
		}
		err = cmd.Wait()
		end := time.Now()
		if exitStatus(err) != 130 || sent.IsZero() {
			fail("interrupting apply %s: %v, want exit 130", reply, err)
		}
		if i > 0 { // the first run warms up
			times = append(times, end.Sub(sent))
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	return times[len(times)/2]
}

// exitStatus is the exit status of a finished command's error.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Exited() {
			return ws.ExitStatus()
		}
		return -1
	}
	fail("%v", err)
	return -1
}

// caseNewFile: peak memory of apply recording a new file of millions of
// one-character lines, as udiffx FILE_NEW (also at the 58 MB),
// apply-patch Add File and a whole-file block, against the reply's
// size. The process's own memory (a one-line reply) is given apart.
func (b *bench) caseNewFile() {
	n, big := 5000000, 29000000
	if *quick {
		n, big = 200000, 0
	}
	r := b.makeRepo("newfile", func(emit func(string, string)) { emit("small.txt", "small\n") })
	tiny := b.writeReply("new-tiny.md", "Add a file.\n\n<FILE_CHANGES>\n<FILE_NEW file_path=\"big.txt\">\na\n</FILE_NEW>\n</FILE_CHANGES>\n")
	base := b.peakRSS(r, tiny)
	b.rows = append(b.rows, row{name: "9. peak memory of apply, a one-line new file (the process)", note: fmt.Sprintf("%.1f MB", float64(base)/1e6), bound: "", ok: true})
	cases := []struct {
		name, head, line, tail string
		lines                  int
		bound                  float64 // times the reply, process included; 0: none
	}{
		{"udiffx FILE_NEW", "Add a big file.\n\n<FILE_CHANGES>\n<FILE_NEW file_path=\"big.txt\">\n", "a\n", "</FILE_NEW>\n</FILE_CHANGES>\n", big, 6},
		{"udiffx FILE_NEW", "Add a big file.\n\n<FILE_CHANGES>\n<FILE_NEW file_path=\"big.txt\">\n", "a\n", "</FILE_NEW>\n</FILE_CHANGES>\n", n, 0},
		{"apply-patch Add File", "Add a big file.\n\n*** Begin Patch\n*** Add File: big.txt\n", "+a\n", "*** End Patch\n", n, 0},
		{"whole-file block", "Add a big file.\n\nbig.txt\n```\n", "a\n", "```\n", n, 0},
	}
	for i, c := range cases {
		if c.lines == 0 {
			continue
		}
		reply := filepath.Join(b.dir, fmt.Sprintf("new-%d.md", i))
		f, err := os.Create(reply)
		check(err)
		w := bufio.NewWriterSize(f, 1<<20)
		w.WriteString(c.head)
		for range c.lines {
			w.WriteString(c.line)
		}
		w.WriteString(c.tail)
		check(w.Flush())
		check(f.Close())
		fi, err := os.Stat(reply)
		check(err)
		size := float64(fi.Size())
		rss := b.peakRSS(r, reply)
		times := float64(rss) / size
		row := row{name: fmt.Sprintf("9. peak memory of apply, %s of %d one-character lines (%.0f MB)", c.name, c.lines, size/1e6),
			note: fmt.Sprintf("%.0f MB: %.1f × the reply, %.1f × without the process's own", float64(rss)/1e6, times, float64(rss-base)/size), ok: true}
		if c.bound > 0 {
			row.bound, row.ok = fmt.Sprintf("≤ %.0f × the reply", c.bound), times <= c.bound
		}
		b.rows = append(b.rows, row)
	}
}

// peakRSS is the median peak memory of three runs of apply of reply
// onto a new branch.
func (b *bench) peakRSS(r *repo, reply string) int64 {
	var peaks []int64
	for range 3 {
		output(b.env, r.dir, "git", "update-ref", "-d", "refs/heads/newfile")
		peaks = append(peaks, maxRSS(b.env, r.dir, b.bin, "apply", "-q", "--max-reply-size", "0", "-b", "newfile", reply))
	}
	sort.Slice(peaks, func(i, j int) bool { return peaks[i] < peaks[j] })
	return peaks[1]
}
