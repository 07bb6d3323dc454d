package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileBadBoolean: a boolean of the configuration that git reads
// and that is no boolean makes git die ("bad boolean config value"),
// core.bare before it reads anything else; the tool refuses the
// repository too, with git's message, exit 2, and records nothing
// (SPEC section 5).
func TestHostileBadBoolean(t *testing.T) {
	t.Parallel()
	reply := "Import sys.\n\n" + block("src/app.py", "import os\n", "import os\nimport sys\n")
	for _, c := range []struct{ section, key, value string }{
		{"core", "bare", "maybe"},
		{"core", "fileMode", "perhaps"},
		{"core", "ignoreCase", "x"},
		{"core", "autocrlf", "sometimes"},
		{"core", "logAllRefUpdates", "often"},
		{`remote "origin"`, "promisor", "kinda"},
		{"extensions", "worktreeConfig", "1.5"},
	} {
		r := newRepo(t, map[string]string{"src/app.py": appPy})
		before := r.snapshot()
		cfg := filepath.Join(r.dir, ".git", "config")
		good, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("[" + c.section + "]\n\t" + c.key + " = " + c.value + "\n")
		f.Close()
		name := strings.ToLower(c.section) + "." + strings.ToLower(c.key)
		if c.section == `remote "origin"` {
			name = "remote.origin.promisor"
		}
		want := "bad boolean config value '" + c.value + "' for '" + name + "'"
		status := exec.Command("git", "status")
		status.Dir = r.dir
		if res := r.collect(status); res.code == 0 || !strings.Contains(res.stderr, want) {
			t.Fatalf("%s: git status: exit %d, %q: the case no longer shows git's refusal", name, res.code, res.stderr)
		}
		p := r.reply("edit.md", reply)
		for _, args := range [][]string{{"check", p}, {"apply", "-b", "bad", p}} {
			res := r.run(args...)
			if res.code != exitUsage || !strings.Contains(res.stderr, want) {
				t.Errorf("%s = %s, %s: exit %d, want %d saying %q\n%s", name, c.value, args[0], res.code, exitUsage, want, res.stderr)
			}
		}
		if err := os.WriteFile(cfg, good, 0o644); err != nil {
			t.Fatal(err)
		}
		if b := r.branches(); b != "main" {
			t.Errorf("%s: branches %q after a refusal", name, b)
		}
		r.assertUntouched(before)
	}
}
