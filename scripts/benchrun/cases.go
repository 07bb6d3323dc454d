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

// tenFileReply is a 10-file, 20-edit reply in the diff format: two
// lines changed in each of ten files spread over the repository.
func (b *bench) tenFileReply(r *repo) string {
	var text strings.Builder
	text.WriteString("Rename the alpha and gamma lines of ten files.\n\n")
	for k := 0; k < 10; k++ {
		i := rng.IntN(len(r.paths) - 1) // the last path is src/big.go
		p := r.paths[i]
		for _, word := range []string{"alpha", "gamma"} {
			old := fmt.Sprintf("%s %d", word, i)
			text.WriteString(searchReplace(p, []string{old}, []string{old + " renamed"}))
		}
	}
	return b.writeReply("ten-files.md", text.String())
}

// patchOf is the git diff of a reply, made by translate: the equivalent
// patch git is given.
func (b *bench) patchOf(r *repo, reply, name string) string {
	patch := output(b.env, r.dir, b.bin, "translate", reply)
	p := filepath.Join(b.dir, name)
	check(os.WriteFile(p, []byte(patch), 0o644))
	return p
}

// caseCheck: check of the 10-file reply against the index, and git
// apply --cached --check of the same patch.
func (b *bench) caseCheck(r *repo) {
	reply := b.tenFileReply(r)
	patch := b.patchOf(r, reply, "ten-files.patch")
	ours := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", reply) })
	gits := median(nil, func() { run(b.env, r.dir, "git", "apply", "--cached", "--check", patch) })
	b.rows = append(b.rows, row{name: fmt.Sprintf("1. check, 10 files / 20 edits, %d-file index", len(r.paths)),
		ours: ours, gits: gits, bound: "≤ 1.5 × git apply --cached --check", ok: ours <= gits*3/2})
	b.checkGits = gits
}

// caseApply: apply of the same reply to a new branch, against git's
// own pipeline for recording a patch without touching the index, and
// its peak memory.
func (b *bench) caseApply(r *repo) {
	reply := filepath.Join(b.dir, "ten-files.md")
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
func (b *bench) editsReply(size, n int, indent bool) string {
	var text strings.Builder
	text.WriteString("Renumber some steps.\n\n")
	step := max(1, (size-1)/n)
	for k := 0; k < n; k++ {
		i := 1 + k*step
		if i >= size {
			break
		}
		old := fmt.Sprintf("\tv%06d := compute(%d) // step %d", i, i*7%1000, i)
		search := old
		if indent {
			search = "    " + old
		}
		text.WriteString(searchReplace("src/big.go", []string{search}, []string{strings.Replace(old, "step", "stage", 1)}))
	}
	name := fmt.Sprintf("edits-%d-%d-%v.md", size, n, indent)
	return b.writeReply(name, text.String())
}

// caseManyEdits: 500 edits to the big source file at the format's
// fuzz and at loose, and the cost of one edit as the file grows.
func (b *bench) caseManyEdits() {
	r := b.sourceRepo(*lines)
	reply := b.editsReply(*lines, 500, false)
	def := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", reply) })
	b.rows = append(b.rows, row{name: fmt.Sprintf("3. 500 edits to a %d-line file", *lines), ours: def, bound: "< 100 ms", ok: def < 100*time.Millisecond})
	loose := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", "--fuzz", "loose", reply) })
	b.rows = append(b.rows, row{name: "3. the same, --fuzz loose", ours: loose, bound: "< 1 s", ok: loose < time.Second})

	// The marginal cost of an edit: (500 edits - 1 edit) / 499, at the
	// exact rung and at the indent rung, for three file lengths.
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
			one, many := b.editsReply(size, 1, indent), b.editsReply(size, 500, indent)
			t1 := median(nil, func() { run(b.env, dir, b.bin, "check", "-q", one) })
			tn := median(nil, func() { run(b.env, dir, b.bin, "check", "-q", many) })
			per[i] = max(0, (tn-t1)/499)
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

var nsPerOp = regexp.MustCompile(`BenchmarkCorpus\S*\s+\d+\s+(\d+(?:\.\d+)?) ns/op`)

// caseCorpus: reading every section and block of the 4 MB transcript,
// measured by the translate package's Go benchmark.
func (b *bench) caseCorpus() {
	out := output(b.env, ".", "go", "test", "./translate/", "-run", "^$", "-bench", "^BenchmarkCorpus$", "-benchtime", fmt.Sprintf("%dx", max(*runs, 5)), "-count", "1")
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
}
