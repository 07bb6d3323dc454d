package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

var (
	mcpSessions   = flag.Int("mcp-sessions", 3, "sessions of 1,000 applies for case 18's long session (medians over them)")
	mcpAttach     = flag.String("mcp-attach", "", "after the timed sessions of case 18's long session, one more with `COMMAND` (split on spaces; {pid} is the server's, {out} a file for the block) run for its first and its last block of calls and stopped by SIGINT: \"strace -f -C -o {out} -p {pid}\", \"perf record -g -o {out} -p {pid}\"")
	mcpAttachTo   = flag.String("mcp-attach-dir", os.TempDir(), "where -mcp-attach's {out} files and -mcp-callgrind's dumps go")
	verboseBlocks = flag.Bool("mcp-blocks", false, "print each block of case 18's long session on standard error")
	mcpCallgrind  = flag.Bool("mcp-callgrind", false, "after the timed sessions of case 18's long session, one more with the server under valgrind's callgrind, dumped at the end of each block of calls: the instructions of each block")
)

// caseMCPLong (issue 30, item 4): 1,000 applies in one session, each
// on a fresh copy of the 10-file repository, *mcpSessions times. Each
// call is timed by the wall clock at the client and by the server's
// processor time (its threads' run time, from /proc), and a block of
// 100 calls by the medians of each, so that the ratio of the last
// block to the first says whether a call's work grows with the
// session, apart from how long the file system made it wait and from
// the odd call that a collection or another process slowed.
func (b *bench) caseMCPLong() {
	calls, sessions := 1000, *mcpSessions
	if *quick {
		calls, sessions = 200, 1
	}
	block := calls / 10
	var wallFirst, wallLast, cpuFirst, cpuLast []time.Duration
	var rssStart, rssEnd, rssFirst []int64
	for n := range sessions {
		r := b.counterRepo(fmt.Sprintf("mcp-long-%d", n))
		s := b.startMCP(r.dir, "mcp-long", true)
		for blk := range calls / block {
			wall, cpu := make([]time.Duration, block), make([]time.Duration, block)
			cpu0 := s.cpuTime()
			for i := range block {
				k := blk*block + i
				start := time.Now()
				s.call("apply", map[string]any{"reply": counterReply(k)})
				wall[i] = time.Since(start)
				cpu1 := s.cpuTime()
				cpu[i], cpu0 = cpu1-cpu0, cpu1
				if k == 0 {
					rssFirst = append(rssFirst, s.rssKB())
				}
			}
			w, c := medianOf(wall), medianOf(cpu)
			switch blk {
			case 0:
				wallFirst, cpuFirst = append(wallFirst, w), append(cpuFirst, c)
				rssStart = append(rssStart, s.rssKB())
			case calls/block - 1:
				wallLast, cpuLast = append(wallLast, w), append(cpuLast, c)
				rssEnd = append(rssEnd, s.rssKB())
			}
			if *verboseBlocks {
				fmt.Fprintf(os.Stderr, "bench: mcp session %d, calls %d-%d: medians %s wall, %s server processor time a call, rss %d kB\n", n+1, blk*block+1, (blk+1)*block, ms(w), ms(c), s.rssKB())
			}
		}
		s.close()
	}
	if *mcpAttach != "" {
		b.attachMCP(calls, block)
	}
	wf, wl, cf, cl := medianOf(wallFirst), medianOf(wallLast), medianOf(cpuFirst), medianOf(cpuLast)
	cpuNote := "no /proc here"
	cpuOK := true
	if cf > 0 {
		cpuNote = fmt.Sprintf("%s against %s: %.2f ×", ms(cl), ms(cf), float64(cl)/float64(cf))
		cpuOK = float64(cl) <= 1.2*float64(cf)
	}
	b.rows = append(b.rows,
		row{name: fmt.Sprintf("18. MCP: %d applies in one session, the server's processor time a call, last %d against first %d (median of each block, medians of %d sessions)", calls, block, block, sessions),
			note: cpuNote, bound: "flat (≤ 1.2 ×)", ok: cpuOK},
		row{name: fmt.Sprintf("18. MCP: the same, wall time a call at the client, last %d against first %d (median of each block, medians of %d sessions)", block, block, sessions),
			note: fmt.Sprintf("%s against %s: %.2f ×", ms(wl), ms(wf), float64(wl)/float64(wf)), bound: "flat (≤ 1.2 ×)", ok: float64(wl) <= 1.2*float64(wf)})
	// Flat from the first block on: by then the heap has grown to the
	// collector's goal (its live part stays 3-4 MB, GODEBUG=gctrace=1);
	// call 1 comes before any collection.
	rs, re, r1 := medianKB(rssStart), medianKB(rssEnd), medianKB(rssFirst)
	b.rows = append(b.rows, row{name: fmt.Sprintf("18. MCP: the server's resident memory after call %d and after call %d (after call 1)", block, calls),
		note:  fmt.Sprintf("%.1f MB, then %.1f MB (%.1f MB)", float64(rs)/1000, float64(re)/1000, float64(r1)/1000),
		bound: "flat (≤ 1.2 ×)", ok: re > 0 && float64(re) <= 1.2*float64(rs)})
	if *mcpCallgrind {
		first, last := b.callgrindMCP(calls, block)
		b.rows = append(b.rows, row{name: fmt.Sprintf("18. MCP: the same, the server's instructions a call (callgrind), last %d against first %d (one session)", block, block),
			note:  fmt.Sprintf("%.2f M against %.2f M: %.2f ×", float64(last)/1e6/float64(block), float64(first)/1e6/float64(block), float64(last)/float64(first)),
			bound: "flat (≤ 1.2 ×)", ok: float64(last) <= 1.2*float64(first)})
	}
}

// counterRepo is a fresh repository of the counter files replay edits.
func (b *bench) counterRepo(name string) *repo {
	return b.makeRepo(name, func(emit func(string, string)) {
		for i := 0; i < replayFiles; i++ {
			emit(counterPath(i), counterFile(i))
		}
	})
}

// counterReply is call k's reply: it moves counter k on (replay's
// turns), a new edit every call.
func counterReply(k int) string {
	path, old, new := turnEdit(k)
	return "Move a counter on.\n\n" + searchReplace(path, []string{strings.TrimSuffix(old, "\n")}, []string{strings.TrimSuffix(new, "\n")})
}

// attachMCP runs one more session of calls applies with -mcp-attach's
// command attached to the server for its first and its last block, so
// that what the server does then (its system calls, its profile) can be
// set side by side.
func (b *bench) attachMCP(calls, block int) {
	check(os.MkdirAll(*mcpAttachTo, 0o755))
	r := b.counterRepo("mcp-long-attach")
	s := b.startMCP(r.dir, "mcp-long", true)
	for blk := range calls / block {
		var at *exec.Cmd
		if blk == 0 || blk == calls/block-1 {
			out := filepath.Join(*mcpAttachTo, fmt.Sprintf("calls-%d-%d", blk*block+1, (blk+1)*block))
			args := strings.Fields(strings.NewReplacer("{pid}", strconv.Itoa(s.cmd.Process.Pid), "{out}", out).Replace(*mcpAttach))
			at = exec.Command(args[0], args[1:]...)
			at.Stderr = os.Stderr
			check(at.Start())
			time.Sleep(500 * time.Millisecond) // until it has attached to every thread
		}
		for i := range block {
			s.call("apply", map[string]any{"reply": counterReply(blk*block + i)})
		}
		if at != nil {
			check(at.Process.Signal(syscall.SIGINT))
			at.Wait()
		}
	}
	s.close()
	fmt.Fprintf(os.Stderr, "bench: %s attached for the first and the last %d calls: %s\n", *mcpAttach, block, *mcpAttachTo)
}

// callgrindMCP runs one more session of calls applies with the server
// under callgrind, which is dumped at the end of every block, and
// returns the instructions of the first block and of the last. Go's
// asynchronous preemption is off (callgrind 3.19 fails on its
// signals), and so is RDTSCP, which it does not know; GOMAXPROCS is 1,
// since under valgrind, which runs one thread at a time, idle
// processors spin in the scheduler for as long as the thread at work
// takes, and their count would be most of a block's.
func (b *bench) callgrindMCP(calls, block int) (first, last int64) {
	if _, err := exec.LookPath("callgrind_control"); err != nil {
		fail("-mcp-callgrind: no callgrind_control (valgrind)")
	}
	check(os.MkdirAll(*mcpAttachTo, 0o755))
	out := filepath.Join(*mcpAttachTo, "callgrind.out")
	r := b.counterRepo("mcp-long-callgrind")
	s := b.startMCPUnder([]string{"valgrind", "--tool=callgrind", "--callgrind-out-file=" + out},
		[]string{"GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off", "GOMAXPROCS=1"}, r.dir, "mcp-long", true)
	pid := strconv.Itoa(s.cmd.Process.Pid)
	run(b.env, ".", "callgrind_control", "-z", pid) // start and handshake out of the count
	for blk := range calls / block {
		for i := range block {
			s.call("apply", map[string]any{"reply": counterReply(blk*block + i)})
		}
		run(b.env, ".", "callgrind_control", "-d", fmt.Sprintf("block-%d", blk+1), pid)
	}
	s.close()
	// Each dump holds what was counted since the one before: the
	// first block is the first dump, the last block the last.
	dumps, err := filepath.Glob(out + ".*")
	check(err)
	totals := map[int]int64{}
	for _, d := range dumps {
		n, err := strconv.Atoi(d[len(out)+1:])
		if err != nil {
			continue
		}
		data, err := os.ReadFile(d)
		check(err)
		for _, l := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(l, "totals: "); ok {
				totals[n], _ = strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			}
		}
	}
	if *verboseBlocks {
		for n := 1; n <= calls/block; n++ {
			fmt.Fprintf(os.Stderr, "bench: callgrind, calls %d-%d: %.2f M instructions a call\n", (n-1)*block+1, n*block, float64(totals[n])/1e6/float64(block))
		}
	}
	return totals[1], totals[calls/block]
}

// cpuTime is the server's processor time so far: the run time of its
// threads (/proc/<pid>/task/*/schedstat, nanoseconds), 0 where there
// is no /proc. A Go program's threads live as long as it does.
func (s *mcpSession) cpuTime() time.Duration {
	dir := fmt.Sprintf("/proc/%d/task", s.cmd.Process.Pid)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	var total time.Duration
	for _, e := range ents {
		data, err := os.ReadFile(filepath.Join(dir, e.Name(), "schedstat"))
		if err != nil {
			continue // a thread that ended meanwhile
		}
		if f := strings.Fields(string(data)); len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			total += time.Duration(ns)
		}
	}
	return total
}

func medianKB(v []int64) int64 {
	d := make([]time.Duration, len(v))
	for i, x := range v {
		d[i] = time.Duration(x)
	}
	return int64(medianOf(d))
}
