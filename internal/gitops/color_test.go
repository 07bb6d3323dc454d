package gitops

import (
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

func TestColorConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		config  []string // key value pairs set with git config
		want    string
		wantErr bool
	}{
		{"unset", nil, "", false},
		{"ui always", []string{"color.ui", "always"}, "always", false},
		{"ui Never", []string{"color.ui", "Never"}, "never", false},
		{"ui true is auto", []string{"color.ui", "true"}, "auto", false},
		{"ui yes is auto", []string{"color.ui", "yes"}, "auto", false},
		{"ui 0 is never", []string{"color.ui", "0"}, "never", false},
		{"ui off", []string{"color.ui", "off"}, "never", false},
		{"ui empty is false", []string{"color.ui", ""}, "never", false},
		{"command wins", []string{"color.ui", "always", "color.llm-apply", "false"}, "never", false},
		{"command alone", []string{"color.llm-apply", "always"}, "always", false},
		{"bad value", []string{"color.ui", "sometimes"}, "", true},
		{"bad command value stops", []string{"color.ui", "always", "color.llm-apply", "maybe"}, "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTestRepo(t)
			for i := 0; i < len(tc.config); i += 2 {
				tr.git("config", tc.config[i], tc.config[i+1])
			}
			got, err := tr.open(tr.dir).ColorConfig("llm-apply")
			if got != tc.want || (err != nil) != tc.wantErr {
				t.Errorf("ColorConfig = %q, %v; want %q, error %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

// TestColorConfigGlobalAndParameters: the user's ~/.gitconfig, XDG
// config and git -c (GIT_CONFIG_PARAMETERS) count, in git's order.
func TestColorConfigGlobalAndParameters(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	if err := scratch.WriteFile(tr.home+"/.config/git/config", "[color]\n\tui = never\n"); err != nil {
		t.Fatal(err)
	}
	if got, err := tr.open(tr.dir).ColorConfig("llm-apply"); got != "never" || err != nil {
		t.Errorf("from the XDG config: %q, %v", got, err)
	}
	if err := scratch.WriteFile(tr.home+"/.gitconfig", "[color]\n\tui = always\n"); err != nil {
		t.Fatal(err)
	}
	if got, err := tr.open(tr.dir).ColorConfig("llm-apply"); got != "always" || err != nil {
		t.Errorf("~/.gitconfig over the XDG config: %q, %v", got, err)
	}
	tr.git("config", "color.ui", "auto")
	if got, err := tr.open(tr.dir).ColorConfig("llm-apply"); got != "auto" || err != nil {
		t.Errorf("the repository's config over ~/.gitconfig: %q, %v", got, err)
	}
	r := tr.open(tr.dir)
	r.env = lookupIn(append(tr.env, "GIT_CONFIG_PARAMETERS='color.llm-apply'='never'"))
	if got, err := r.ColorConfig("llm-apply"); got != "never" || err != nil {
		t.Errorf("git -c over the files: %q, %v", got, err)
	}
}
