package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A replay keeps no turn for its report, in any mode: each turn's part
// (its lines of the human report, its element of the --json document,
// its patch of -o) is written as the turn ends, so that a session of
// thousands of turns holds none of them (issue 30, item 5: flat memory).
// replayKept, told after each turn, sees what the report shows so far:
// the turns done, every one of them (or, with -q, the one that failed).
// Not parallel: replayKept is the package's.
func TestReplayKeepsOnlyWhatItReports(t *testing.T) {
	const turns = 40
	dir := counterTurns(t, turns)
	// broken is the same session with one more turn, the 22nd
	// (after 020.md), whose edit looks for a line that is not there:
	// with --partial it is reported, the others not.
	broken := filepath.Join(t.TempDir(), "broken")
	if err := os.Mkdir(broken, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		if err := os.WriteFile(filepath.Join(broken, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	bad := "Break it.\n\nf.txt\n```\n<<<<<<< SEARCH\nnot there\n=======\nx\n>>>>>>> REPLACE\n```\n"
	if err := os.WriteFile(filepath.Join(broken, "020x.md"), []byte(bad), 0o644); err != nil {
		t.Fatal(err)
	}
	headline := regexp.MustCompile(`(?m)^\S+\.md \(diff\): `)
	failed := regexp.MustCompile(`(?m)^\S+020x\.md \(diff\): `)
	element := regexp.MustCompile(`(?m)^    \{$`)
	patchLine := regexp.MustCompile(`(?m)^  patch: `)
	defer func() { replayKept = nil }()
	for _, tc := range []struct {
		name    string
		args    []string
		session string
		code    int
		shown   *regexp.Regexp // what the report shows of a turn, on stdout with --json
		want    func(k int) int
		commits int
	}{
		{"quiet", []string{"-q"}, dir, 0, headline, func(int) int { return 0 }, turns},
		{"full report", nil, dir, 0, headline, func(k int) int { return k }, turns},
		{"verbose", []string{"-v"}, dir, 0, headline, func(k int) int { return k }, turns},
		{"--json", []string{"--json"}, dir, 0, element, func(k int) int { return k }, turns},
		{"quiet --json", []string{"-q", "--json"}, dir, 0, element, func(k int) int { return k }, turns},
		{"-o", []string{"-o", "patches"}, dir, 0, patchLine, func(k int) int { return k }, turns},
		{"quiet, one failed turn", []string{"-q", "--partial"}, broken, 1, failed, func(k int) int { return min(max(k-21, 0), 1) }, turns},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"f.txt": "v0\n"})
			var out, errb bytes.Buffer
			calls, kept := 0, 0
			replayKept = func(n int) {
				calls++
				kept = max(kept, n)
				shows := errb.String()
				if slices.Contains(tc.args, "--json") {
					shows = out.String()
				}
				if got, want := len(tc.shown.FindAllString(shows, -1)), tc.want(calls); got != want {
					t.Errorf("after %d turns, the report shows %d of them, want %d", calls, got, want)
				}
			}
			args := append(append([]string{"git-llm-apply", "replay", "-b", "topic"}, tc.args...), tc.session)
			code := run(t.Context(), args, r.dir, strings.NewReader(""), &out, &errb)
			if code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", code, tc.code, errb.String())
			}
			if kept > 1 {
				t.Errorf("kept up to %d turns' results for the report, want at most the one in hand", kept)
			}
			if n := len(ents) + map[bool]int{true: 1}[tc.session == broken]; calls != n {
				t.Errorf("replayKept told %d times, want once a turn, %d", calls, n)
			}
			if n := len(r.commits("topic")); n != tc.commits {
				t.Errorf("%d commits, want %d", n, tc.commits)
			}
			if got := r.show("topic", "f.txt"); got != fmt.Sprintf("v%d\n", turns) {
				t.Errorf("f.txt at the tip: %q", got)
			}
			if failed := strings.Contains(errb.String(), "020x.md"); failed != (tc.session == broken) {
				t.Errorf("the failed turn reported: %v, want %v\n%s", failed, tc.session == broken, errb.String())
			}
			if slices.Contains(tc.args, "--json") && !json.Valid(out.Bytes()) {
				t.Errorf("the --json document is not JSON:\n%s", out.String())
			}
			if slices.Contains(tc.args, "-o") {
				ps, _ := filepath.Glob(filepath.Join(r.dir, "patches", "*.patch"))
				if len(ps) != turns {
					t.Errorf("%d patch files, want %d", len(ps), turns)
				}
				// Numbered over the whole series, known only at the end.
				for k, p := range ps {
					b, _ := os.ReadFile(p)
					if want := fmt.Sprintf("\nSubject: [PATCH %02d/%d] Move the counter on to %d.\n", k+1, turns, k+1); !strings.Contains(string(b), want) {
						t.Errorf("%s lacks %q:\n%s", p, want, b)
						break
					}
				}
			}
		})
	}
}

// A replay whose branch cannot be moved at the end (another writer
// made it meanwhile) has told its turns' commits as they ended: its
// end says that none of them is on the branch, the --json document
// ends as one document with "ok": false and that error, and -o writes
// no patch file, its spool removed (SPEC section 8). Not parallel:
// replayKept is the package's.
func TestReplayBranchMovedAfterTheTurnsWereTold(t *testing.T) {
	const turns = 5
	dir := counterTurns(t, turns)
	spools := func() []string {
		s, _ := filepath.Glob(filepath.Join(os.TempDir(), "git-llm-apply-patches-*"))
		return s
	}
	before := len(spools())
	defer func() { replayKept = nil }()
	for _, args := range [][]string{nil, {"--json"}, {"-o", "patches"}, {"--json", "-o", "patches"}} {
		t.Run(strings.Join(append([]string{"replay"}, args...), " "), func(t *testing.T) {
			r := newRepo(t, map[string]string{"f.txt": "v0\n"})
			main := strings.TrimSpace(r.git("rev-parse", "main"))
			calls := 0
			replayKept = func(int) {
				if calls++; calls == 2 {
					r.git("update-ref", "refs/heads/topic", main)
				}
			}
			var out, errb bytes.Buffer
			code := run(t.Context(), append(append([]string{"git-llm-apply", "replay", "-b", "topic"}, args...), dir), r.dir, strings.NewReader(""), &out, &errb)
			if code != 3 {
				t.Fatalf("exit %d, want 3\n%s", code, errb.String())
			}
			if tip := strings.TrimSpace(r.git("rev-parse", "topic")); tip != main {
				t.Errorf("topic at %s, want %s where the other writer put it", tip, main)
			}
			const said = "nothing was recorded"
			if !strings.Contains(errb.String(), "fatal: ") || !strings.Contains(errb.String(), said) {
				t.Errorf("the end does not say that nothing was recorded:\n%s", errb.String())
			}
			if slices.Contains(args, "--json") {
				var doc struct {
					Replies []json.RawMessage `json:"replies"`
					OK      bool              `json:"ok"`
					Error   string            `json:"error"`
				}
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
					t.Fatalf("the --json document: %v\n%s", err, out.String())
				}
				if doc.OK || !strings.Contains(doc.Error, said) || len(doc.Replies) != turns {
					t.Errorf("ok %v, error %q, %d replies; want false, %q, %d", doc.OK, doc.Error, len(doc.Replies), said, turns)
				}
			}
			if ps, _ := filepath.Glob(filepath.Join(r.dir, "patches", "*")); len(ps) > 0 {
				t.Errorf("patch files of commits not recorded: %v", ps)
			}
			if left := spools(); len(left) > before {
				t.Errorf("-o's spool left behind: %v", left)
			}
		})
	}
}

// counterTurns writes a session of turns replies, a directory of them
// in order, each moving f.txt's counter on by one (v0 to v1, ...).
func counterTurns(t *testing.T, turns int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "turns")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for k := 0; k < turns; k++ {
		reply := fmt.Sprintf("Move the counter on to %d.\n\nf.txt\n```\n<<<<<<< SEARCH\nv%d\n=======\nv%d\n>>>>>>> REPLACE\n```\n", k+1, k, k+1)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%03d.md", k)), []byte(reply), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
