package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The streams under testdata are real go test -json output, recorded
// from a throwaway module whose tests fail in each way a package can
// (go 1.26): a test panics (panic), the -timeout 2s alarm fires in a
// test (timeout), a test file does not compile (buildfail), TestMain
// calls os.Exit(3) (mainexit), a test calls os.Exit(1) (testexit), a
// fuzz worker exits under -fuzz (fuzzworker), and the input it wrote
// crashes the test binary when go test replays it (fuzzreplay). Only
// panic and fuzzworker carry a test's fail event.
func TestReportFailures(t *testing.T) {
	for _, tc := range []struct {
		stream string
		want   []string // in the report, in this order
	}{
		{"panic", []string{"about to index", "panic: runtime error: index out of range", "failed:\n  example.com/panic TestPanics\n"}},
		{"timeout", []string{"--- FAIL: example.com/timeout TestSlow did not finish: its package failed while it ran",
			"waiting for something that never comes", "panic: test timed out after 2s", "TestSlow (2s)",
			"tests: 1 passed, 1 failed, 0 skipped",
			"failed:\n  example.com/timeout TestSlow (did not finish: panic: test timed out after 2s)\n"}},
		{"buildfail", []string{"p_test.go:6:18: invalid operation", "tests: 0 passed, 0 failed",
			"failed:\n  example.com/buildfail: build failed (example.com/buildfail [example.com/buildfail.test]; its errors are above)\n"}},
		{"mainexit", []string{"setting up the fixtures failed: no git", "FAIL\texample.com/mainexit",
			"failed:\n  example.com/mainexit: failed outside any test (TestMain"}},
		{"testexit", []string{"--- FAIL: example.com/testexit TestExits did not finish", "giving up",
			"tests: 1 passed, 1 failed", "failed:\n  example.com/testexit TestExits (did not finish)\n"}},
		{"fuzzworker", []string{"fuzzing process hung or terminated unexpectedly: exit status 7", "failed:\n  example.com/fuzzcrash FuzzCrash\n"}},
		{"fuzzreplay", []string{"--- FAIL: example.com/fuzzcrash FuzzCrash did not finish", "--- FAIL: example.com/fuzzcrash FuzzCrash/68037cd57b603c32 did not finish",
			"=== RUN   FuzzCrash/68037cd57b603c32", "tests: 1 passed, 2 failed",
			"failed:\n  example.com/fuzzcrash FuzzCrash (did not finish)\n  example.com/fuzzcrash FuzzCrash/68037cd57b603c32 (did not finish)\n"}},
	} {
		t.Run(tc.stream, func(t *testing.T) {
			out, failed, _ := reportOn(t, tc.stream)
			if !failed {
				t.Errorf("reported success:\n%s", out)
			}
			checkInOrder(t, out, tc.want)
		})
	}
}

// A failure in one package is not hidden by the packages around it, in
// either order, and every failure is named.
func TestReportFailureAmongPassingPackages(t *testing.T) {
	streams := []string{"pass", "timeout", "skip", "mainexit"}
	var in strings.Builder
	for _, s := range streams {
		in.WriteString(read(t, s))
	}
	var out strings.Builder
	r, err := report(strings.NewReader(in.String()), &out)
	if failed := len(r.failures) > 0; err != nil || !failed {
		t.Fatalf("failed %v, err %v:\n%s", failed, err, out.String())
	}
	checkInOrder(t, out.String(), []string{"ok  \texample.com/pass", "tests: 5 passed, 1 failed, 1 skipped",
		"failed:\n  example.com/timeout TestSlow (did not finish: panic: test timed out after 2s)\n  example.com/mainexit: failed outside any test"})
}

func TestReportPasses(t *testing.T) {
	for _, tc := range []struct {
		stream  string
		want    string
		skipped []string
	}{
		{"pass", "ok  \texample.com/pass", nil},
		{"skip", "tests: 1 passed, 0 failed, 1 skipped\n", []string{"example.com/skip TestNeedsShared: p_test.go:8: ../shared is not beside the checkout\n"}},
	} {
		t.Run(tc.stream, func(t *testing.T) {
			out, failed, skipped := reportOn(t, tc.stream)
			if failed || strings.Contains(out, "failed:") {
				t.Errorf("reported a failure:\n%s", out)
			}
			if !strings.Contains(out, tc.want) {
				t.Errorf("want %q in\n%s", tc.want, out)
			}
			if strings.Join(skipped, "") != strings.Join(tc.skipped, "") {
				t.Errorf("skipped %q, want %q", skipped, tc.skipped)
			}
		})
	}
}

// A stream cut short (go test killed) or empty (nothing ran) is no
// success.
func TestReportIncompleteStreams(t *testing.T) {
	timeout := read(t, "timeout")
	cut := timeout[:strings.Index(timeout, `"Output":"panic: test timed out`)]
	cut = cut[:strings.LastIndex(cut, "\n")+1]
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"cut in a test", cut, []string{"--- FAIL: example.com/timeout TestSlow did not finish: the stream ended before its result",
			"waiting for something that never comes", "failed:\n  example.com/timeout TestSlow (did not finish)\n  example.com/timeout: no result (the stream ended before the package did)\n"}},
		{"empty", "", []string{"tests: 0 passed, 0 failed, 0 skipped", "failed:\n  no package reported a result"}},
		{"go's complaint only", "go: cannot find main module\n", []string{"go: cannot find main module\n", "no package reported a result"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			r, err := report(strings.NewReader(tc.in), &out)
			if failed := len(r.failures) > 0; err != nil || !failed {
				t.Errorf("failed %v, err %v:\n%s", failed, err, out.String())
			}
			checkInOrder(t, out.String(), tc.want)
		})
	}
}

func read(t *testing.T, stream string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", stream+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func reportOn(t *testing.T, stream string) (out string, failed bool, skipped []string) {
	t.Helper()
	var b strings.Builder
	r, err := report(strings.NewReader(read(t, stream)), &b)
	if err != nil {
		t.Fatal(err)
	}
	return b.String(), len(r.failures) > 0, r.skipped
}

func checkInOrder(t *testing.T, out string, want []string) {
	t.Helper()
	rest := out
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Errorf("want %q (after the ones before it) in\n%s", w, out)
			return
		}
		rest = rest[i+len(w):]
	}
}
