// Command testreport reads `go test -json` on standard input and prints
// what a person needs from it: each package's result line, the output
// of every failing test, a summary naming every failure, and, written
// to the file -skipped names, one line per skipped test with the reason
// it gave (the corpus and conformance tests skip without ../shared,
// which a plain go test never shows). scripts/test runs it.
//
// It exits 1 when anything failed, and a failure need not come with a
// test's "fail" event: test2json sends none for a test that was running
// when its package's process ended (a panic outside the test's
// goroutine, the -timeout alarm, os.Exit, a crashed fuzz input), nor
// for a TestMain that exits or a package that does not build. So a
// package that fails is a failure whatever its tests said, named with
// the tests it left running and their output; so is a package with no
// result at the end of the stream, and a stream with no package at all.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action      string
	Package     string
	ImportPath  string // of a build-output event
	Test        string
	Output      string
	FailedBuild string // of a package's fail event: the build that failed
}

func main() {
	skippedTo := flag.String("skipped", "", "write the skipped tests, one a line, to `FILE`")
	failedTo := flag.String("failed", "", "write the failures, one a line, to `FILE`")
	flag.Parse()
	r, err := report(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	for file, lines := range map[string][]string{*skippedTo: r.skipped, *failedTo: r.failures} {
		if file == "" {
			continue
		}
		if err := os.WriteFile(file, []byte(strings.Join(lines, "")), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(2)
		}
	}
	if len(r.failures) > 0 {
		os.Exit(1)
	}
}

// pkg is what is known of one package while its events arrive.
type pkg struct {
	running []string            // tests started and not ended, in start order
	held    map[string][]string // a running test's output, by name
	failed  int                 // its tests' fail events
	ended   bool
}

// reporter holds the state of one report.
type reporter struct {
	out      io.Writer
	pkgs     map[string]*pkg
	order    []string // packages in the order they first appeared
	counts   map[string]int
	failures []string // one line each, for the summary; none is success
	skipped  []string
}

// report prints the results read from in to out and returns what it
// found: r.failures empty means everything passed.
func report(in io.Reader, out io.Writer) (*reporter, error) {
	r := &reporter{out: out, pkgs: map[string]*pkg{}, counts: map[string]int{}}
	lines := bufio.NewScanner(in)
	lines.Buffer(nil, 16<<20)
	for lines.Scan() {
		var e event
		if err := json.Unmarshal(lines.Bytes(), &e); err != nil || e.Action == "" {
			// Not an event: go's own complaints before the tests start.
			fmt.Fprintln(out, lines.Text())
			continue
		}
		r.event(e)
	}
	if err := lines.Err(); err != nil {
		return r, err
	}
	for _, name := range r.order {
		if p := r.pkgs[name]; !p.ended {
			r.unfinished(name, p, "the stream ended before its result")
			r.fail(name + ": no result (the stream ended before the package did)")
		}
	}
	if len(r.order) == 0 {
		r.fail("no package reported a result: nothing was tested")
	}
	fmt.Fprintf(out, "tests: %d passed, %d failed, %d skipped\n", r.counts["passed"], r.counts["failed"], r.counts["skipped"])
	if len(r.failures) > 0 {
		fmt.Fprintln(out, "failed:")
		for _, f := range r.failures {
			fmt.Fprint(out, "  "+f)
		}
	}
	return r, nil
}

// fail adds a line to the summary's failures.
func (r *reporter) fail(what string) {
	r.failures = append(r.failures, what+"\n")
}

func (r *reporter) pkg(name string) *pkg {
	p := r.pkgs[name]
	if p == nil {
		p = &pkg{held: map[string][]string{}}
		r.pkgs[name] = p
		r.order = append(r.order, name)
	}
	return p
}

func (r *reporter) event(e event) {
	if e.Action == "build-output" {
		fmt.Fprint(r.out, e.Output)
		return
	}
	if e.Action == "build-fail" {
		// The package's own fail event follows, naming the build.
		return
	}
	p := r.pkg(e.Package)
	if e.Test == "" {
		switch e.Action {
		case "output":
			if e.Output != "PASS\n" {
				fmt.Fprint(r.out, e.Output)
			}
		case "pass", "skip":
			p.ended = true
		case "fail":
			p.ended = true
			r.packageFailed(e, p)
		}
		return
	}
	switch e.Action {
	case "run":
		p.running = append(p.running, e.Test)
	case "output":
		p.held[e.Test] = append(p.held[e.Test], e.Output)
	case "fail":
		r.counts["failed"]++
		p.failed++
		fmt.Fprint(r.out, strings.Join(p.held[e.Test], ""))
		r.fail(e.Package + " " + e.Test)
		p.end(e.Test)
	case "skip":
		r.counts["skipped"]++
		r.skipped = append(r.skipped, fmt.Sprintf("%s %s: %s\n", e.Package, e.Test, skipReason(p.held[e.Test])))
		p.end(e.Test)
	case "pass":
		r.counts["passed"]++
		p.end(e.Test)
	}
}

func (p *pkg) end(test string) {
	delete(p.held, test)
	if i := slices.Index(p.running, test); i >= 0 {
		p.running = slices.Delete(p.running, i, i+1)
	}
}

// packageFailed records a package's fail event: the tests it left
// running failed with it; with none running and none failed, the
// package failed on its own (its build, its TestMain, its process).
func (r *reporter) packageFailed(e event, p *pkg) {
	switch {
	case e.FailedBuild != "":
		r.fail(e.Package + ": build failed (" + e.FailedBuild + "; its errors are above)")
	case len(p.running) > 0:
		r.unfinished(e.Package, p, "its package failed while it ran")
	case p.failed == 0:
		r.fail(e.Package + ": failed outside any test (TestMain, or the test binary's own exit; its output is above)")
	}
}

// unfinished reports the tests p left running as failed, each with the
// output it held, in the order they started.
func (r *reporter) unfinished(pkgName string, p *pkg, why string) {
	for _, test := range p.running {
		r.counts["failed"]++
		fmt.Fprintf(r.out, "--- FAIL: %s %s did not finish: %s\n", pkgName, test, why)
		fmt.Fprint(r.out, strings.Join(p.held[test], ""))
		line := pkgName + " " + test + " (did not finish"
		if cause := firstPanic(p.held[test]); cause != "" {
			line += ": " + cause
		}
		r.fail(line + ")")
		delete(p.held, test)
	}
	p.running = nil
}

// firstPanic is the first "panic: " line of a test's output, the cause
// of a process that ended under it ("panic: test timed out after 10m0s").
func firstPanic(output []string) string {
	for _, o := range output {
		if t := strings.TrimSpace(o); strings.HasPrefix(t, "panic: ") {
			return t
		}
	}
	return ""
}

// skipReason is what a skipped test said, on one line: its output
// without the lines go test adds.
func skipReason(output []string) string {
	var said []string
	for _, o := range output {
		t := strings.TrimSpace(o)
		if t == "" || strings.HasPrefix(t, "=== ") || strings.HasPrefix(t, "--- SKIP") {
			continue
		}
		said = append(said, t)
	}
	if len(said) == 0 {
		return "(no reason given)"
	}
	return strings.Join(said, " ")
}
