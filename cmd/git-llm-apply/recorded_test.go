package main

import (
	"github.com/git-llm-apply/git-llm-apply/internal/mcpserver"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recordedShapes are the replies that change a file again when applied
// a second time on the branch that recorded them (issue 27, item 9).
var recordedShapes = []struct {
	name, file, reply string
}{
	{"first match takes the next place", "x = 1\ny = 0\nx = 1\n",
		"Set x to 2.\n\n" + block("f.py", "x = 1\n", "x = 2\n")},
	{"a later edit rewrites an earlier one's result", "import sys\n\nmain()\n",
		"Import os, for paths.\n\n" + block("f.py", "import sys\n", "import sys\nimport os\n") + "\n" +
			block("f.py", "import os\n", "import os  # for paths\n")},
	{"insertions at one anchor", "def main():\n    run()\n",
		"Set up and log first.\n\n" + block("f.py", "def main():\n", "def main():\n    setup()\n") + "\n" +
			block("f.py", "def main():\n", "def main():\n    log()\n")},
}

// TestSameReplyTwiceApply: each shape applied twice with apply -b on
// its branch is recorded once; the second run exits 0, says "already
// recorded as <commit>" and leaves the branch where it was.
func TestSameReplyTwiceApply(t *testing.T) {
	t.Parallel()
	for _, tc := range recordedShapes {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"f.py": tc.file})
			reply := r.reply("r.md", tc.reply)
			if res := r.run("apply", "-b", "t", reply); res.code != 0 {
				t.Fatalf("first apply: exit %d\n%s", res.code, res.stderr)
			}
			tip, _ := r.branchTip("t")
			if msg := r.git("log", "-1", "--format=%(trailers:key=LLM-Reply,valueonly)", "t"); len(strings.TrimSpace(msg)) != 16 {
				t.Errorf("LLM-Reply trailer: %q", msg)
			}
			res := r.run("apply", "-b", "t", reply)
			if want := "already recorded as " + tip[:7]; res.code != 0 || !strings.Contains(res.stderr, want) {
				t.Errorf("second apply: exit %d, want 0 and %q:\n%s", res.code, want, res.stderr)
			}
			if now, _ := r.branchTip("t"); now != tip {
				t.Errorf("the branch moved from %s to %s", tip, now)
			}
			res = r.run("apply", "--json", "-b", "t", reply)
			if res.code != 0 || !strings.Contains(res.stdout, `"status": "unchanged"`) || !strings.Contains(res.stdout, `"recorded_as": "`+tip+`"`) {
				t.Errorf("--json: exit %d\n%s", res.code, res.stdout)
			}
			r.fsck()
		})
	}
}

// TestSameReplyTwiceMCP: the MCP apply of a call sent again records
// nothing the second time and says so; the session's branch stays.
func TestSameReplyTwiceMCP(t *testing.T) {
	t.Parallel()
	for _, tc := range recordedShapes {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"f.py": tc.file})
			cs, srv := mcpClient(t, r.dir, mcpserver.Options{})
			var first, second mcpserver.ApplyOutput
			res := callTool(t, cs, "apply", map[string]any{"reply": tc.reply})
			res.decode(t, &first)
			if res.isError || !first.OK || first.Commit == "" {
				t.Fatalf("apply 1: %+v\n%s", first, res.text)
			}
			res = callTool(t, cs, "apply", map[string]any{"reply": tc.reply})
			res.decode(t, &second)
			if res.isError || !second.OK || second.Commit != "" || second.Report.Status != "unchanged" || second.Report.RecordedAs != first.Commit ||
				!strings.Contains(res.text, "already recorded as "+first.ShortCommit) {
				t.Errorf("apply 2: %+v\n%s", second, res.text)
			}
			if tip, _ := r.branchTip(srv.Branch()); tip != first.Commit {
				t.Errorf("the branch is at %s, want %s", tip, first.Commit)
			}
			r.fsck()
		})
	}
}

// TestSameReplyTwiceReplay: a directory of the shapes' replies replayed
// twice onto its own branch is recorded once.
func TestSameReplyTwiceReplay(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var files = map[string]string{}
	for i, tc := range recordedShapes {
		name := filepath.Join(dir, string(rune('a'+i))+".md")
		if err := os.WriteFile(name, []byte(strings.ReplaceAll(tc.reply, "f.py", string(rune('a'+i))+".py")), 0o644); err != nil {
			t.Fatal(err)
		}
		files[string(rune('a'+i))+".py"] = tc.file
	}
	r := newRepo(t, files)
	if res := r.run("replay", "-b", "topic", dir); res.code != 0 {
		t.Fatalf("first replay: exit %d\n%s", res.code, res.stderr)
	}
	tip, _ := r.branchTip("topic")
	if n := strings.Count(r.git("log", "--format=%H", "main..topic"), "\n"); n != len(recordedShapes) {
		t.Fatalf("%d commits, want %d", n, len(recordedShapes))
	}
	res := r.run("replay", "-b", "topic", dir)
	if res.code != 0 || strings.Count(res.stderr, "already recorded as ") < len(recordedShapes) {
		t.Errorf("second replay: exit %d\n%s", res.code, res.stderr)
	}
	if now, _ := r.branchTip("topic"); now != tip {
		t.Errorf("the branch moved from %s to %s", tip, now)
	}
	r.fsck()
}

// TestSameReplyRecognised: a reply is recognised by its edits on the
// branch that recorded it: worded otherwise it is the same reply; on
// another branch, or with other edits, it is recorded.
func TestSameReplyRecognised(t *testing.T) {
	t.Parallel()
	const file = "def main():\n    run()\n"
	search, replace := "def main():\n", "def main():\n    setup()\n"
	r := newRepo(t, map[string]string{"f.py": file})
	r.git("branch", "other")
	if res := r.run("apply", "-b", "t", r.reply("r1.md", "Set up first.\n\n"+block("f.py", search, replace))); res.code != 0 {
		t.Fatalf("first apply: exit %d\n%s", res.code, res.stderr)
	}
	tip, _ := r.branchTip("t")
	tests := []struct {
		name, branch, reply string
		again               bool
	}{
		{"other prose", "t", "Sure! I will make main set things up before it runs.\n\n" + block("f.py", search, replace) + "\nThat is all.\n", true},
		{"another branch", "other", "Set up first.\n\n" + block("f.py", search, replace), false},
		{"other edits", "t", "Log first.\n\n" + block("f.py", search, "def main():\n    log()\n"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := r.branchTip(tc.branch)
			res := r.run("apply", "-b", tc.branch, r.reply("r.md", tc.reply))
			after, _ := r.branchTip(tc.branch)
			said := strings.Contains(res.stderr, "already recorded as "+tip[:7])
			if res.code != 0 || said != tc.again || (after == before) != tc.again {
				t.Errorf("exit %d, already recorded said %v, branch moved %v; want said %v\n%s", res.code, said, after != before, tc.again, res.stderr)
			}
		})
	}
	r.fsck()
}
