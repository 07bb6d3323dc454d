package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestStaleStringNoLooserHint: a SEARCH quoting a string literal a
// later commit rewrote over more lines (a one-line docstring made
// three, a template literal split) is not offered to --fuzz loose, and
// --fuzz loose itself fails: a docstring is code at every rung, and a
// near match never ends inside a string the edit's lines close. Before,
// the report said "With --fuzz loose this edit matches line 4 (they
// read the same once comments ... are ignored)", and following it wrote
// the old docstring above the new one.
func TestStaleStringNoLooserHint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, path, file, search, replace string
	}{
		{"docstring made three lines", "m.py",
			"import os\n\n\ndef area(w, h):\n    \"\"\"Return the area of a rectangle.\n\n    Both sides in metres.\n    \"\"\"\n    return w * h\n\n\ndef size():\n    return 1\n",
			"def area(w, h):\n    \"\"\"Return the area.\"\"\"\n",
			"def area(w, h):\n    \"\"\"Return the area, rounded.\"\"\"\n"},
		{"single-quoted docstring and the line under it", "m.py",
			"def area(w, h):\n    '''Return the area of a rectangle.\n\n    Both sides in metres.\n    '''\n    return w * h\n",
			"def area(w, h):\n    '''Return the area.'''\n    return w * h\n",
			"def area(w, h):\n    '''Return the area.'''\n    return round(w * h, 2)\n"},
		{"template literal split", "greet.js",
			"function greet(name) {\n  const msg = `Hello there,\n  ${name}, welcome back`;\n  return msg;\n}\n",
			"function greet(name) {\n  const msg = `Hello there, ${name}`;\n",
			"function greet(name) {\n  const msg = `Hi, ${name}`;\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{tc.path: tc.file})
			reply := r.reply("r.md", "Reword it.\n\n"+block(tc.path, tc.search, tc.replace))
			before := r.snapshot()
			res := r.run("check", reply)
			if res.code != 1 || strings.Contains(res.stderr, "With --fuzz") {
				t.Errorf("check: exit %d, want 1 and no looser --fuzz offered:\n%s", res.code, res.stderr)
			}
			res = r.run("check", "--json", reply)
			if c := readClosest(t, res.stdout).Replies[0].Edits[0].Closest; c != nil && c.Rung != nil {
				t.Errorf("JSON offers rung %s:\n%s", *c.Rung, res.stdout)
			}
			res = r.run("apply", "--fuzz", "loose", "-b", "loose", reply)
			if res.code != 1 || strings.Contains(r.branches(), "loose") {
				t.Errorf("apply --fuzz loose: exit %d, branches %s\n%s", res.code, r.branches(), res.stderr)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// TestLooserHintHolds: where the report offers --fuzz loose, applying
// with it places the edit where the report said, and the file then holds
// the new lines there.
func TestLooserHintHolds(t *testing.T) {
	t.Parallel()
	const file = "def area(w, h):\n    \"\"\"Return the area.\"\"\"\n    # metres\n    return w * h\n"
	r := newRepo(t, map[string]string{"m.py": file})
	reply := r.reply("r.md", "Round it.\n\n"+block("m.py", "    \"\"\"Return the area.\"\"\"\n    return w * h\n", "    \"\"\"Return the area.\"\"\"\n    return round(w * h, 2)\n"))
	res := r.run("check", reply)
	if want := "With --fuzz loose this edit matches lines 2-4 (they read the same once comments,"; res.code != 1 || !strings.Contains(res.stderr, want) {
		t.Fatalf("check: exit %d, want %q in:\n%s", res.code, want, res.stderr)
	}
	if res = r.run("apply", "--fuzz", "loose", "-b", "loose", reply); res.code != 0 {
		t.Fatalf("apply --fuzz loose: exit %d\n%s", res.code, res.stderr)
	}
	if got, want := r.show("loose", "m.py"), "def area(w, h):\n    \"\"\"Return the area.\"\"\"\n    # metres\n    return round(w * h, 2)\n"; got != want {
		t.Errorf("m.py on the branch:\n%s\nwant:\n%s", got, want)
	}
	r.fsck()
}

// TestClosestShowsEveryLineOfTheEdit: when each closest line reads as a
// line of the SEARCH section but some of its lines stand among none of
// them, the report shows those too, marked "?", where each would stand;
// the JSON report lists them. Before, a three-line SEARCH was answered
// with two lines under "Each line reads as a line of the SEARCH section".
func TestClosestShowsEveryLineOfTheEdit(t *testing.T) {
	t.Parallel()
	const file = "import os\n\n\ndef size():\n    return 1\n\n\ndef name():\n    return \"x\"\n"
	tests := []struct {
		name, search, legend string
		missing              []int
	}{
		{"a comment line between", "def size():\n    # one for now\n    return 1\n",
			`. Each line reads as a line of the SEARCH section (marked "|"), but its line 2 (marked "?", where it would stand) stands among none of them:
    | def size():
    ?     # one for now
    |     return 1
`, []int{2}},
		{"comment lines first and last", "# sizes\ndef size():\n    return 1\n# end of sizes\n",
			`. Each line reads as a line of the SEARCH section (marked "|"), but its lines 1 and 4 (marked "?", where they would stand) stand among none of them:
    ? # sizes
    | def size():
    |     return 1
    ? # end of sizes
`, []int{1, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"m.py": file})
			reply := r.reply("r.md", "Change it.\n\n"+block("m.py", tc.search, "def size():\n    return 2\n"))
			res := r.run("check", reply)
			if res.code != 1 || !strings.Contains(res.stderr, tc.legend) {
				t.Errorf("exit %d, report:\n%s\nwant in it:\n%s", res.code, res.stderr, tc.legend)
			}
			res = r.run("check", "--json", reply)
			var rep struct {
				Replies []struct {
					Edits []struct {
						Closest struct {
							Missing []struct {
								Line, After int
								Text        string
							}
						}
					}
				}
			}
			if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, m := range rep.Replies[0].Edits[0].Closest.Missing {
				got = append(got, m.Line)
			}
			if !equalInts(got, tc.missing) {
				t.Errorf("missing lines %v, want %v\n%s", got, tc.missing, res.stdout)
			}
			// The offer holds.
			if res = r.run("check", "--fuzz", "loose", reply); res.code != 0 {
				t.Errorf("--fuzz loose: exit %d\n%s", res.code, res.stderr)
			}
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
