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

var codexVersion = "0.169.0" // pinned, so that runs compare

// codexApplyPatch installs Codex's npm package into a scratch
// directory and returns its binary under the name apply_patch, which
// makes the binary run as the standalone apply_patch tool (it reads
// argv[0]); "" and why when it cannot.
func (b *bench) codexApplyPatch() (string, string) {
	if *quick {
		return "", "skipped (--quick: no 400 MB download)"
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return "", "skipped (no npm to install Codex with)"
	}
	prefix := filepath.Join(b.dir, "codex-npm")
	cmd := exec.Command("npm", "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", "@openai/codex@"+codexVersion)
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("skipped (npm install @openai/codex@%s: %v: %s)", codexVersion, err, strings.TrimSpace(lastLine(string(out))))
	}
	found, _ := filepath.Glob(filepath.Join(prefix, "node_modules", "@openai", "codex*", "vendor", "*", "bin", "codex"))
	if len(found) == 0 {
		found, _ = filepath.Glob(filepath.Join(prefix, "node_modules", "@openai", "codex", "vendor", "*", "codex", "codex"))
	}
	if len(found) == 0 {
		return "", "skipped (no codex binary in the npm package)"
	}
	link := filepath.Join(prefix, "apply_patch")
	os.Remove(link)
	check(os.Symlink(found[0], link))
	return link, ""
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// hunkFile is the 50k-line file of case 13: every line unique, so
// that each hunk's context places it once.
func hunkFile(n int) string {
	var t strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&t, "    total += weight(%d) * %d  # row %d\n", i, i%97, i)
	}
	return t.String()
}

// hunkDoc is an apply-patch document of hunks one-line changes to
// path, spread evenly over its n lines, each with three lines of
// context on either side, as Codex writes them.
func hunkDoc(path string, n, hunks int) string {
	var t strings.Builder
	t.WriteString("*** Begin Patch\n*** Update File: " + path + "\n")
	line := func(i int) string { return fmt.Sprintf("    total += weight(%d) * %d  # row %d", i, i%97, i) }
	step := n / hunks
	for k := 0; k < hunks; k++ {
		at := k*step + step/2
		t.WriteString("@@\n")
		for i := at - 3; i < at; i++ {
			t.WriteString(" " + line(i) + "\n")
		}
		t.WriteString("-" + line(at) + "\n+" + strings.Replace(line(at), "total", "sum", 1) + "\n")
		for i := at + 1; i <= at+3; i++ {
			t.WriteString(" " + line(i) + "\n")
		}
	}
	t.WriteString("*** End Patch\n")
	return t.String()
}

// caseCodex: a 500-hunk apply-patch document on a 50k-line file, our
// check against Codex's apply_patch (which also writes the file, in a
// scratch copy restored before each run). Codex works on the file as
// checked out, and so is our check measured first, the repository's
// working tree holding the file (check reads it there when it hashes
// to the staged blob); then with the file only in the object store
// (a loose object to inflate), as before issue 16's last stop.
func (b *bench) caseCodex() {
	n, hunks := *lines, 500
	name := fmt.Sprintf("13. %d-hunk apply-patch on a %d-line file: check vs Codex apply_patch %s", hunks, n, codexVersion)
	content := hunkFile(n)
	r := b.makeRepo("codex", func(emit func(string, string)) { emit("calc.py", content) })
	doc := hunkDoc("calc.py", n, hunks)
	reply := b.writeReply("codex-doc.txt", doc)
	stored := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", "--format", "apply-patch", reply) })
	run(b.env, r.dir, "git", "checkout-index", "--all", "--force")
	run(b.env, r.dir, "git", "update-index", "-q", "--refresh")
	ours := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", "--format", "apply-patch", reply) })
	storedName := "13. the same, the file only in the object store (not checked out)"
	ap, why := b.codexApplyPatch()
	if ap == "" {
		b.rows = append(b.rows, row{name: name + " (file checked out)", ours: ours, note: ms(ours) + "; Codex " + why, bound: "≤ 1.0 × Codex", ok: true},
			row{name: storedName, ours: stored, note: ms(stored) + "; Codex " + why, bound: "(Codex reads a checked-out file)", ok: true})
		return
	}
	scratch := filepath.Join(b.dir, "codex-scratch")
	check(os.MkdirAll(scratch, 0o755))
	restore := func() { check(os.WriteFile(filepath.Join(scratch, "calc.py"), []byte(content), 0o644)) }
	// The document on standard input: as an argument it would pass
	// Linux's 128 KB limit of one argument.
	theirs := median(restore, func() { runStdin(b.env, scratch, reply, ap) })
	// Both must have made the same file: Codex's result against ours.
	restore()
	runStdin(b.env, scratch, reply, ap)
	got, err := os.ReadFile(filepath.Join(scratch, "calc.py"))
	check(err)
	run(b.env, r.dir, b.bin, "apply", "-q", "--format", "apply-patch", "-b", "codex", reply)
	if want := output(b.env, r.dir, "git", "show", "codex:calc.py"); string(got) != want {
		fail("%s: Codex and git-llm-apply made different files", name)
	}
	b.rows = append(b.rows, row{name: name + " (file checked out)", ours: ours, gits: theirs, bound: "≤ 1.0 × Codex (aim 0.5)", ok: ours <= theirs},
		row{name: storedName, ours: stored, gits: theirs, bound: "(Codex reads a checked-out file)", ok: true})
}

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
	syncs := fsyncs(b.env, r.dir, b.bin, "apply", "-q", "-b", "cold", reply)
	objects := countObjects(b.env, r.dir) - before
	drop()
	b.rows = append(b.rows, row{name: fmt.Sprintf("16. fsyncs of a cold apply (%d new objects)", objects),
		note: strconv.Itoa(syncs), bound: "≤ objects + 4 (one per object, the ref and its log)", ok: syncs <= objects+4})
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

// fsyncs runs a command under strace and returns how many fsync and
// fdatasync calls it made.
func fsyncs(env []string, dir string, name string, args ...string) int {
	log := filepath.Join(os.TempDir(), fmt.Sprintf("benchrun-strace-%d", os.Getpid()))
	defer os.Remove(log)
	cmd := exec.Command("strace", append([]string{"-f", "-e", "trace=fsync,fdatasync,syncfs", "-o", log, name}, args...)...)
	cmd.Dir, cmd.Env = dir, env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		fail("strace %s: %v\n%s", name, err, errb.String())
	}
	data, err := os.ReadFile(log)
	check(err)
	n := 0
	for _, l := range strings.Split(string(data), "\n") {
		if strings.Contains(l, "sync(") && !strings.Contains(l, "resumed") {
			n++
		}
	}
	return n
}

// round2 runs the cases of issue 16.
func (b *bench) round2(big *repo) {
	b.caseCodex()
	b.caseHugeFile()
	b.caseScale()
	b.caseColdApply(big)
}
