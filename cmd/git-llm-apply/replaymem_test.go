package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A replay keeps, for its report, only the turns the report shows:
// with -q (and neither --json nor -o) a turn that recorded its edits
// shows nothing, so a session of thousands of turns holds none of them
// (issue 30: flat memory); a turn that failed is kept, as every turn is
// for the full report and for --json. Not parallel: replayKept is the
// package's.
func TestReplayKeepsOnlyWhatItReports(t *testing.T) {
	const turns = 40
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
	// broken is the same session with one more turn, whose edit looks
	// for a line that is not there: with --partial it is reported, the
	// others not.
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
	defer func() { replayKept = nil }()
	for _, tc := range []struct {
		name    string
		args    []string
		session string
		code    int
		kept    int
		commits int
	}{
		{"quiet", []string{"-q"}, dir, 0, 0, turns},
		{"full report", nil, dir, 0, turns, turns},
		{"quiet --json", []string{"-q", "--json"}, dir, 0, turns, turns},
		{"quiet, one failed turn", []string{"-q", "--partial"}, broken, 1, 1, turns},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"f.txt": "v0\n"})
			kept := -1
			replayKept = func(n int) { kept = n }
			res := r.run(append(append([]string{"replay", "-b", "topic"}, tc.args...), tc.session)...)
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", res.code, tc.code, res.stderr)
			}
			if kept != tc.kept {
				t.Errorf("kept %d turns' results for the report, want %d", kept, tc.kept)
			}
			if n := len(r.commits("topic")); n != tc.commits {
				t.Errorf("%d commits, want %d", n, tc.commits)
			}
			if got := r.show("topic", "f.txt"); got != fmt.Sprintf("v%d\n", turns) {
				t.Errorf("f.txt at the tip: %q", got)
			}
			if failed := strings.Contains(res.stderr, "020x.md"); failed != (tc.session == broken) {
				t.Errorf("the failed turn reported: %v, want %v\n%s", failed, tc.session == broken, res.stderr)
			}
		})
	}
}
