package gitops

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// configOf is the configuration of a file setting each "section.key"
// of vals.
func configOf(t *testing.T, vals map[string]string) *config.Values {
	t.Helper()
	var text strings.Builder
	for k, v := range vals {
		section, key, _ := strings.Cut(k, ".")
		text.WriteString("[" + section + "]\n\t" + key + " = " + v + "\n")
	}
	path := filepath.Join(t.TempDir(), "config")
	if err := scratch.WriteFile(path, text.String()); err != nil {
		t.Fatal(err)
	}
	c, err := config.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// checkFormat follows git's rules for the format version and the
// extensions, and refuses what gitops does not implement by name.
func TestCheckFormat(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		config map[string]string
		want   string // "" when the repository is usable
	}{
		{map[string]string{}, ""},
		{map[string]string{"core.repositoryformatversion": "1", "extensions.noop": "true"}, ""},
		{map[string]string{"core.repositoryformatversion": "1", "extensions.noop-v1": "true"}, ""},
		{map[string]string{"extensions.preciousobjects": "true"}, ""},
		{map[string]string{"extensions.partialclone": "origin"}, ""},
		{map[string]string{"extensions.worktreeconfig": "true"}, ""},
		{map[string]string{"core.repositoryformatversion": "1", "extensions.objectformat": "sha1"}, ""},
		// Version 0 ignores what git did not know before version 1.
		{map[string]string{"extensions.frobnicate": "true"}, ""},
		{map[string]string{"core.repositoryformatversion": "1", "extensions.frobnicate": "true"}, "extensions.frobnicate = true, which git-llm-apply does not know"},
		{map[string]string{"extensions.objectformat": "sha1"}, "needs core.repositoryformatversion = 1"},
		{map[string]string{"core.repositoryformatversion": "1", "extensions.objectformat": "sha256"}, "SHA-256 repositories are not supported yet"},
		{map[string]string{"core.repositoryformatversion": "1", "extensions.refstorage": "reftable"}, "reftable ref storage"},
		{map[string]string{"core.repositoryformatversion": "2"}, "core.repositoryformatversion = 2"},
		{map[string]string{"core.repositoryformatversion": "one"}, "bad core.repositoryformatversion"},
	} {
		err := checkFormat(configOf(t, c.config), "/repo/.git")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v: %v", c.config, err)
		case c.want != "" && (!errors.Is(err, ErrUnsupportedRepository) || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%v: %v, want %q", c.config, err, c.want)
		}
	}
}
