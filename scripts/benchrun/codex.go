package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// Case 13 and its twin: Codex's own apply_patch on its own format, a
// document of 500 hunks spread through a 50,000-line file, bare "@@"
// hunks and hunks each under a scope line ("@@ def handler_40(request):",
// as Codex's prompt teaches).

var codexVersion = "0.169.0" // pinned, so that runs compare

// codexApplyPatch installs Codex's npm package into a scratch
// directory, once a run, and returns its binary under the name
// apply_patch, which makes the binary run as the standalone
// apply_patch tool (it reads argv[0]); "" and why when it cannot.
func (b *bench) codexApplyPatch() (string, string) {
	if b.codex == nil {
		path, why := b.installCodex()
		b.codex = &[2]string{path, why}
	}
	return b.codex[0], b.codex[1]
}

func (b *bench) installCodex() (string, string) {
	switch *codexAt {
	case "":
	case "none":
		return "", "skipped (-codex none)"
	default:
		// The binary runs as apply_patch under that name only.
		link := filepath.Join(b.dir, "apply_patch")
		abs, err := filepath.Abs(*codexAt)
		check(err)
		if _, err := os.Stat(abs); err != nil {
			fail("-codex: %v", err)
		}
		os.Remove(link)
		check(os.Symlink(abs, link))
		return link, ""
	}
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

// hunkLine is line i of case 13's file: every line unique, so that
// each hunk's context places it once.
func hunkLine(i int) string {
	return fmt.Sprintf("    total += weight(%d) * %d  # row %d", i, i%97, i)
}

// hunkFile is the n-line file of case 13; scoped makes the first line
// of each of hunks stretches a function's def line, the scope of the
// hunk in it.
func hunkFile(n, hunks int, scoped bool) string {
	var t strings.Builder
	step := n / hunks
	for i := 0; i < n; i++ {
		if scoped && i%step == 0 {
			fmt.Fprintf(&t, "def handler_%d(request):\n", i/step)
			continue
		}
		t.WriteString(hunkLine(i) + "\n")
	}
	return t.String()
}

// hunkDoc is an apply-patch document of hunks one-line changes to
// path, spread evenly over its n lines, each with three lines of
// context on either side, as Codex writes them; scoped names each
// hunk's function on its "@@" line.
func hunkDoc(path string, n, hunks int, scoped bool) string {
	var t strings.Builder
	t.WriteString("*** Begin Patch\n*** Update File: " + path + "\n")
	step := n / hunks
	for k := 0; k < hunks; k++ {
		at := k*step + step/2
		if scoped {
			fmt.Fprintf(&t, "@@ def handler_%d(request):\n", k)
		} else {
			t.WriteString("@@\n")
		}
		for i := at - 3; i < at; i++ {
			t.WriteString(" " + hunkLine(i) + "\n")
		}
		t.WriteString("-" + hunkLine(at) + "\n+" + strings.Replace(hunkLine(at), "total", "sum", 1) + "\n")
		for i := at + 1; i <= at+3; i++ {
			t.WriteString(" " + hunkLine(i) + "\n")
		}
	}
	t.WriteString("*** End Patch\n")
	return t.String()
}

// caseCodex: a 500-hunk apply-patch document on a 50k-line file, our
// check against Codex's apply_patch (which also writes the file, in a
// scratch copy restored before each run); scoped is the twin with a
// scope line on every hunk. Codex works on the file as checked out,
// and so is our check measured first, the repository's working tree
// holding the file (check reads it there when it hashes to the staged
// blob); then with the file only in the object store (a loose object
// to inflate), as before issue 16's last stop.
func (b *bench) caseCodex(scoped bool) {
	n, hunks := *lines, 500
	num, repoName, what := "13.", "codex", "hunk"
	if scoped {
		num, repoName, what = "13b.", "codex-scoped", "hunk (a scope line on every hunk)"
	}
	name := fmt.Sprintf("%s %d-%s apply-patch on a %d-line file: check vs Codex apply_patch %s", num, hunks, what, n, codexVersion)
	content := hunkFile(n, hunks, scoped)
	r := b.makeRepo(repoName, func(emit func(string, string)) { emit("calc.py", content) })
	reply := b.writeReply(repoName+"-doc.txt", hunkDoc("calc.py", n, hunks, scoped))
	stored := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", "--format", "apply-patch", reply) })
	run(b.env, r.dir, "git", "checkout-index", "--all", "--force")
	run(b.env, r.dir, "git", "update-index", "-q", "--refresh")
	ours := median(nil, func() { run(b.env, r.dir, b.bin, "check", "-q", "--format", "apply-patch", reply) })
	storedName := num + " the same, the file only in the object store (not checked out)"
	const bound = "≤ 0.5 × Codex"
	ap, why := b.codexApplyPatch()
	if ap == "" {
		b.rows = append(b.rows, row{name: name + " (file checked out)", ours: ours, note: ms(ours) + "; Codex " + why, bound: bound, ok: true},
			row{name: storedName, ours: stored, note: ms(stored) + "; Codex " + why, bound: bound, ok: true})
		return
	}
	scratch := filepath.Join(b.dir, repoName+"-scratch")
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
	b.rows = append(b.rows, row{name: name + " (file checked out)", ours: ours, gits: theirs, bound: bound, ok: 2*ours <= theirs},
		row{name: storedName, ours: stored, gits: theirs, bound: bound, ok: 2*stored <= theirs})
}
