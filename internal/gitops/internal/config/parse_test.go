package config

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestParseFileLikeGit compares what parseFile reads of tricky files
// with git config --list, and which files both refuse.
func TestParseFileLikeGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	cases := []string{
		"[core]\n\tbare = false\n",
		"[Core]\n\tBare\n\tfileMode = yes\n",
		"\xef\xbb\xbf[a]\nb = c\n",
		"[a \"Sub Section\"]\n\tk = v\n",
		"[a \"q\\\"uo\\\\te\\x\"]\n\tk = v\n",
		"[a.B]\n\tk = v\n",
		"[a.b \"c\"]\n\tk = v\n",
		"[a] k = v\n",
		"[a]\nk = \"  quoted  # not a comment \"  # comment\n",
		"[a]\nk =   several   words\there  \n",
		"[a]\nk = a\\tb\\nc\\bd\\\\e\\\"f\n",
		"[a]\nk = first \\\n  second\n",
		"[a]\nk =\n",
		"[a]\nk = ; only a comment\n",
		"[a]\r\nk = crlf\r\n",
		"; comment\n# comment\n\n  [a]  \n\n  k-2 = v ; c\n",
		"[a]\nk = x\"y z\"w\n",
		"[a]\nk = v\n[a]\nk = w\n",
		"[a]\nk",
		"[a]\nk = no newline",
		"[a]\n\tk\t=\tv\r\n",
		// refused by git
		"[broken\n",
		"[a]\nk = \"open\n",
		"[a]\nk = \\q\n",
		"[a]\nk_x = v\n",
		"[a]\nk # comment\n",
		"[a \"sub\" ]\nk = v\n",
		"[a \"sub\n",
		"[a b]\nk = v\n",
		"[a!]\nk = v\n",
		"[a]\n1k = v\n",
		"k = v\n",
		"[a]\nk = v\\",
		"[a \"s\\\nb\"]\nk = v\n",
	}
	dir := t.TempDir()
	for i, content := range cases {
		path := filepath.Join(dir, "config")
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("git", "config", "--file", path, "--list")
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		out, gitErr := cmd.Output()
		var got []string
		err := parseFile([]byte(content), func(sect, sub, key, value string, blank bool) error {
			name := strings.ToLower(sect) + "." + strings.ToLower(key)
			if sub != "" {
				name = strings.ToLower(sect) + "." + sub + "." + strings.ToLower(key)
			}
			name = strings.TrimPrefix(name, ".") // git lists a variable without section so
			if blank {
				got = append(got, name)
			} else {
				got = append(got, name+"="+value)
			}
			return nil
		})
		if (err != nil) != (gitErr != nil) {
			t.Errorf("case %d %q: parseFile error %v, git's %v", i, content, err, gitErr)
			continue
		}
		if err != nil {
			continue
		}
		want := strings.TrimSuffix(string(out), "\n")
		if g := strings.Join(got, "\n"); g != want {
			t.Errorf("case %d %q:\n got %q\nwant %q", i, content, g, want)
		}
	}
}
