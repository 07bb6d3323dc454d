package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// tenFileEdits picks ten files spread over the repository and the two
// lines of each that the case-1 reply changes.
func tenFileEdits(r *repo) (paths []string, olds [][2]string) {
	for k := 0; k < 10; k++ {
		i := rng.IntN(len(r.paths) - 1) // the last path is src/big.go
		paths = append(paths, r.paths[i])
		olds = append(olds, [2]string{fmt.Sprintf("alpha %d", i), fmt.Sprintf("gamma %d", i)})
	}
	return paths, olds
}

// tenFileReply writes the 10-file, 20-edit reply in a format: the same
// edits in each, so that every format is measured on the same job.
func (b *bench) tenFileReply(format string, paths []string, olds [][2]string) string {
	var t strings.Builder
	t.WriteString("Rename the alpha and gamma lines of ten files.\n\n")
	if format == "apply-patch" {
		t.WriteString("*** Begin Patch\n")
	}
	for k, p := range paths {
		switch format {
		case "diff":
			for _, old := range olds[k] {
				t.WriteString(searchReplace(p, []string{old}, []string{old + " renamed"}))
			}
		case "udiff":
			t.WriteString("```diff\n--- a/" + p + "\n+++ b/" + p + "\n")
			for _, old := range olds[k] {
				t.WriteString("@@\n-" + old + "\n+" + old + " renamed\n")
			}
			t.WriteString("```\n\n")
		case "apply-patch":
			t.WriteString("*** Update File: " + p + "\n")
			for _, old := range olds[k] {
				t.WriteString("@@\n-" + old + "\n+" + old + " renamed\n")
			}
		case "fiup":
			for _, old := range olds[k] {
				t.WriteString("<<<FIUP>>>\n[FILE]: " + p + "\n[OP]: REPLACE\n[ANCHOR]\n" + old + "\n[CONTENT]\n" + old + " renamed\n<<<END>>>\n\n")
			}
		}
	}
	if format == "apply-patch" {
		t.WriteString("*** End Patch\n")
	}
	return b.writeReply("ten-files-"+format+".md", t.String())
}

// patchOf is the git diff of a reply, made by translate: the equivalent
// patch git is given.
func (b *bench) patchOf(r *repo, reply, name string) string {
	patch := output(b.env, r.dir, b.bin, "translate", reply)
	p := filepath.Join(b.dir, name)
	check(os.WriteFile(p, []byte(patch), 0o644))
	return p
}

// caseCheck: check of the 10-file reply against the index, in several
// formats, and git apply --cached --check of the same patch.
func (b *bench) caseCheck(r *repo) {
	paths, olds := tenFileEdits(r)
	reply := b.tenFileReply("diff", paths, olds)
	b.tenFile = reply
	patch := b.patchOf(r, reply, "ten-files.patch")
	gits := median(nil, func() { run(b.env, r.dir, "git", "apply", "--cached", "--check", patch) })
	b.checkGits = gits
	for _, format := range []string{"diff", "udiff", "apply-patch", "fiup"} {
		reply := b.tenFileReply(format, paths, olds)
		if got := output(b.env, r.dir, b.bin, "translate", reply); got != output(b.env, r.dir, b.bin, "translate", b.tenFile) {
			fail("the %s reply does not make the same diff as the diff reply", format)
		}
		ours := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", reply) })
		b.rows = append(b.rows, row{name: fmt.Sprintf("1. check, 10 files / 20 edits (%s), %d-file index", format, len(r.paths)),
			ours: ours, gits: gits, bound: "≤ 1.5 × git apply --cached --check", ok: ours <= gits*3/2})
	}
}

// caseApply: apply of the same reply to a new branch, against git's
// own pipeline for recording a patch without touching the index, and
// its peak memory.
func (b *bench) caseApply(r *repo) {
	reply := b.tenFile
	patch := filepath.Join(b.dir, "ten-files.patch")
	tmpIndex := filepath.Join(b.dir, "tmp-index")
	drop := func(branch string) func() {
		return func() { output(b.env, r.dir, "git", "update-ref", "-d", "refs/heads/"+branch) }
	}
	ours := median(drop("bench"), func() { run(b.env, r.dir, b.bin, "apply", "-q", "-b", "bench", reply) })
	gitEnv := append(append([]string{}, b.env...), "GIT_INDEX_FILE="+tmpIndex)
	gits := median(func() {
		os.Remove(tmpIndex)
		drop("gitbench")()
	}, func() {
		run(gitEnv, r.dir, "git", "read-tree", "HEAD")
		run(gitEnv, r.dir, "git", "apply", "--cached", patch)
		tree := strings.TrimSpace(output(gitEnv, r.dir, "git", "write-tree"))
		commit := strings.TrimSpace(output(gitEnv, r.dir, "git", "commit-tree", tree, "-p", "HEAD", "-m", "bench"))
		run(gitEnv, r.dir, "git", "update-ref", "refs/heads/gitbench", commit)
	})
	b.rows = append(b.rows, row{name: "2. apply to a new branch, same reply", ours: ours, gits: gits,
		bound: "≤ 0.25 × git's pipeline", ok: ours*4 <= gits})
	if b.checkGits > 0 {
		b.rows = append(b.rows, row{name: "2. apply, against git apply --cached --check", ours: ours, gits: b.checkGits,
			bound: "≤ 2 × git apply --cached --check", ok: ours <= 2*b.checkGits})
	}
	drop("bench")()
	rss := maxRSS(b.env, r.dir, b.bin, "apply", "-q", "-b", "bench", reply)
	touched := int64(10 * len(smallFile(0)))
	limit := 3*r.indexSize + touched
	b.rows = append(b.rows, row{name: fmt.Sprintf("6. peak memory of case 2 (index %.1f MB)", float64(r.indexSize)/1e6),
		note: fmt.Sprintf("%.1f MB", float64(rss)/1e6), bound: fmt.Sprintf("< 3 × index + touched = %.1f MB", float64(limit)/1e6), ok: rss < limit})
}

// editsReply is a reply of n SEARCH/REPLACE edits to src/big.go of a
// file of size lines, spread evenly; indent adds four spaces to every
// SEARCH line, so that the edits match at the indent rung.
func (b *bench) editsReply(size, n int, indent bool) (string, int) {
	var text strings.Builder
	text.WriteString("Renumber some steps.\n\n")
	step := max(1, (size-1)/n)
	made := 0
	for k := 0; k < n; k++ {
		i := 1 + k*step
		if i >= size {
			break
		}
		made++
		old := fmt.Sprintf("\tv%06d := compute(%d) // step %d", i, i*7%1000, i)
		search := old
		if indent {
			search = "    " + old
		}
		text.WriteString(searchReplace("src/big.go", []string{search}, []string{strings.Replace(old, "step", "stage", 1)}))
	}
	name := fmt.Sprintf("edits-%d-%d-%v.md", size, n, indent)
	return b.writeReply(name, text.String()), made
}

// caseManyEdits: 500 edits to the big source file at the format's
// fuzz and at loose, and the cost of one edit as the file grows.
func (b *bench) caseManyEdits() {
	r := b.sourceRepo(*lines)
	reply, _ := b.editsReply(*lines, 500, false)
	def := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", reply) })
	b.rows = append(b.rows, row{name: fmt.Sprintf("3. 500 edits to a %d-line file", *lines), ours: def, bound: "< 100 ms", ok: def < 100*time.Millisecond})
	loose := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", "--fuzz", "loose", reply) })
	b.rows = append(b.rows, row{name: "3. the same, --fuzz loose", ours: loose, bound: "< 1 s", ok: loose < time.Second})

	// The marginal cost of an edit: (2000 edits - 1000 edits) / 1000,
	// at the exact rung and at the indent rung, for three file lengths.
	// Both replies pay the fixed costs (reading the file; at the indent
	// rung, indexing it once enough edits ask for it), so that the
	// difference is the edits' own work.
	sizes := []int{*lines / 10, *lines, *lines * 10}
	repos := map[int]*repo{*lines: r}
	for _, size := range sizes {
		if repos[size] == nil {
			repos[size] = b.sourceRepo(size)
		}
	}
	for _, indent := range []bool{false, true} {
		note := make([]string, len(sizes))
		per := make([]time.Duration, len(sizes))
		for i, size := range sizes {
			dir := repos[size].dir
			// A small file holds fewer lines than edits asked for: half
			// is half of what was made.
			many, n := b.editsReply(size, perEditN, indent)
			half, h := b.editsReply(size, n/2, indent)
			th := median(nil, func() { run(b.env, dir, b.bin, "check", "-q", half) })
			tn := median(nil, func() { run(b.env, dir, b.bin, "check", "-q", many) })
			per[i] = max(0, (tn-th)/time.Duration(n-h))
			note[i] = fmt.Sprintf("%d lines: %.1f µs", size, float64(per[i].Nanoseconds())/1000)
		}
		rung := "exact"
		if indent {
			rung = "indent"
		}
		// Flat: the largest file's cost per edit stays within twice the
		// smallest's, plus timer noise.
		ok := per[2] <= 2*per[0]+20*time.Microsecond
		b.rows = append(b.rows, row{name: "3. time per edit, " + rung + " rung", note: strings.Join(note, "; "),
			bound: "flat in file length", ok: ok})
	}
}

// caseFailing: a reply of 1,500 SEARCH/REPLACE blocks that all miss
// (a wrong argument each) against a file twenty times the source
// file's length (a million lines at the default size): each failure is
// reported with its closest lines, found through an index instead of a
// scan of the file per block.
func (b *bench) caseFailing() {
	size, n := 20**lines, 1500
	if *quick {
		n = 150
	}
	r := b.sourceRepo(size)
	var text strings.Builder
	text.WriteString("Renumber the steps.\n\n")
	step := max(1, (size-2)/n)
	for k := 0; k < n; k++ {
		i := 1 + k*step
		old := fmt.Sprintf("\tv%06d := compute(%d) // step %d", i, (i*7+1)%1000, i)
		text.WriteString(searchReplace("src/big.go", []string{old}, []string{strings.Replace(old, "step", "stage", 1)}))
	}
	reply := b.writeReply("failing.md", text.String())
	d := median(nil, func() { runExpect(1, b.env, r.dir, b.bin, "check", "-q", reply) })
	b.rows = append(b.rows, row{name: fmt.Sprintf("11. a reply of %d failing blocks, %d-line file", n, size), ours: d, bound: "< 5 s", ok: d < 5*time.Second})
}

// perEditN is how many edits the per-edit measurement makes.
const perEditN = 2000

var nsPerOp = regexp.MustCompile(`BenchmarkCorpus\S*\s+\d+\s+(\d+(?:\.\d+)?) ns/op`)

// caseCorpus: reading every section and block of the 4 MB transcript,
// measured by the translate package's Go benchmark.
func (b *bench) caseCorpus() {
	out := output(b.env, ".", "go", "test", "./internal/translate/", "-run", "^$", "-bench", "^BenchmarkCorpus$", "-benchtime", fmt.Sprintf("%dx", max(*runs, 5)), "-count", "1")
	m := nsPerOp.FindStringSubmatch(out)
	if m == nil {
		if strings.Contains(out, "no corpus") || strings.Contains(out, "SKIP") {
			b.rows = append(b.rows, row{name: "4. read the 4 MB corpus", note: "skipped (no corpus)", bound: "< 100 ms", ok: true})
			return
		}
		fail("BenchmarkCorpus printed no ns/op:\n%s", out)
	}
	ns, _ := strconv.ParseFloat(m[1], 64)
	d := time.Duration(ns)
	b.rows = append(b.rows, row{name: "4. read the 4 MB corpus (go test -bench)", ours: d, bound: "< 100 ms", ok: d < 100*time.Millisecond})
}

// caseStartup: check of a one-edit reply in a ten-file repository.
func (b *bench) caseStartup(r *repo) {
	reply := b.writeReply("one-edit.md", "Rename one line.\n\n"+searchReplace(r.paths[3], []string{"alpha 3"}, []string{"alpha 3 renamed"}))
	ours := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", reply) })
	patch := b.patchOf(r, reply, "one-edit.patch")
	gits := median(nil, func() { run(b.env, r.dir, "git", "apply", "--cached", "--check", patch) })
	b.rows = append(b.rows, row{name: "5. start-up: check, one edit, 10-file repository", ours: ours, gits: gits, bound: "< 15 ms", ok: ours < 15*time.Millisecond})
	// Issue 30, item 3: against git's own start-up, runs interleaved so
	// that a busy machine slows each alike.
	// The floor, in the same runs: a Go program that prints one line,
	// and the same linking the libraries git-llm-apply links, whose
	// packages start before any code of ours runs.
	floor := filepath.Join(b.dir, "floor")
	run(append(b.env, "CGO_ENABLED=0"), ".", "go", "build", "-o", floor+string(filepath.Separator), "./scripts/benchrun/floor/...")
	rounds := 20 * *runs
	t := interleaved(rounds,
		func() { run(b.env, r.dir, "git", "rev-parse", "HEAD") },
		func() { run(b.env, r.dir, b.bin, "--version") },
		func() { run(b.env, r.dir, b.bin, "check", "-q", reply) },
		func() { run(b.env, r.dir, filepath.Join(floor, "plain")) },
		func() { run(b.env, r.dir, filepath.Join(floor, "deps")) })
	for i, what := range []string{"--version", "check, one edit, 10-file repository"} {
		b.rows = append(b.rows, row{name: fmt.Sprintf("5. start-up: %s, against git rev-parse HEAD (medians of %d interleaved runs)", what, rounds),
			ours: t[i+1], gits: t[0], bound: "≤ 1.5 × git", ok: float64(t[i+1]) <= 1.5*float64(t[0])})
	}
	for i, what := range []string{"a Go program that prints one line", "the same, linking the libraries git-llm-apply links"} {
		b.rows = append(b.rows, row{name: fmt.Sprintf("5. the floor: %s, the same runs", what), ours: t[i+3], gits: t[0], ok: true})
	}
}
