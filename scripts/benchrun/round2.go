package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The cases of issue 16, each paired in one run with its peer: Codex's
// own apply_patch on its format, git apply --cached --check on a huge
// file, the growth from 1,000 to 10,000 edits, and a cold apply's
// memory and fsyncs.

// caseHugeFile: one edit near the end of a 1,000,000-line (26 MB)
// file, check against git apply --cached --check of the same diff,
// and check's peak memory against the file's size.
func (b *bench) caseHugeFile() {
	n := 1000000
	if *quick {
		n = 20000
	}
	var t strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&t, "entry %07d of the ledger\n", i)
	}
	size := int64(t.Len())
	r := b.makeRepo("huge", func(emit func(string, string)) { emit("ledger.txt", t.String()) })
	t.Reset()
	reply := b.writeReply("huge-edit.md", "Close the ledger.\n\n"+searchReplace("ledger.txt",
		[]string{fmt.Sprintf("entry %07d of the ledger", n-20)}, []string{fmt.Sprintf("entry %07d of the ledger, closed", n-20)}))
	patch := b.patchOf(r, reply, "huge-edit.patch")
	ours := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", reply) })
	gits := median(nil, func() { run(b.env, r.dir, "git", "apply", "--cached", "--check", patch) })
	mb := float64(size) / 1e6
	b.rows = append(b.rows, row{name: fmt.Sprintf("14. one edit near the end of a %d-line file (%.0f MB): check vs git apply --cached --check", n, mb),
		ours: ours, gits: gits, bound: "≤ 1.5 × git", ok: ours*2 <= gits*3})
	rss := maxRSS(b.env, r.dir, b.bin, "check", "-q", reply)
	gitRSS := maxRSS(b.env, r.dir, "git", "apply", "--cached", "--check", patch)
	b.rows = append(b.rows, row{name: "14. peak memory of that check",
		note:  fmt.Sprintf("%.0f MB (%.1f × the file; git %.0f MB)", float64(rss)/1e6, float64(rss)/float64(size), float64(gitRSS)/1e6),
		bound: fmt.Sprintf("≤ 3 × the file = %.0f MB", 3*mb), ok: rss <= 3*size})
}

// caseScale: one reply of 10,000 one-line edits against one of 1,000
// to the same file: linear work makes the ratio 10 (plus the fixed
// cost, which lowers it).
func (b *bench) caseScale() {
	size, small, large := 200000, 1000, 10000
	if *quick {
		size, small, large = 20000, 100, 1000
	}
	r := b.sourceRepo(size)
	one, _ := b.editsReply(size, small, false)
	ten, _ := b.editsReply(size, large, false)
	t1 := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", one) })
	t10 := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", ten) })
	ratio := float64(t10) / float64(t1)
	b.rows = append(b.rows, row{name: fmt.Sprintf("15. %d one-line edits vs %d in one reply (%d-line file)", large, small, size),
		note:  fmt.Sprintf("%s vs %s: %.1f ×", ms(t10), ms(t1), ratio),
		bound: "≤ 12 × (linear)", ok: ratio <= 12})
}

// caseColdApply: apply on the 100k-file repository of a reply whose
// objects are all new (each run changes the ten files differently),
// its peak memory cold and warm (the same reply again, every object
// already there), and the fsyncs a cold apply makes, counted with
// strace, against the objects it writes.
func (b *bench) caseColdApply(r *repo) {
	paths, olds := tenFileEdits(r)
	runNo := 0
	fresh := func() string {
		runNo++
		var t strings.Builder
		t.WriteString("Rename the alpha and gamma lines of ten files.\n\n")
		for k, p := range paths {
			for _, old := range olds[k] {
				t.WriteString(searchReplace(p, []string{old}, []string{fmt.Sprintf("%s renamed %d", old, runNo)}))
			}
		}
		return b.writeReply(fmt.Sprintf("cold-%d.md", runNo), t.String())
	}
	drop := func() { output(b.env, r.dir, "git", "update-ref", "-d", "refs/heads/cold") }
	reply := fresh()
	cold := maxRSS(b.env, r.dir, b.bin, "apply", "-q", "-b", "cold", reply)
	drop()
	warm := maxRSS(b.env, r.dir, b.bin, "apply", "-q", "-b", "cold", reply)
	drop()
	touched := int64(10 * len(smallFile(0)))
	limit := 3*r.indexSize + touched
	b.rows = append(b.rows, row{name: fmt.Sprintf("16. peak memory of a cold apply, new objects (index %.1f MB)", float64(r.indexSize)/1e6),
		note:  fmt.Sprintf("cold %.1f MB, warm %.1f MB", float64(cold)/1e6, float64(warm)/1e6),
		bound: fmt.Sprintf("< 3 × index + touched = %.1f MB, cold", float64(limit)/1e6), ok: cold < limit})

	if _, err := exec.LookPath("strace"); err != nil {
		b.rows = append(b.rows, row{name: "16. fsyncs of a cold apply", note: "skipped (no strace)", bound: "—", ok: true})
		return
	}
	reply = fresh()
	before := countObjects(b.env, r.dir)
	syncs, writeouts := fsyncs(b.env, r.dir, b.bin, "apply", "-q", "-b", "cold", reply)
	objects := countObjects(b.env, r.dir) - before
	drop()
	b.rows = append(b.rows, row{name: fmt.Sprintf("16. fsyncs of a cold apply (%d new objects)", objects),
		note:  fmt.Sprintf("%d (and %d writeouts without a flush, sync_file_range)", syncs, writeouts),
		bound: "≤ objects + 4 (one per object, the ref and its log)", ok: syncs <= objects+4})
}

// runStdin runs a command with the file in on its standard input and
// fails the benchmark when it fails.
func runStdin(env []string, dir, in string, name string, args ...string) {
	f, err := os.Open(in)
	check(err)
	defer f.Close()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, f
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		fail("%s < %s: %v\n%s", name, in, err, errb.String())
	}
}

// countObjects is the number of objects of the repository, loose and
// packed (a pack's objects count once per pack holding them).
func countObjects(env []string, dir string) int {
	n := 0
	for _, line := range strings.Split(output(env, dir, "git", "count-objects", "-v"), "\n") {
		k, v, _ := strings.Cut(line, ": ")
		if k == "count" || k == "in-pack" {
			c, _ := strconv.Atoi(strings.TrimSpace(v))
			n += c
		}
	}
	return n
}

// fsyncs runs a command under strace and returns how many flushes
// (fsync, fdatasync, syncfs) and writeouts (sync_file_range, git's
// core.fsyncMethod=batch) it made.
func fsyncs(env []string, dir string, name string, args ...string) (flushes, writeouts int) {
	log := filepath.Join(os.TempDir(), fmt.Sprintf("benchrun-strace-%d", os.Getpid()))
	defer os.Remove(log)
	cmd := exec.Command("strace", append([]string{"-f", "-e", "trace=fsync,fdatasync,syncfs,sync_file_range", "-o", log, name}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		fail("strace %s: %v\n%s", name, err, errb.String())
	}
	data, err := os.ReadFile(log)
	check(err)
	for _, l := range strings.Split(string(data), "\n") {
		switch {
		case strings.Contains(l, "resumed"):
		case strings.Contains(l, "sync_file_range("):
			writeouts++
		case strings.Contains(l, "sync("), strings.Contains(l, "syncfs("):
			flushes++
		}
	}
	return flushes, writeouts
}

// round2 runs the cases of issue 16.
func (b *bench) round2(big *repo) {
	b.caseCodex(false)
	b.caseCodex(true)
	b.caseHugeFile()
	b.caseScale()
	b.caseColdApply(big)
}
