package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// servicesPy is a Python file of n lines of near-identical classes,
// told apart only by their timeout; the class whose timeout line is
// line at (1-based) has the timeout 30.
func servicesPy(n, at int) string {
	lines := []string{"import logging", "", ""}
	for i := 0; len(lines) < n; i++ {
		timeout := fmt.Sprintf("DEFAULT_TIMEOUT_%d", i)
		if len(lines)+4 == at {
			timeout = "30"
		}
		lines = append(lines, fmt.Sprintf("class Service%d:", i), "    def configure(self):",
			`        self.name = "svc"`, "        self.timeout = "+timeout,
			"        self.retries = 5", "        return self", "", "")
	}
	return strings.Join(lines[:n], "\n") + "\n"
}

// closestJSON is the part of the JSON report this file's tests read.
type closestJSON struct {
	Replies []struct {
		Edits []struct {
			Reason  *string
			Closest *struct {
				Lines      [2]int
				Similarity float64
				Text       string
				Differ     []int
				Rung, Fuzz *string
			}
		}
	}
}

func readClosest(t *testing.T, stdout string) closestJSON {
	t.Helper()
	var rep closestJSON
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil || len(rep.Replies) != 1 || len(rep.Replies[0].Edits) != 1 {
		t.Fatalf("JSON report (%v):\n%s", err, stdout)
	}
	return rep
}

// TestClosestLinesMarkTheLineThatDiffers: in a 3,800-line file of a
// hundred near-identical classes, a SEARCH block whose one
// misremembered line tells them apart is shown at its own class (not
// the first alike), the line that differs is marked, the report says
// what the marks mean, and that --fuzz loose would take the place; the
// JSON report lists the line.
func TestClosestLinesMarkTheLineThatDiffers(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"svc.py": servicesPy(3800, 2999)})
	old := "        self.name = \"svc\"\n        self.timeout = 300\n        self.retries = 5\n        return self\n"
	reply := r.reply("r.md", "Shorten the timeout.\n\n"+block("svc.py", old, strings.Replace(old, "300", "10", 1)))
	before := r.snapshot()
	res := r.run("check", reply)
	want := `  The closest lines are 2998-3001 of svc.py (similarity 0.99). The line marked "!" differs from the SEARCH section; the lines marked "|" match it:
    |         self.name = "svc"
    !         self.timeout = 30
    |         self.retries = 5
    |         return self
  With --fuzz loose this edit matches lines 2998-3001 (a near match, similarity 0.99, clearly the best place).
`
	if res.code != 1 || !strings.Contains(res.stderr, want) {
		t.Errorf("exit %d, report:\n%s\nwant in it:\n%s", res.code, res.stderr, want)
	}
	res = r.run("check", "--json", reply)
	c := readClosest(t, res.stdout).Replies[0].Edits[0].Closest
	if c == nil || c.Lines != [2]int{2998, 3001} || !slices.Equal(c.Differ, []int{2999}) || c.Similarity != 0.99 ||
		c.Rung == nil || *c.Rung != "loose" || c.Fuzz == nil || *c.Fuzz != "loose" {
		t.Errorf("closest in JSON: %+v\n%s", c, res.stdout)
	}
	if res = r.run("check", "--fuzz", "loose", reply); res.code != 0 {
		t.Errorf("--fuzz loose: exit %d\n%s", res.code, res.stderr)
	}
	r.assertUntouched(before)
}

// TestClosestLinesAtALooserRung: text that differs from the file's only
// in trailing white space is never called similarity 1.00; the report
// says which --fuzz level takes it and why, and JSON names the rung.
func TestClosestLinesAtALooserRung(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"ws.py": "def f():\n    x = 1   \n    return x\n"})
	reply := r.reply("r.md", "Change x.\n\n"+block("ws.py", "    x = 1\n    return x\n", "    x = 2\n    return x\n"))
	res := r.run("check", "--fuzz", "exact", reply)
	want := `  The closest lines are 2-3 of ws.py (similarity 0.99). The line marked "!" differs from the SEARCH section; the lines marked "|" match it:
    !     x = 1   
    |     return x
  With --fuzz format (the default) this edit matches lines 2-3 (they read the same once trailing white space is ignored).
`
	if res.code != 1 || !strings.Contains(res.stderr, want) || strings.Contains(res.stderr, "1.00") {
		t.Errorf("exit %d, report:\n%s\nwant in it:\n%s", res.code, res.stderr, want)
	}
	res = r.run("check", "--fuzz", "exact", "--json", reply)
	c := readClosest(t, res.stdout).Replies[0].Edits[0].Closest
	if c == nil || c.Similarity != 0.99 || !slices.Equal(c.Differ, []int{2}) || c.Rung == nil || *c.Rung != "trailing-space" || *c.Fuzz != "format" {
		t.Errorf("closest in JSON: %+v\n%s", c, res.stdout)
	}
	if res = r.run("check", reply); res.code != 0 {
		t.Errorf("--fuzz format: exit %d\n%s", res.code, res.stderr)
	}
}

// TestClosestLinesNoneAlike: a SEARCH block like nothing in the file is
// not pointed at unrelated lines; the report says that none are alike.
func TestClosestLinesNoneAlike(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"svc.py": servicesPy(300, 0)})
	reply := r.reply("r.md", "Add retries.\n\n"+block("svc.py", "class RetryPolicy:\n    max_attempts = 3\n", "class RetryPolicy:\n    max_attempts = 5\n"))
	res := r.run("check", reply)
	if res.code != 1 || strings.Contains(res.stderr, "closest lines") ||
		!strings.Contains(res.stderr, "failed: the SEARCH text does not match any lines of svc.py; no similar lines were found.\n") {
		t.Errorf("exit %d, report:\n%s", res.code, res.stderr)
	}
	res = r.run("check", "--json", reply)
	e := readClosest(t, res.stdout).Replies[0].Edits[0]
	if e.Closest != nil || e.Reason == nil || !strings.HasSuffix(*e.Reason, "; no similar lines were found") {
		t.Errorf("JSON: %s", res.stdout)
	}
}

// TestClosestLinesNoneDiffers: closest lines of which each reads as one
// of the edit's (a diff-format edit's indentation does not count line by
// line), the edit's lines being indented otherwise among themselves,
// are not quoted as if they matched: the line above them
// says that together they do not. Before, it ended with ":" alone, and
// lines all marked "|" read as a match.
func TestClosestLinesNoneDiffers(t *testing.T) {
	t.Parallel()
	const app = "def main():\n    first = 1\n    value = compute(alpha, beta)\n    third = 3\n    return value\n"
	r := newRepo(t, map[string]string{"app.py": app})
	for name, search := range map[string]string{
		"indentation": "  first = 1\n    value = compute(alpha, beta)\n    third = 3\n",
	} {
		res := r.run("check", r.reply("r.md", "Change.\n\n"+block("app.py", search, "    x = 1\n")))
		want := `(similarity 0.9`
		legend := `. Each line reads as a line of the SEARCH section (marked "|"), but together they do not match it:
    |     first = 1
    |     value = compute(alpha, beta)
    |     third = 3
`
		if res.code != 1 || !strings.Contains(res.stderr, want) || !strings.Contains(res.stderr, legend) {
			t.Errorf("%s: exit %d, report:\n%s\nwant in it:\n%s", name, res.code, res.stderr, legend)
		}
	}
}

// TestClosestSingleLine: one closest line is named as one line, not as
// the range "2-2", in the heading and in the looser fuzz's offer.
func TestClosestSingleLine(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"app.py": "def main():\n    return compute(1)  \n\n\ndef other():\n    pass\n"})
	tests := []struct {
		name, search string
		args         []string
		want         []string
	}{
		{"differs", "    return compute(2)\n", nil, []string{
			"  The closest line is line 2 of app.py (similarity 0.",
			`). It differs from the SEARCH section (marked "!"):` + "\n    !     return compute(1)  \n",
		}},
		{"a looser fuzz takes it", "    return compute(1)\n", []string{"--fuzz", "exact"}, []string{
			"  The closest line is line 2 of app.py (similarity 0.99)",
			"  With --fuzz format (the default) this edit matches line 2 (",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reply := r.reply("r.md", "Change it.\n\n"+block("app.py", tc.search, "    return 0\n"))
			res := r.run(append(append([]string{"check"}, tc.args...), reply)...)
			for _, want := range tc.want {
				if res.code != 1 || !strings.Contains(res.stderr, want) {
					t.Errorf("exit %d, want 1 and %q in:\n%s", res.code, want, res.stderr)
				}
			}
			if strings.Contains(res.stderr, "2-2") {
				t.Errorf("a one-line range reads 2-2:\n%s", res.stderr)
			}
		})
	}
}
