package gitops

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

func TestIdentPrecedence(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		role  string            // "author" or "committer"
		files map[string]string // system, xdg, global, repo, alt, inc: config file contents
		env   []string
		want  string // "Name <email>", or "error: <substring>"
	}{
		{"environment wins", "author",
			map[string]string{"repo": "[user]\nname = Repo\nemail = repo@x\n[author]\nname = RepoAuthor\n"},
			[]string{"GIT_AUTHOR_NAME=Env", "GIT_AUTHOR_EMAIL=env@x"}, "Env <env@x>"},
		{"repo over global over xdg", "author",
			map[string]string{"xdg": "[user]\nname = Xdg\nemail = xdg@x\n", "global": "[user]\nname = Global\n", "repo": "[user]\nemail = repo@x\n"},
			nil, "Global <repo@x>"},
		{"xdg when alone", "committer",
			map[string]string{"xdg": "[user]\nname = Xdg\nemail = xdg@x\n"}, nil, "Xdg <xdg@x>"},
		{"author.name over user.name at any level", "author",
			map[string]string{"global": "[author]\nname = GlobalAuthor\n", "repo": "[user]\nname = Repo\nemail = repo@x\n"},
			nil, "GlobalAuthor <repo@x>"},
		{"committer ignores author.*", "committer",
			map[string]string{"repo": "[user]\nname = Repo\nemail = repo@x\n[author]\nname = A\nemail = a@x\n[committer]\nemail = c@x\n"},
			nil, "Repo <c@x>"},
		{"author env does not apply to the committer", "committer",
			map[string]string{"repo": "[user]\nname = Repo\nemail = repo@x\n"},
			[]string{"GIT_AUTHOR_NAME=Env", "GIT_COMMITTER_EMAIL=cenv@x"}, "Repo <cenv@x>"},
		{"GIT_CONFIG_GLOBAL replaces both global files", "author",
			map[string]string{"xdg": "[user]\nname = Xdg\nemail = xdg@x\n", "global": "[user]\nname = Global\n", "alt": "[user]\nname = Alt\n"},
			[]string{"GIT_CONFIG_GLOBAL=ALT", "EMAIL=mail@x"}, "Alt <mail@x>"},
		{"system file", "author",
			map[string]string{"system": "[user]\nname = System\nemail = sys@x\n", "global": "[user]\nemail = global@x\n"},
			[]string{"GIT_CONFIG_SYSTEM=SYSTEM", "GIT_CONFIG_NOSYSTEM="}, "System <global@x>"},
		{"GIT_CONFIG_NOSYSTEM skips the system file", "author",
			map[string]string{"system": "[user]\nname = System\nemail = sys@x\n", "global": "[user]\nname = Global\nemail = global@x\n"},
			[]string{"GIT_CONFIG_SYSTEM=SYSTEM"}, "Global <global@x>"},
		{"EMAIL as the last resort", "author",
			map[string]string{"repo": "[user]\nname = Repo\n"}, []string{"EMAIL=mail@x"}, "Repo <mail@x>"},
		{"git -c wins over files", "author",
			map[string]string{"repo": "[user]\nname = Repo\nemail = repo@x\n"},
			[]string{"GIT_CONFIG_PARAMETERS='user.name'='From C' 'user.email'='c'\\''quote@x'"}, "From C <c'quote@x>"},
		{"GIT_CONFIG_COUNT", "author",
			map[string]string{"repo": "[user]\nname = Repo\nemail = repo@x\n"},
			[]string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.NAME", "GIT_CONFIG_VALUE_0=Counted"}, "Counted <repo@x>"},
		{"include.path", "author",
			map[string]string{"global": "[include]\npath = inc\n[user]\nemail = global@x\n", "inc": "[user]\nname = Included\nemail = inc@x\n"},
			nil, "Included <global@x>"},
		{"includeIf gitdir matching", "author",
			map[string]string{"global": "[user]\nname = Global\nemail = global@x\n[includeIf \"gitdir:REPODIR/\"]\npath = inc\n", "inc": "[user]\nname = Work\n"},
			nil, "Work <global@x>"},
		{"includeIf gitdir not matching", "author",
			map[string]string{"global": "[user]\nname = Global\nemail = global@x\n[includeIf \"gitdir:/elsewhere/\"]\npath = inc\n", "inc": "[user]\nname = Work\n"},
			nil, "Global <global@x>"},
		{"includeIf onbranch", "author",
			map[string]string{"global": "[user]\nname = Global\nemail = global@x\n[includeIf \"onbranch:ma*\"]\npath = inc\n", "inc": "[user]\nname = OnMain\n"},
			nil, "OnMain <global@x>"},
		{"crud trimmed", "author", nil,
			[]string{"GIT_AUTHOR_NAME=  <Foo Bar>. ", "GIT_AUTHOR_EMAIL= <foo@x>"}, "Foo Bar <foo@x>"},
		{"name missing", "author",
			map[string]string{"repo": "[user]\nemail = repo@x\n"}, nil, "error: Author identity unknown"},
		{"email missing", "committer",
			map[string]string{"repo": "[user]\nname = Repo\n"}, nil, "error: Committer identity unknown"},
		{"empty name", "author", nil,
			[]string{"GIT_AUTHOR_NAME=", "GIT_AUTHOR_EMAIL=e@x"}, "error: empty ident name"},
		{"bad date", "author", nil,
			[]string{"GIT_AUTHOR_NAME=N", "GIT_AUTHOR_EMAIL=e@x", "GIT_AUTHOR_DATE=yesterday-ish"}, "error: GIT_AUTHOR_DATE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTestRepo(t)
			base := filepath.Dir(tr.dir)
			paths := map[string]string{
				"system": filepath.Join(base, "etc", "gitconfig"),
				"xdg":    filepath.Join(tr.home, ".config", "git", "config"),
				"global": filepath.Join(tr.home, ".gitconfig"),
				"repo":   filepath.Join(tr.dir, ".git", "config"),
				"alt":    filepath.Join(base, "alt-config"),
				"inc":    filepath.Join(tr.home, "inc"),
			}
			for k, content := range tc.files {
				content = strings.ReplaceAll(content, "REPODIR", tr.dir)
				if k == "repo" {
					old, _ := os.ReadFile(paths[k])
					content = string(old) + content
				}
				if err := scratch.WriteFile(paths[k], content); err != nil {
					t.Fatal(err)
				}
			}
			env := []string{"HOME=" + tr.home, "XDG_CONFIG_HOME=" + filepath.Join(tr.home, ".config"),
				"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_DATE=" + authorDate, "GIT_COMMITTER_DATE=" + committerDate}
			for _, kv := range tc.env {
				kv = strings.ReplaceAll(kv, "=ALT", "="+paths["alt"])
				kv = strings.ReplaceAll(kv, "=SYSTEM", "="+paths["system"])
				env = append(env, kv)
			}
			r := tr.open(tr.dir)
			r.env = lookupIn(env)
			get := r.Author
			if tc.role == "committer" {
				get = r.Committer
			}
			id, err := get()
			if want, ok := strings.CutPrefix(tc.want, "error: "); ok {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Fatalf("%s() = %+v, %v, want an error containing %q", tc.role, id, err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("%s(): %v", tc.role, err)
			}
			if got := id.Name + " <" + id.Email + ">"; got != tc.want {
				t.Errorf("%s() = %q, want %q", tc.role, got, tc.want)
			}
			// git itself agrees.
			cmd := exec.Command("git", "var", "GIT_"+strings.ToUpper(tc.role)+"_IDENT")
			cmd.Dir, cmd.Env = tr.dir, append(testEnvWithout(), env...)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("git var: %v", err)
			}
			want := fmt.Sprintf("%s <%s> %d %s", id.Name, id.Email, id.When.Unix(), id.When.Format("-0700"))
			if got := strings.TrimSpace(string(out)); got != want {
				t.Errorf("git var says %q, we say %q", got, want)
			}
		})
	}
}

// testEnvWithout is the process environment without anything that
// configures git or names a person.
func testEnvWithout() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" || k == "EMAIL" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

func TestIdentDateNow(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	r := tr.open(tr.dir)
	r.env = lookupIn([]string{"GIT_AUTHOR_NAME=N", "GIT_AUTHOR_EMAIL=e@x", "GIT_CONFIG_NOSYSTEM=1"})
	before := time.Now().Add(-time.Second)
	id, err := r.Author()
	if err != nil {
		t.Fatal(err)
	}
	if id.When.Before(before) || id.When.After(time.Now().Add(time.Second)) {
		t.Errorf("When = %v, want now", id.When)
	}
}

func TestParseGitDate(t *testing.T) {
	t.Parallel()
	saved := time.Local
	time.Local = time.FixedZone("TEST", -3*3600) // "local" is -0300 here
	defer func() { time.Local = saved }()
	tests := []struct {
		in   string
		unix int64
		zone string // empty: an error is wanted
	}{
		{"@1112911993 +0200", 1112911993, "+0200"},
		{"1112911993 +0200", 1112911993, "+0200"},
		{"1112911993 -0130", 1112911993, "-0130"},
		{"@1112911993", 1112911993, "-0300"},
		{"1112911993", 1112911993, "-0300"},
		{"Thu, 07 Apr 2005 22:13:13 +0200", 1112904793, "+0200"},
		{"Thu, 7 Apr 2005 22:13:13 -0130", 1112917393, "-0130"},
		{"7 Apr 2005 22:13:13 +0200", 1112904793, "+0200"},
		{"Thu, 07 Apr 2005 22:13:13 +0200 (CEST)", 1112904793, "+0200"},
		{"2005-04-07T22:13:13", 1112922793, "-0300"},
		{"2005-04-07 22:13:13", 1112922793, "-0300"},
		{"2005-04-07 22:13:13 +0200", 1112904793, "+0200"},
		{"2005-04-07T22:13:13+02:00", 1112904793, "+0200"},
		{"2005-04-07T22:13:13Z", 1112911993, "+0000"},
		{"2005-04-07T22:13:13.123+0200", 1112904793, "+0200"},
		{"  2005-04-07T22:13:13 +0200  ", 1112904793, "+0200"},
		{"yesterday", 0, ""},
		{"2005-13-07T22:13:13", 0, ""},
		{"123", 0, ""},
		{"", 0, ""},
	}
	for _, tc := range tests {
		got, err := parseGitDate(tc.in)
		if tc.zone == "" {
			if err == nil {
				t.Errorf("parseGitDate(%q) = %v, want an error", tc.in, got)
			}
			continue
		}
		if err != nil || got.Unix() != tc.unix || got.Format("-0700") != tc.zone {
			t.Errorf("parseGitDate(%q) = %d %s, %v, want %d %s", tc.in, got.Unix(), got.Format("-0700"), err, tc.unix, tc.zone)
		}
	}
}

func TestWithoutCrud(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Plain Name":           "Plain Name",
		"  .Name, ":            "Name",
		"<a@b>":                "a@b",
		"Na<me>\nX":            "NameX",
		"\"Quoted\"":           "Quoted",
		"O'Brien":              "O'Brien",
		"José":                 "José",
		" ;:Mixed;: ":          "Mixed",
		"trailing backslash\\": "trailing backslash",
	} {
		if got := withoutCrud(in); got != want {
			t.Errorf("withoutCrud(%q) = %q, want %q", in, got, want)
		}
	}
}
