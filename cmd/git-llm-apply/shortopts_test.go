package main

import (
	"slices"
	"strings"
	"testing"
)

func TestSplitShortOptions(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"check -qv r.md", "check -q -v r.md"},
		{"apply -bNAME r.md", "apply -b NAME r.md"},
		{"apply -qbNAME r.md", "apply -q -b NAME r.md"},
		{"apply -qb NAME r.md", "apply -q -b NAME r.md"},
		{"apply -b NAME r.md", "apply -b NAME r.md"},
		{"apply -mfix r.md", "apply -m fix r.md"},
		{"apply -qo patches r.md", "apply -q -o patches r.md"},
		{"apply -m -qv r.md", "apply -m -qv r.md"},             // a value is never split
		{"apply --branch -qv r.md", "apply --branch -qv r.md"}, // nor after a long flag
		{"apply -format diff r.md", "apply -format diff r.md"}, // urfave/cli's single-dash long flag
		{"apply --format=diff -qv", "apply --format=diff -q -v"},
		{"-Crepo check -qv", "-C repo check -q -v"},
		{"-C repo check -qv", "-C repo check -q -v"},
		{"check -qx r.md", "check -qx r.md"}, // -x is no flag: left for urfave/cli to refuse
		{"check -- -qv", "check -- -qv"},
		{"hook install -fq", "hook install -f -q"},
		{"hook install -fz", "hook install -fz"}, // -z is not a flag of hook install
		{"hook install -f", "hook install -f"},
		{"check - -qv", "check - -q -v"},
		{"apply -qSKEY r.md", "apply -q -S=KEY r.md"}, // -S<keyid>: the rest of the bundle, as git
		{"apply -S r.md", "apply -S r.md"},
		{"apply -Sq r.md", "apply -S=q r.md"},
	} {
		app := newApp(streams{}, "")
		got := splitShortOptions(app, append([]string{"git-llm-apply"}, strings.Fields(tc.in)...))[1:]
		if want := strings.Fields(tc.want); !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", tc.in, got, want)
		}
	}
}

// Short flags bundle as in git: -qv, -bNAME, -qb NAME.
func TestBundledShortFlags(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	before := r.snapshot()
	reply := r.reply("r.md", block("a.txt", "a\n", "b\n"))
	// -q wins over -v: only errors, so no line of how an edit matched
	// (before, "  edit 1: replace a.txt line 1: applied (exact)" stood
	// alone, its reply's headline silenced).
	if res := r.run("check", "-qv", reply); res.code != 0 || res.stderr != "" {
		t.Errorf("check -qv: exit %d\n%s", res.code, res.stderr)
	}
	if res := r.run("apply", "-qbone", reply); res.code != 0 || res.stderr != "" {
		t.Errorf("apply -qbone: exit %d\n%s", res.code, res.stderr)
	}
	if res := r.run("apply", "-qb", "two", "-mSubject", reply); res.code != 0 {
		t.Errorf("apply -qb two -mSubject: exit %d\n%s", res.code, res.stderr)
	}
	if got := r.branches(); !strings.Contains(got, "one") || !strings.Contains(got, "two") {
		t.Errorf("branches: %s", got)
	}
	if got := strings.TrimSpace(r.git("log", "-1", "--format=%s", "two")); got != "Subject" {
		t.Errorf("-mSubject gave the subject %q", got)
	}
	if res := r.run("check", "-qx", reply); res.code != 2 || !strings.HasPrefix(res.stderr, "error: unknown switch `x'\n") {
		t.Errorf("check -qx: exit %d\n%s", res.code, res.stderr)
	}
	r.assertUntouched(before)
}
