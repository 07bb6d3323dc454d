package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseConfigParameters(t *testing.T) {
	tests := []struct {
		in   string
		want [][2]string
	}{
		{"'user.name'='A B'", [][2]string{{"user.name", "A B"}}},
		{"'user.name'='A' 'core.bare'", [][2]string{{"user.name", "A"}, {"core.bare", "true"}}},
		{"'user.name=Old Style' 'x.y=1'", [][2]string{{"user.name", "Old Style"}, {"x.y", "1"}}},
		{`'user.name'='it'\''s'`, [][2]string{{"user.name", "it's"}}},
		{`'a.b'='x'\!'y'`, [][2]string{{"a.b", "x!y"}}},
		{"'a.b'=", [][2]string{{"a.b", "true"}}},
		{"", nil},
	}
	for _, tc := range tests {
		got, err := parseConfigParameters(tc.in)
		if err != nil || len(got) != len(tc.want) {
			t.Errorf("parseConfigParameters(%q) = %q, %v, want %q", tc.in, got, err, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("parseConfigParameters(%q)[%d] = %q, want %q", tc.in, i, got[i], tc.want[i])
			}
		}
	}
	for _, bad := range []string{"user.name=x", "'unterminated", "'a'='b"} {
		if got, err := parseConfigParameters(bad); err == nil {
			t.Errorf("parseConfigParameters(%q) = %q, want an error", bad, got)
		}
	}
}

func TestCanonKey(t *testing.T) {
	for in, want := range map[string]string{
		"user.name":                 "user.name",
		"User.Name":                 "user.name",
		"includeIf.gitdir:~/X.path": "includeif.gitdir:~/X.path",
		"core":                      "core",
	} {
		if got := canonKey(in); got != want {
			t.Errorf("canonKey(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestParseBool(t *testing.T) {
	// git_parse_maybe_bool: the words in any case, the empty value, and
	// git_parse_int's integers (units too); git dies on anything else.
	for in, want := range map[string]bool{"true": true, "Yes": true, "ON": true, "1": true, "42": true, "-1": true, "1k": true, "0x10": true, " 1": true,
		"false": false, "No": false, "off": false, "0": false, "": false, "0k": false} {
		if got, err := ParseBool("core.bare", in); err != nil || got != want {
			t.Errorf("ParseBool(%q) = %v, %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"maybe", "truthy", " true", "1x", "yes please", "4294967296", "k"} {
		_, err := ParseBool("core.bare", in)
		if want := "bad boolean config value '" + in + "' for 'core.bare'"; err == nil || err.Error() != want {
			t.Errorf("ParseBool(%q): %v, want %q", in, err, want)
		}
	}
}

func TestReadRefusesABadBoolean(t *testing.T) {
	dir := t.TempDir()
	if err := writeFile(filepath.Join(dir, "config"), "[extensions]\n\tworktreeConfig = sometimes\n"); err != nil {
		t.Fatal(err)
	}
	env := func(k string) (string, bool) {
		if k == "GIT_CONFIG_GLOBAL" || k == "GIT_CONFIG_SYSTEM" {
			return filepath.Join(dir, "none"), true
		}
		return "", false
	}
	_, err := Read(Where{GitDir: dir, CommonDir: dir, Env: env})
	if err == nil || !strings.Contains(err.Error(), "bad boolean config value 'sometimes' for 'extensions.worktreeconfig'") {
		t.Errorf("extensions.worktreeConfig = sometimes: %v", err)
	}
	noSystem := func(k string) (string, bool) {
		if k == "GIT_CONFIG_NOSYSTEM" {
			return "perhaps", true
		}
		return env(k)
	}
	_, err = Read(Where{GitDir: dir, CommonDir: dir, Env: noSystem})
	if err == nil || !strings.Contains(err.Error(), "bad boolean config value 'perhaps' for 'GIT_CONFIG_NOSYSTEM'") {
		t.Errorf("GIT_CONFIG_NOSYSTEM=perhaps: %v", err)
	}
}

func TestConfigFileSyntax(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config")
	content := "# comment\n[core]\n\tbare = false ; trailing\n\tFileMode\n[remote \"Origin\"]\n\turl = \"a b\\tc\"\n[user]\n\tname = First\n[user]\n\tname = Second\n"
	if err := writeFile(path, content); err != nil {
		t.Fatal(err)
	}
	c, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]string{
		"core.bare": "false", "core.filemode": "true", "remote.Origin.url": "a b\tc", "user.name": "Second",
	} {
		if got, ok := c.Get(key); !ok || got != want {
			t.Errorf("%s = %q, %v, want %q", key, got, ok, want)
		}
	}
	if err := writeFile(path, "[broken\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err == nil {
		t.Error("a malformed config file gave no error")
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing")); err != nil {
		t.Errorf("a missing config file: %v", err)
	}
}

func TestConfigIncludeLoopStops(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config")
	if err := writeFile(path, "[include]\n\tpath = config\n"); err != nil {
		t.Fatal(err)
	}
	if _, err := readFile(path, &includeCtx{}); err == nil {
		t.Error("a self-including config gave no error")
	}
}

// writeFile writes a file, creating its directory.
func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// The protected configuration (git-config, SCOPES) is the system and
// global files and the command line, never a repository's; a
// multi-valued key keeps every value in order, a bare name as "".
func TestReadProtected(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sys := write("system", "[safe]\n\tdirectory = /sys\n")
	inc := write("inc", "[safe]\n\tdirectory = /included\n")
	cond := write("cond", "[safe]\n\tdirectory = /conditional\n")
	global := write("global", "[safe]\n\tdirectory = /global\n\tdirectory\n[include]\n\tpath = "+inc+
		"\n[includeIf \"gitdir:/\"]\n\tpath = "+cond+"\n")
	repo := filepath.Join(dir, "repo")
	if err := os.MkdirAll(repo, 0o777); err != nil {
		t.Fatal(err)
	}
	write("repo/config", "[safe]\n\tdirectory = /repo\n")
	env := map[string]string{
		"HOME": dir, "GIT_CONFIG_SYSTEM": sys, "GIT_CONFIG_GLOBAL": global,
		"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": "/count",
		"GIT_CONFIG_PARAMETERS": "'safe.directory'='/param'",
	}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	c, err := ReadProtected(lookup)
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprintf("%q", c.Multi("safe.directory"))
	if want := `["/sys" "/global" "" "/included" "/count" "/param"]`; got != want {
		t.Errorf("safe.directory = %s, want %s", got, want)
	}
	if v, _ := c.Get("safe.directory"); v != "/param" {
		t.Errorf("Get = %q", v)
	}
	// Read, for a repository, has the repository's value too.
	all, err := Read(Where{GitDir: repo, CommonDir: repo, Env: lookup})
	if err != nil {
		t.Fatal(err)
	}
	got = fmt.Sprintf("%q", all.Multi("safe.directory"))
	if want := `["/sys" "/global" "" "/included" "/conditional" "/repo" "/count" "/param"]`; got != want {
		t.Errorf("Read: safe.directory = %s, want %s", got, want)
	}
}

// Protected configuration is system, global and command line: the
// repository's config and config.worktree are not read.
func TestProtected(t *testing.T) {
	dir := t.TempDir()
	home, git := filepath.Join(dir, "home"), filepath.Join(dir, "repo", ".git")
	for path, content := range map[string]string{
		filepath.Join(home, ".gitconfig"):     "[gpg]\n\tprogram = global\n[user]\n\tsigningKey = global\n",
		filepath.Join(git, "config"):          "[gpg]\n\tprogram = repo\n[extensions]\n\tworktreeConfig = true\n[core]\n\teditor = repo\n",
		filepath.Join(git, "config.worktree"): "[gpg \"ssh\"]\n\tprogram = worktree\n",
	} {
		if err := writeFile(path, content); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_PARAMETERS": "'gpg.x509.program'='cli'"}
	for _, tc := range []struct {
		protected bool
		want      map[string]string // "" for unset
	}{
		{true, map[string]string{"gpg.program": "global", "user.signingkey": "global", "gpg.ssh.program": "", "core.editor": "", "gpg.x509.program": "cli"}},
		{false, map[string]string{"gpg.program": "repo", "user.signingkey": "global", "gpg.ssh.program": "worktree", "core.editor": "repo", "gpg.x509.program": "cli"}},
	} {
		c, err := Read(Where{GitDir: git, CommonDir: git, Protected: tc.protected, Env: func(k string) (string, bool) {
			v, ok := env[k]
			return v, ok
		}})
		if err != nil {
			t.Fatal(err)
		}
		for k, want := range tc.want {
			if got, _ := c.Get(k); got != want {
				t.Errorf("protected %v: %s = %q, want %q", tc.protected, k, got, want)
			}
		}
	}
}
