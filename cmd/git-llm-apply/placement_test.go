package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// calcPy is a module of twenty functions alike but for their numbers:
// f<k>'s return line is line 5*(k-80)+3.
func calcPy(edit map[int]string) string {
	var b strings.Builder
	for k := 80; k < 100; k++ {
		ret := fmt.Sprintf("    return y + %d", k)
		if e, ok := edit[k]; ok {
			ret = e
		}
		fmt.Fprintf(&b, "def f%d(x):\n    y = x\n%s\n\n\n", k, ret)
	}
	return b.String()
}

func calcReturn(k int) int { return 5*(k-80) + 3 }

// TestResultElsewhereIsNotAlreadyApplied: an edit whose old lines stand
// nowhere while its new lines stand in another function is no edit
// already made: the reply fails, records nothing, and names the lines
// the edit was meant for (before, the edit was dropped and the reply
// reported done).
func TestResultElsewhereIsNotAlreadyApplied(t *testing.T) {
	t.Parallel()
	replies := map[string]string{
		"diff":        "Fix f89.\n\n" + block("calc.py", "    return y - 89\n", "    return y + 90\n"),
		"udiff":       "Fix f89.\n\n```diff\n--- a/calc.py\n+++ b/calc.py\n@@\n-    return y - 89\n+    return y + 90\n```\n",
		"apply-patch": "Fix f89.\n\n*** Begin Patch\n*** Update File: calc.py\n@@\n     y = x\n-    return y - 89\n+    return y + 90\n*** End Patch\n",
	}
	// The closest lines start at the old lines, or at the context line
	// above them.
	above := map[string]int{"diff": 0, "udiff": 0, "apply-patch": 1}
	for _, format := range []string{"diff", "udiff", "apply-patch"} {
		t.Run(format, func(t *testing.T) {
			r := newRepo(t, map[string]string{"calc.py": calcPy(nil)})
			before := r.snapshot()
			reply := r.reply("r.md", replies[format])
			res := r.run("apply", "--format", format, reply)
			if res.code != 1 {
				t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
			}
			if b := r.branches(); b != "main" {
				t.Errorf("branches %q: something was recorded", b)
			}
			l89, l90 := calcReturn(89)-above[format], calcReturn(90)-above[format]
			closest := fmt.Sprintf("The closest lines are %d-%d of calc.py", l89, calcReturn(89))
			if l89 == calcReturn(89) {
				closest = fmt.Sprintf("The closest line is line %d of calc.py", l89)
			}
			for _, want := range []string{"nothing recorded", fmt.Sprintf("its new lines stand at line %d", l90),
				closest, "    !     return y + 89"} {
				if !strings.Contains(res.stderr, want) {
					t.Errorf("report lacks %q:\n%s", want, res.stderr)
				}
			}
			js := r.run("check", "--json", "--format", format, reply)
			var rep struct {
				OK      bool `json:"ok"`
				Replies []struct {
					Edits []struct {
						Status  string `json:"status"`
						Closest *struct {
							Lines [2]int `json:"lines"`
						} `json:"closest"`
					} `json:"edits"`
				} `json:"replies"`
			}
			if err := json.Unmarshal([]byte(js.stdout), &rep); err != nil || js.code != 1 || rep.OK {
				t.Fatalf("check --json: exit %d, %v\n%s", js.code, err, js.stdout)
			}
			e := rep.Replies[0].Edits[0]
			if e.Status != "failed" || e.Closest == nil || e.Closest.Lines[0] != l89 {
				t.Errorf("json edit: %+v", e)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// TestRerunOnOwnBranchIsAlreadyApplied: a reply run again on the branch
// it recorded finds every edit done where it was meant, in files whose
// other lines look like the edited ones.
func TestRerunOnOwnBranchIsAlreadyApplied(t *testing.T) {
	t.Parallel()
	rows := ""
	for i := 1; i <= 30; i++ {
		rows += fmt.Sprintf("row %d\n", i)
	}
	shapes := "class Circle:\n    def describe(self):\n        return 'circle'\n\n\nclass Square:\n    def describe(self):\n        return 'circle'\n"
	r := newRepo(t, map[string]string{"calc.py": calcPy(nil), "rows.txt": rows, "shapes.py": shapes})
	before := r.snapshot()
	reply := r.reply("r.md", "Tidy three files.\n\n"+
		block("calc.py", "    return y + 89\n", "    return y + 89 + 1\n")+"\n"+
		"```diff\n--- a/rows.txt\n+++ b/rows.txt\n@@ -10,3 +10,3 @@\n row 10\n-row 11\n+row eleven\n row 12\n```\n\n")
	patch := r.reply("p.md", "Name the square.\n\n*** Begin Patch\n*** Update File: shapes.py\n@@ class Square:\n@@ def describe(self):\n-        return 'circle'\n+        return 'square'\n*** End Patch\n")
	if res := r.run("apply", "-b", "work", reply, patch); res.code != 0 {
		t.Fatalf("first run: exit %d\n%s", res.code, res.stderr)
	}
	tip := r.git("rev-parse", "work")
	if s := r.show("work", "shapes.py"); !strings.Contains(s, "return 'circle'\n\n\nclass Square") || !strings.Contains(s, "return 'square'") {
		t.Fatalf("first run recorded:\n%s", s)
	}
	for _, rep := range []string{reply, patch} {
		// On a new branch from work's tip, where no commit carries the
		// reply's digest, every edit is found done.
		res := r.run("apply", "--base", "work", "-b", "again", rep)
		if res.code != 0 {
			t.Fatalf("second run: exit %d\n%s", res.code, res.stderr)
		}
		if !strings.Contains(res.stderr, "every edit is already applied") {
			t.Errorf("second run report:\n%s", res.stderr)
		}
		// On work itself, the reply is known by its digest.
		if res = r.run("apply", "-b", "work", rep); res.code != 0 || !strings.Contains(res.stderr, "already recorded as ") {
			t.Errorf("second run on work: exit %d\n%s", res.code, res.stderr)
		}
	}
	if r.git("rev-parse", "work") != tip {
		t.Errorf("the second run recorded a commit")
	}
	r.assertUntouched(before)
	r.fsck()
}

// TestPureAdditionHunks: a hunk of added lines with no context goes at
// the end of the file, with a note (on an empty file it writes the
// lines), and runs again as already applied; one whose @@ line puts it
// elsewhere fails.
func TestPureAdditionHunks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, reply, want string
		code                    int
	}{
		{"udiffx, no numbers", "a\nb\n",
			"Add c.\n\n<FILE_CHANGES>\n<FILE_PATCH file_path=\"list.txt\">\n@@\n+c\n</FILE_PATCH>\n</FILE_CHANGES>\n", "a\nb\nc\n", 0},
		{"udiffx, an empty file", "",
			"Fill the list.\n\n<FILE_CHANGES>\n<FILE_PATCH file_path=\"list.txt\">\n@@\n+a\n+b\n</FILE_PATCH>\n</FILE_CHANGES>\n", "a\nb\n", 0},
		{"udiff, no numbers, no final newline", "a\nb",
			"Add c.\n\n```diff\n--- a/list.txt\n+++ b/list.txt\n@@ @@\n+c\n```\n", "a\nb\nc\n", 0},
		{"udiff, numbered at the end", "a\nb\n",
			"Add c.\n\n```diff\n--- a/list.txt\n+++ b/list.txt\n@@ -2,0 +3 @@\n+c\n```\n", "a\nb\nc\n", 0},
		{"udiff, -0 on an empty file", "",
			"Fill the list.\n\n```diff\n--- a/list.txt\n+++ b/list.txt\n@@ -0,0 +1,2 @@\n+a\n+b\n```\n", "a\nb\n", 0},
		{"udiff, two hunks without context", "a\nb\n",
			"Add c and d.\n\n```diff\n--- a/list.txt\n+++ b/list.txt\n@@\n+c\n@@\n+d\n```\n", "a\nb\nc\nd\n", 0},
		{"udiff, numbered mid-file", "a\nb\nc\nd\n",
			"Add x.\n\n```diff\n--- a/list.txt\n+++ b/list.txt\n@@ -1,0 +2 @@\n+x\n```\n", "", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"list.txt": tc.file})
			before := r.snapshot()
			reply := r.reply("r.md", tc.reply)
			res := r.run("apply", "-b", "work", reply)
			if res.code != tc.code {
				t.Fatalf("exit %d, want %d\n%s", res.code, tc.code, res.stderr)
			}
			if tc.code != 0 {
				if b := r.branches(); b != "main" || !strings.Contains(res.stderr, "not at the end of list.txt") {
					t.Errorf("branches %q, report:\n%s", b, res.stderr)
				}
				r.assertUntouched(before)
				return
			}
			if got := r.show("work", "list.txt"); got != tc.want {
				t.Errorf("list.txt %q, want %q", got, tc.want)
			}
			if tc.file != "" && !strings.Contains(res.stderr, "added at the end of list.txt") && strings.Contains(tc.reply, "@@\n") {
				t.Errorf("no note of the end:\n%s", res.stderr)
			}
			// A new branch from work's tip: no commit there carries the
			// reply's digest, so the edits are resolved and found done.
			again := r.run("apply", "--base", "work", "-b", "again", reply)
			if again.code != 0 || !strings.Contains(again.stderr, "every edit is already applied") {
				t.Errorf("second run: exit %d\n%s", again.code, again.stderr)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// TestHunksSharingAContextLine: two hunks of one diff whose context
// meets on one unchanged line apply, the second after the first.
func TestHunksSharingAContextLine(t *testing.T) {
	t.Parallel()
	file := "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
	hunks := "@@ -1,3 +1,3 @@\n one\n-two\n+2\n three\n@@ -3,3 +3,3 @@\n three\n-four\n+4\n five\n"
	replies := map[string]string{
		"udiff":  "Digits.\n\n```diff\n--- a/n.txt\n+++ b/n.txt\n" + hunks + "```\n",
		"udiffx": "Digits.\n\n<FILE_CHANGES>\n<FILE_PATCH file_path=\"n.txt\">\n" + hunks + "</FILE_PATCH>\n</FILE_CHANGES>\n",
		// Without numbers the order alone puts the second hunk after the
		// first, through the repeated context.
		"udiff-unnumbered": "Letters.\n\n```diff\n--- a/n.txt\n+++ b/n.txt\n@@\n top\n x\n-a\n+A\n x\n@@\n x\n-a\n+B\n x\n```\n",
	}
	files := map[string]string{"udiff": file, "udiffx": file, "udiff-unnumbered": "top\nx\na\nx\na\nx\n"}
	wants := map[string]string{"udiff": "one\n2\nthree\n4\nfive\nsix\nseven\n", "udiffx": "one\n2\nthree\n4\nfive\nsix\nseven\n", "udiff-unnumbered": "top\nx\nA\nx\nB\nx\n"}
	for _, name := range []string{"udiff", "udiffx", "udiff-unnumbered"} {
		t.Run(name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"n.txt": files[name]})
			before := r.snapshot()
			res := r.run("apply", "-b", "work", r.reply("r.md", replies[name]))
			if res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			if got := r.show("work", "n.txt"); got != wants[name] {
				t.Errorf("n.txt %q, want %q", got, wants[name])
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}
