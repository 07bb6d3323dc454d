// Command testreport reads `go test -json` on standard input and prints
// what a person needs from it: each package's result line, the output
// of every failing test, and, written to the file -skipped names, one
// line per skipped test with the reason it gave (the corpus and
// conformance tests skip without ../shared, which a plain go test
// never shows). It exits 1 when a test, a package or a build failed.
// scripts/test runs it.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// event is one line of go test -json (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // of a build-output event
	Test       string
	Output     string
}

func main() {
	skippedTo := flag.String("skipped", "", "write the skipped tests, one a line, to `FILE`")
	flag.Parse()
	failed, skipped, err := report(os.Stdin, os.Stdout)
	if err != nil {
		fmt.Fprintln(os.Stderr, "testreport:", err)
		os.Exit(2)
	}
	if *skippedTo != "" {
		if err := os.WriteFile(*skippedTo, []byte(strings.Join(skipped, "")), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(2)
		}
	}
	if failed {
		os.Exit(1)
	}
}

// report prints the results read from in to out and returns whether
// anything failed and the lines naming the skipped tests.
func report(in io.Reader, out io.Writer) (failed bool, skipped []string, err error) {
	held := map[string][]string{} // a running test's output, by package and name
	counts := map[string]int{}
	lines := bufio.NewScanner(in)
	lines.Buffer(nil, 16<<20)
	for lines.Scan() {
		var e event
		if err := json.Unmarshal(lines.Bytes(), &e); err != nil {
			// Not an event: go's own complaints before the tests start.
			fmt.Fprintln(out, lines.Text())
			continue
		}
		key := e.Package + " " + e.Test
		switch {
		case e.Action == "build-output":
			fmt.Fprint(out, e.Output)
		case e.Action == "build-fail":
			failed = true
		case e.Test == "" && e.Action == "output":
			if e.Output != "PASS\n" {
				fmt.Fprint(out, e.Output)
			}
		case e.Test == "":
			failed = failed || e.Action == "fail"
		case e.Action == "output":
			held[key] = append(held[key], e.Output)
		case e.Action == "fail":
			failed = true
			counts["failed"]++
			fmt.Fprint(out, strings.Join(held[key], ""))
			delete(held, key)
		case e.Action == "skip":
			counts["skipped"]++
			skipped = append(skipped, fmt.Sprintf("%s %s: %s\n", e.Package, e.Test, skipReason(held[key])))
			delete(held, key)
		case e.Action == "pass":
			counts["passed"]++
			delete(held, key)
		}
	}
	if err := lines.Err(); err != nil {
		return true, skipped, err
	}
	fmt.Fprintf(out, "tests: %d passed, %d failed, %d skipped\n", counts["passed"], counts["failed"], counts["skipped"])
	return failed, skipped, nil
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
