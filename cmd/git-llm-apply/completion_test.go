package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"
)

// Every command and every flag of the definitions is in every script,
// so that a new flag is completed without touching the generators.
func TestCompletionScriptsHoldEveryFlag(t *testing.T) {
	t.Parallel()
	for _, shell := range []string{"bash", "zsh", "fish"} {
		script := inProcess(t, "completion", shell)
		var check func(c *cli.Command)
		check = func(c *cli.Command) {
			for _, f := range c.Flags {
				for _, n := range f.Names() {
					if len(n) > 1 && !strings.Contains(script, n) {
						t.Errorf("%s: no flag --%s (%s)", shell, n, c.Name)
					}
				}
			}
			for _, sub := range c.Commands {
				if !strings.Contains(script, sub.Name) {
					t.Errorf("%s: no command %s", shell, sub.Name)
				}
				check(sub)
			}
		}
		check(newApp(streams{}, ""))
	}
}

// completionRepo is a repository with branches to complete.
func completionRepo(t *testing.T) *repo {
	r := newRepo(t, map[string]string{"reply.md": "r\n"})
	r.git("branch", "feature")
	r.git("branch", "fix-parser")
	return r
}

// The bash script through git's own completion: git's entry point
// __git_wrap__git_main with COMP_WORDS and COMP_CWORD as bash sets
// them, and git-llm-apply typed as a command of its own.
func TestBashCompletion(t *testing.T) {
	t.Parallel()
	const gitCompletion = "/usr/share/bash-completion/completions/git"
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	if _, err := os.Stat(gitCompletion); err != nil {
		t.Skip("git's bash completion is not installed at " + gitCompletion)
	}
	r := completionRepo(t)
	script := filepath.Join(t.TempDir(), "git-llm-apply.bash")
	os.WriteFile(script, []byte(r.run("completion", "bash").stdout), 0o644)
	driver := `source ` + gitCompletion + `
source "$1"
comp () {
	local entry="$1" line="$2"
	read -ra COMP_WORDS <<< "$line"
	[[ "$line" == *" " ]] && COMP_WORDS+=("")
	COMP_LINE="$line" COMP_POINT=${#line} COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
	COMPREPLY=()
	"$entry"
	printf '%s =>' "$line"; printf ' %s' "${COMPREPLY[@]}"; echo
}
comp __git_wrap__git_main "git llm-apply ap"
comp __git_wrap__git_main "git llm-apply apply --fo"
comp __git_wrap__git_main "git llm-apply apply --format "
comp __git_wrap__git_main "git llm-apply apply -b "
comp __git_wrap__git_main "git llm-apply apply --base f"
comp __git_wrap__git_main "git llm-apply hook "
comp __git_wrap__git_main "git llm-apply apply -b feature --partial --fo"
comp __git_wrap__git_main "git llm-apply prompt ud"
comp __git_wrap_git_llm_apply "git-llm-apply ap"
comp __git_wrap_git_llm_apply "git-llm-apply apply --format u"
`
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", driver, "bash", script)
	cmd.Dir = r.dir
	res := r.collect(cmd)
	if res.code != 0 || res.stderr != "" {
		t.Fatalf("bash: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	want := `git llm-apply ap => apply 
git llm-apply apply --fo => --format 
git llm-apply apply --format  => auto  diff  diff-fenced  fiup  chunk  edit-v2  udiffx  apply-patch  cline  roo  udiff  tool-calls  lazy  whole 
git llm-apply apply -b  => feature  fix-parser  main 
git llm-apply apply --base f => feature  fix-parser 
git llm-apply hook  => install  run 
git llm-apply apply -b feature --partial --fo => --format 
git llm-apply prompt ud => udiffx  udiff 
git-llm-apply ap => apply 
git-llm-apply apply --format u => udiffx  udiff 
`
	if res.stdout != want {
		t.Errorf("bash completion:\n%s\nwant:\n%s", res.stdout, want)
	}

	// Installed as README says, bash-completion loads the script when
	// git's completion meets llm-apply.
	const loader = "/usr/share/bash-completion/bash_completion"
	if _, err := os.Stat(loader); err != nil {
		t.Skip("bash-completion is not installed: on-demand loading not tested")
	}
	data := t.TempDir()
	os.MkdirAll(filepath.Join(data, "bash-completion", "completions"), 0o755)
	os.WriteFile(filepath.Join(data, "bash-completion", "completions", "git-llm-apply"), []byte(r.run("completion", "bash").stdout), 0o644)
	onDemand := strings.Replace(strings.Replace(driver, `source "$1"`, "source "+loader+"\n_completion_loader git", 1), "source "+gitCompletion+"\n", "", 1)
	cmd = exec.Command("bash", "--norc", "--noprofile", "-c", onDemand, "bash")
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "XDG_DATA_HOME="+data)
	if res := r.collect(cmd); res.stdout != want {
		t.Errorf("bash completion loaded on demand: exit %d\n%s%s\nwant:\n%s", res.code, res.stdout, res.stderr, want)
	}
}

// The fish script completes git-llm-apply, and git llm-apply through
// fish's git completion when it is sourced from conf.d.
func TestFishCompletion(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("fish"); err != nil {
		t.Skip("fish is not installed (apt-get install fish)")
	}
	r := completionRepo(t)
	config := t.TempDir()
	os.MkdirAll(filepath.Join(config, "fish", "conf.d"), 0o755)
	os.WriteFile(filepath.Join(config, "fish", "conf.d", "git-llm-apply.fish"), []byte(r.run("completion", "fish").stdout), 0o644)
	for _, tc := range []struct{ line, want string }{
		{"git-llm-apply ap", "apply"},
		{"git-llm-apply apply --fo", "--format"},
		{"git-llm-apply apply --format ud", "udiff udiffx"},
		{"git-llm-apply apply -b f", "feature fix-parser"},
		{"git-llm-apply apply --base w", "worktree"},
		{"git llm-apply ap", "apply"},
		{"git llm-apply apply --format ud", "udiff udiffx"},
	} {
		cmd := exec.Command("fish", "--no-config", "-c", `source $argv[1]; complete -C $argv[2]`,
			filepath.Join(config, "fish", "conf.d", "git-llm-apply.fish"), tc.line)
		if strings.HasPrefix(tc.line, "git ") {
			// git's completion loads ours the way a user's fish does
			cmd = exec.Command("fish", "-c", `complete -C $argv[1]`, tc.line)
		}
		cmd.Dir = r.dir
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+config,
			"PATH="+filepath.Dir(binary())+string(os.PathListSeparator)+os.Getenv("PATH"))
		res := r.collect(cmd)
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(res.stdout), "\n") {
			word, _, _ := strings.Cut(l, "\t")
			got = append(got, word)
		}
		if res.code != 0 || res.stderr != "" || strings.Join(got, " ") != tc.want {
			t.Errorf("fish: complete -C %q: exit %d, got %q, want %q\n%s", tc.line, res.code, got, tc.want, res.stderr)
		}
	}
}

// The zsh script completes git-llm-apply, and git llm-apply through
// zsh's own git completion, in an interactive zsh driven through a
// pseudo-terminal (zsh/zpty): completion widgets run only there.
func TestZshCompletion(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("zsh"); err != nil {
		t.Skip("zsh is not installed (apt-get install zsh)")
	}
	r := completionRepo(t)
	fpath := t.TempDir()
	os.WriteFile(filepath.Join(fpath, "_git-llm-apply"), []byte(r.run("completion", "zsh").stdout), 0o644)
	// Each case types a line and TAB, and reads until a word the
	// completion must list (and the line does not hold) appears; a
	// completion that never shows it runs into its deadline. The
	// deadline is each case's and generous: an interactive zsh that
	// loads compinit and git's completion takes well under a second on
	// a quiet machine, ten or more on a busy one (a CI run with the
	// six cases under one minute timed out in the sixth).
	driver := `zmodload zsh/zpty
fpath_dir=$1 line=$2 want=$3
zpty z zsh -f -i
zpty -w z "PS1='%% '; fpath=($fpath_dir \$fpath); autoload -Uz compinit; compinit -u -D"
zpty -w -n z "$line"$'\t'
zpty -r z out "*$want*" || { print "no $want for $line"; exit 1 }
print -r -- "ok: $line"
zpty -d z
`
	for _, c := range []struct{ line, want string }{
		{"git-llm-apply ", "translate"},
		{"git-llm-apply apply --format ", "udiffx"},
		{"git-llm-apply apply --f", "fuzz"},
		{"git llm-apply ", "translate"},
		{"git llm-apply apply --format ", "apply-patch"},
		{"git llm-apply apply -b ", "fix-parser"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		cmd := exec.CommandContext(ctx, "zsh", "-f", "-c", driver, "zsh", fpath, c.line, c.want)
		cmd.Dir = r.dir
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(binary())+string(os.PathListSeparator)+os.Getenv("PATH"))
		res := r.collect(cmd)
		cancel()
		if res.code != 0 || res.stdout != "ok: "+c.line+"\n" {
			t.Errorf("zsh completion of %q: exit %d (a case that hangs is killed after five minutes)\n%s%s", c.line, res.code, res.stdout, res.stderr)
		}
	}
}
