package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// editReports reads the edits of the first reply of a --json report.
func editReports(t *testing.T, stdout string) []map[string]any {
	t.Helper()
	var doc struct {
		Replies []struct {
			Edits []map[string]any `json:"edits"`
		} `json:"replies"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil || len(doc.Replies) == 0 {
		t.Fatalf("bad JSON report (%v):\n%s", err, stdout)
	}
	return doc.Replies[0].Edits
}

// otherAdvice reports whether a report holds advice about the other
// base (the report's first line names the reply, whose temporary path
// holds the test's name).
func otherAdvice(stderr string) bool {
	for _, w := range []string{"not staged", "not tracked", "--base worktree", "git add", "git restore", "staged app.py", "deleted in the working tree"} {
		if strings.Contains(stderr, w) {
			return true
		}
	}
	return false
}

// An edit that fails against one base (the index, or the working tree
// with --base worktree) and resolves against the other says so, with
// what to do; an edit that matches neither keeps the old advice, with
// no word of the other base.
func TestAdviceOtherBase(t *testing.T) {
	t.Parallel()
	const app = "def main():\n    return 1\n\n\ndef helper():\n    return 3\n"
	edited := strings.Replace(app, "return 1", "return 10", 1)
	tests := []struct {
		name  string
		setup func(r *repo)
		reply string
		base  string // --base, "" for the index
		want  string // the advice line; "" when the edit must resolve
		// elsewhere is the JSON report's elsewhere field ("" for none)
		elsewhere string
		// other is the exit status with the other base (-1: not run)
		other int
	}{
		{"unstaged change, edit matches the working tree", func(r *repo) { r.write("app.py", edited) },
			block("app.py", "    return 10\n", "    return 20\n"), "",
			"This edit matches the working tree: app.py has changes that are not staged. Stage them with git add app.py, or run again with --base worktree.",
			`{"base":"worktree","status":"applied"}`, 0},
		{"unstaged change, edit already made in the working tree", func(r *repo) { r.write("app.py", edited) },
			block("app.py", "def main():\n    pass\n", "def main():\n    return 10\n"), "",
			"The working tree's app.py already holds this edit, in changes that are not staged. Stage them with git add app.py.",
			`{"base":"worktree","status":"already-applied"}`, 0},
		{"unstaged change, edit matches neither", func(r *repo) { r.write("app.py", edited) },
			block("app.py", "    return 7\n", "    return 20\n"), "",
			"Send this edit again with the SEARCH section copied exactly from those lines.", "", 1},
		{"clean working tree, edit matches neither", func(r *repo) {},
			block("app.py", "    return 7\n", "    return 20\n"), "",
			"Send this edit again with the SEARCH section copied exactly from those lines.", "", 1},
		{"untracked file, edit matches it", func(r *repo) { r.write("new.py", "a = 1\n") },
			block("new.py", "a = 1\n", "a = 2\n"), "",
			"new.py is not tracked; git add new.py or use --base worktree (this edit matches the file in the working tree).",
			`{"base":"worktree","only_there":true,"status":"applied"}`, 0},
		{"untracked file, edit matches neither", func(r *repo) { r.write("new.py", "a = 1\n") },
			block("new.py", "a = 5\n", "a = 2\n"), "",
			"new.py is not tracked; git add new.py or use --base worktree, and copy the SEARCH section exactly as it stands in the working tree (this edit does not match it there either).",
			`{"base":"worktree","only_there":true,"status":"failed"}`, 1},
		{"untracked file, created by the reply and then edited", func(r *repo) { r.write("new.py", "a = 1\n") },
			block("new.py", "", "b = 2\n") + block("new.py", "a = 1\n", "a = 3\n"), "",
			"new.py is not tracked; git add new.py or use --base worktree (this edit matches the file in the working tree).",
			`{"base":"worktree","only_there":true,"status":"applied"}`, 0},
		{"file deleted in the working tree, index base", func(r *repo) { os.Remove(filepath.Join(r.dir, "app.py")) },
			block("app.py", "    return 1\n", "    return 2\n"), "", "", "", -1},
		{"file deleted in the working tree, --base worktree", func(r *repo) { os.Remove(filepath.Join(r.dir, "app.py")) },
			block("app.py", "    return 1\n", "    return 2\n"), "worktree",
			"app.py is deleted in the working tree but not in the index, where this edit matches; run again without --base worktree, or bring the file back with git restore app.py.",
			`{"base":"index","only_there":true,"status":"applied"}`, 0},
		{"file deleted in the working tree, edit matches neither", func(r *repo) { os.Remove(filepath.Join(r.dir, "app.py")) },
			block("app.py", "    return 7\n", "    return 2\n"), "worktree",
			"app.py is deleted in the working tree but not in the index; git restore app.py brings it back.",
			`{"base":"index","only_there":true,"status":"failed"}`, 1},
		{"--base worktree, edit matches the index only", func(r *repo) { r.write("app.py", edited) },
			block("app.py", "    return 1\n", "    return 2\n"), "worktree",
			"This edit matches the index but not the working tree: app.py has changes that are not staged. Run again without --base worktree to edit the staged app.py, or send the edit again against the file as it is now.",
			`{"base":"index","status":"applied"}`, 0},
		{"--base worktree, edit matches neither", func(r *repo) { r.write("app.py", edited) },
			block("app.py", "    return 7\n", "    return 2\n"), "worktree",
			"Send this edit again with the SEARCH section copied exactly from those lines.", "", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"app.py": app})
			tc.setup(r)
			before := r.snapshot()
			reply := r.reply("r.md", "Change it.\n\n"+tc.reply)
			var base []string
			if tc.base != "" {
				base = []string{"--base", tc.base}
			}
			for _, cmd := range []string{"check", "apply"} {
				res := r.run(append(append([]string{cmd}, base...), reply)...)
				if tc.want == "" {
					if res.code != 0 || otherAdvice(res.stderr) {
						t.Errorf("%s: exit %d, want 0 with no advice:\n%s", cmd, res.code, res.stderr)
					}
					continue
				}
				if res.code != 1 {
					t.Errorf("%s: exit %d, want 1:\n%s", cmd, res.code, res.stderr)
				}
				if !strings.Contains(res.stderr, "\n  "+tc.want+"\n") {
					t.Errorf("%s: the advice is not\n  %s\nstderr:\n%s", cmd, tc.want, res.stderr)
				}
				if tc.elsewhere == "" && otherAdvice(res.stderr) {
					t.Errorf("%s: advice about the other base where there is none:\n%s", cmd, res.stderr)
				}
			}
			if b := r.branches(); tc.want != "" && b != "main" {
				t.Errorf("a failed reply made a branch: %q", b)
			}
			if tc.want != "" {
				res := r.run(append(append([]string{"check", "--json"}, base...), reply)...)
				edits := editReports(t, res.stdout)
				got := ""
				for _, e := range edits {
					if e["status"] == "failed" {
						if e["elsewhere"] != nil {
							b, _ := json.Marshal(e["elsewhere"])
							got = string(b)
						}
					}
				}
				if got != tc.elsewhere {
					t.Errorf("JSON elsewhere %s, want %s\n%s", got, tc.elsewhere, res.stdout)
				}
			}
			if tc.other >= 0 {
				other := []string{"--base", "worktree"}
				if tc.base == "worktree" {
					other = nil
				}
				if res := r.run(append(append([]string{"check"}, other...), reply)...); res.code != tc.other {
					t.Errorf("check against the other base: exit %d, want %d:\n%s", res.code, tc.other, res.stderr)
				}
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// Following the advice works: apply --base worktree records the edit
// that matched only the working tree, and so does staging the file.
func TestAdviceOtherBaseFollowed(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"app.py": "def main():\n    return 1\n"})
	r.write("app.py", "def main():\n    return 10\n")
	reply := r.reply("r.md", "Twenty.\n\n"+block("app.py", "    return 10\n", "    return 20\n"))
	if res := r.run("apply", "-b", "wt", "--base", "worktree", reply); res.code != 0 {
		t.Fatalf("apply --base worktree: exit %d\n%s", res.code, res.stderr)
	}
	if got := r.show("wt", "app.py"); got != "def main():\n    return 20\n" {
		t.Errorf("wt:app.py = %q", got)
	}
	r.git("add", "app.py")
	if res := r.run("apply", "-b", "staged", reply); res.code != 0 {
		t.Fatalf("apply after git add: exit %d\n%s", res.code, res.stderr)
	}
}

// An edit of a path that names no file lists the closest paths that
// do: a typo, another directory, another case, a directory level
// missing or extra; with none near, the old advice.
func TestAdviceClosestPaths(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{
		"src/utils/helpers.py": "x = 1\n",
		"src/helper.py":        "x = 1\n",
		"lib/parser.go":        "package lib\n",
		"docs/README.md":       "# Docs\n",
		"pkg/api/server.go":    "package api\n",
		"main.go":              "package main\n",
	})
	tests := []struct {
		name, path string
		want       []string
	}{
		{"typo", "src/utils/helprs.py", []string{"src/utils/helpers.py"}},
		{"two near, same name first", "src/utils/helper.py", []string{"src/helper.py", "src/utils/helpers.py"}},
		{"wrong directory", "src/parser.go", []string{"lib/parser.go"}},
		{"case", "Docs/readme.md", []string{"docs/README.md"}},
		{"missing directory", "pkg/server.go", []string{"pkg/api/server.go"}},
		{"extra directory", "lib/internal/parser.go", []string{"lib/parser.go"}},
		{"no candidate", "totally/unrelated.rs", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := r.snapshot()
			reply := r.reply("r.md", "Fix it.\n\n"+block(tc.path, "x\n", "y\n"))
			res := r.run("check", reply)
			if res.code != 1 {
				t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
			}
			want := "Check the file name; to create a file, give the new path with an empty SEARCH section."
			if len(tc.want) > 0 {
				list := tc.want[0]
				if len(tc.want) == 2 {
					list += " or " + tc.want[1]
				}
				want = "Did you mean " + list + "? To create a file instead, give the new path with an empty SEARCH section."
			}
			if !strings.Contains(res.stderr, "\n  "+want+"\n") {
				t.Errorf("the advice is not\n  %s\nstderr:\n%s", want, res.stderr)
			}
			res = r.run("check", "--json", reply)
			var got []string
			if s, ok := editReports(t, res.stdout)[0]["suggestions"].([]any); ok {
				for _, p := range s {
					got = append(got, p.(string))
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("JSON suggestions %q, want %q", got, tc.want)
			}
			r.assertUntouched(before)
		})
	}
}

// The commands the advice suggests can be pasted as they are.
func TestShellArg(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"src/app.py":  "src/app.py",
		"my file.txt": "'my file.txt'",
		"it's.py":     `'it'\''s.py'`,
		"-n.py":       "./-n.py",
		"a$b":         "'a$b'",
		"HEAD~1..x":   "HEAD~1..x",
		"~x":          "'~x'",
		"fix;rm":      "'fix;rm'",
	} {
		if got := shellArg(in); got != want {
			t.Errorf("shellArg(%q) = %s, want %s", in, got, want)
		}
	}
}

// TestAdviceCommandsRunWhereTyped: the git commands the report
// suggests (git add PATH, Review with, Switch with) work pasted where
// the command was typed: from a subdirectory a path is relative to it,
// as git status shows it, and after -C DIR the command carries -C DIR.
// Before, "git add sub/app.py" failed from sub/ (pathspec did not
// match) and "git log -p ..." failed outside the repository.
func TestAdviceCommandsRunWhereTyped(t *testing.T) {
	t.Parallel()
	const app = "def main():\n    return 1\n"
	edit := block("sub/app.py", "    return 10\n", "    return 20\n")
	tests := []struct {
		name string
		from string   // where the command is typed, under the test's directory
		args []string // before the command
		add  string   // the advice's command
	}{
		{"top", "repo", nil, "git add sub/app.py"},
		{"subdirectory", "repo/sub", nil, "git add app.py"},
		{"deeper subdirectory", "repo/sub/deep", nil, "git add ../app.py"},
		{"-C from outside", ".", []string{"-C", "repo"}, "git -C repo add sub/app.py"},
		{"-C into a subdirectory", ".", []string{"-C", "repo", "-C", "sub"}, "git -C repo/sub add app.py"},
		{"-C with a space", ".", []string{"-C", "my repo"}, "git -C 'my repo' add sub/app.py"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top := t.TempDir()
			name := "repo"
			if strings.Contains(tc.add, "my repo") {
				name = "my repo"
			}
			r := &repo{t: t, dir: filepath.Join(top, name)}
			os.MkdirAll(filepath.Join(r.dir, "sub", "deep"), 0o755)
			r.git("init", "-q", "-b", "main")
			r.write("sub/app.py", app)
			r.git("add", "-A")
			r.git("commit", "-q", "-m", "initial")
			r.write("sub/app.py", strings.Replace(app, "return 1", "return 10", 1))
			from := filepath.Join(top, tc.from)
			reply := r.reply("r.md", "Change it.\n\n"+edit)

			res := r.runIn(from, "", append(append([]string{}, tc.args...), "check", reply)...)
			want := "Stage them with " + tc.add + ", or run again with --base worktree."
			if res.code != 1 || !strings.Contains(res.stderr, want) {
				t.Fatalf("exit %d, want 1 and %q:\n%s", res.code, want, res.stderr)
			}
			sh := func(line string) string {
				t.Helper()
				cmd := exec.Command("sh", "-c", line)
				cmd.Dir = from
				out, err := cmd.CombinedOutput()
				if err != nil {
					t.Fatalf("%s (in %s): %v\n%s", line, tc.from, err, out)
				}
				return string(out)
			}
			sh(tc.add)
			if got := r.git("diff", "--cached", "--name-only"); got != "sub/app.py\n" {
				t.Fatalf("%s staged %q", tc.add, got)
			}

			res = r.runIn(from, "", append(append([]string{}, tc.args...), "apply", "-b", "x", reply)...)
			if res.code != 0 {
				t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
			}
			hint := func(label string) string {
				t.Helper()
				_, line, ok := strings.Cut(res.stderr, label)
				if !ok {
					t.Fatalf("no %q:\n%s", label, res.stderr)
				}
				line, _, _ = strings.Cut(line, "\n")
				return line
			}
			if line := hint("Review with: "); !strings.Contains(sh(line), "+    return 20") {
				t.Errorf("%s does not show the commit", line)
			}
			r.git("reset", "-q", "--hard") // the staged change would stop a switch
			sh(hint("Switch with: "))
			if got := r.git("branch", "--show-current"); got != "x\n" {
				t.Errorf("switched to %q", got)
			}
		})
	}
}

// TestAdviceOtherBaseNoLooserFuzz: an edit that fails against the
// index only because of an unstaged change, and matches the working
// tree, gets the advice to stage it, not also "With --fuzz loose this
// edit matches": loosened onto the index's lines the edit would
// rewrite a line the model never saw, a different change from the one
// it meant. The closest lines are still quoted, their "!" line being
// the unstaged change. Both bases the same way round.
func TestAdviceOtherBaseNoLooserFuzz(t *testing.T) {
	t.Parallel()
	const staged = "def main():\n    first = 1\n    value = compute(alpha, beta)\n    third = 3\n    return value\n"
	unstaged := strings.Replace(staged, "beta)", "beta, gamma)", 1)
	for _, tc := range []struct {
		name, base, search, advice string
	}{
		{"index", "index", unstaged, "This edit matches the working tree: app.py has changes that are not staged."},
		{"worktree", "worktree", staged, "This edit matches the index but not the working tree: app.py has changes that are not staged."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"app.py": staged})
			r.write("app.py", unstaged)
			search := strings.Join(strings.Split(tc.search, "\n")[1:4], "\n") + "\n"
			reply := r.reply("r.md", "Use delta.\n\n"+block("app.py", search, strings.Replace(search, "beta", "delta", 1)))
			res := r.run("check", "--base", tc.base, reply)
			if res.code != 1 || !strings.Contains(res.stderr, tc.advice) || !strings.Contains(res.stderr, "    !     value = compute(") {
				t.Fatalf("exit %d, want 1, the advice %q and the closest lines:\n%s", res.code, tc.advice, res.stderr)
			}
			if strings.Contains(res.stderr, "--fuzz") {
				t.Errorf("the report also offers a looser fuzz:\n%s", res.stderr)
			}
			// Without the other base's match, the looser fuzz is said.
			r.git("add", "app.py")
			other := strings.Replace(search, "first = 1", "first = 2", 1)
			res = r.run("check", r.reply("r2.md", "Use delta.\n\n"+block("app.py", other, other)))
			if res.code != 1 || !strings.Contains(res.stderr, "With --fuzz loose this edit matches lines 2-4") {
				t.Errorf("no looser fuzz without the other base:\n%s", res.stderr)
			}
		})
	}
}

// An apply-patch chunk marked "*** End of File" whose lines stand
// whole but not at the end is told so, and told what to change: not
// to copy again the lines it copied right.
func TestAdviceNotAtEndOfFile(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"m.py": "def alpha():\n    value = compute(1)\n    return value * 2\n\n\ndef beta():\n    return 7\n"})
	reply := r.reply("r.md", "*** Begin Patch\n*** Update File: m.py\n@@\n     value = compute(1)\n-    return value * 2\n+    return value * 5\n*** End of File\n*** End Patch\n")
	res := r.run("check", reply)
	for _, want := range []string{
		"failed: the lines to find stand at line 2 of m.py, not at its end, where the edit says they end (*** End of File).\n",
		"\n  Give the lines that end the file, or leave out *** End of File.\n",
	} {
		if res.code != 1 || !strings.Contains(res.stderr, want) {
			t.Errorf("exit %d, want 1 and %q in:\n%s", res.code, want, res.stderr)
		}
	}
}
