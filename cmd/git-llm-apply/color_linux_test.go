package main

import (
	"bytes"
	"os"
	"os/exec"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// ttyRun runs the binary in r with the streams named ("stderr",
// "stdout") on a pseudo-terminal and the others on pipes, in
// colorEnv(TERM=xterm, env...). It returns what the terminal received,
// its CR LF (the terminal's for a line feed) read as LF, and the run's
// result; start, when set, is called with the running command and the
// terminal's output so far each time more arrives.
func ttyRun(t *testing.T, r *repo, onTTY []string, env []string, start func(*exec.Cmd, string), args ...string) (string, result) {
	t.Helper()
	master, name := openPTY(t)
	tty, err := os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening %s: %v", name, err)
	}
	cmd := exec.Command(binary(), args...)
	cmd.Dir, cmd.Env = r.dir, colorEnv(append([]string{"TERM=xterm"}, env...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	for _, s := range onTTY {
		switch s {
		case "stdout":
			cmd.Stdout = tty
		case "stderr":
			cmd.Stderr = tty
		}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close() // the child holds it; once it exits, reading the master ends (EIO)
	var got bytes.Buffer
	buf := make([]byte, 4096)
	for {
		n, err := master.Read(buf)
		got.Write(buf[:n])
		if n > 0 && start != nil {
			start(cmd, got.String())
		}
		if err != nil {
			break
		}
	}
	err = cmd.Wait()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(got.String(), "\r\n", "\n"), result{out.String(), errb.String(), code}
}

// On a terminal the report is coloured unless the configuration, the
// environment or the command line say otherwise; TERM=dumb is no
// colour, as in git.
func TestColorOnATerminal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		config []string
		env    []string
		flags  []string
		want   bool
	}{
		{"default", nil, nil, nil, true},
		{"color.ui=auto", []string{"color.ui", "auto"}, nil, nil, true},
		{"color.ui=never", []string{"color.ui", "never"}, nil, nil, false},
		{"color.ui=false", []string{"color.ui", "false"}, nil, nil, false},
		{"color.llm-apply=false", []string{"color.llm-apply", "false"}, nil, nil, false},
		{"color.llm-apply=true over color.ui=never", []string{"color.ui", "never", "color.llm-apply", "true"}, nil, nil, true},
		{"NO_COLOR", nil, []string{"NO_COLOR=1"}, nil, false},
		{"--color=never", nil, nil, []string{"--color=never"}, false},
		{"--no-color", nil, nil, []string{"--no-color"}, false},
		{"--color=auto over color.ui=never", []string{"color.ui", "never"}, nil, []string{"--color=auto"}, true},
		{"--color=auto, NO_COLOR", nil, []string{"NO_COLOR=1"}, []string{"--color=auto"}, false},
		{"TERM=dumb", nil, []string{"TERM=dumb"}, nil, false},
		{"TERM=dumb, --color", nil, []string{"TERM=dumb"}, []string{"--color"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"a.txt": "a\n"})
			for i := 0; i < len(tc.config); i += 2 {
				r.git("config", tc.config[i], tc.config[i+1])
			}
			reply := r.reply("r.md", "Change \x1b[2J.\n\n"+block("a.txt", "b\n", "c\n"))
			got, res := ttyRun(t, r, []string{"stderr"}, tc.env, nil, append(append([]string{"check"}, tc.flags...), reply)...)
			if res.code != 1 {
				t.Fatalf("exit %d:\n%s", res.code, got)
			}
			if colored := strings.Contains(got, boldRed+"error:"+reset+" edit 1"); colored != tc.want {
				t.Errorf("coloured %v, want %v:\n%q", colored, tc.want, got)
			}
			if s := stripSGR(got); strings.Contains(s, "\x1b") || !strings.Contains(s, `Change \x1b[2J.`) {
				t.Errorf("reply text unescaped:\n%q", got)
			}
		})
	}
}

// translate decides the colour of its diff on standard output apart
// from the report's on standard error: a terminal gets colour, a pipe
// none.
func TestColorStreamsApart(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "one\n", "b.txt": "b\n"})
	good := r.reply("good.md", "Change.\n\n"+block("a.txt", "one\n", "two\n"))
	bad := r.reply("bad.md", "Change.\n\n"+block("b.txt", "x\n", "y\n"))
	got, res := ttyRun(t, r, []string{"stdout"}, nil, nil, "translate", good, bad)
	if !strings.Contains(got, red+"-one"+reset+"\n"+green+"+"+reset+green+"two"+reset+"\n") {
		t.Errorf("the diff on a terminal:\n%q", got)
	}
	if !strings.Contains(res.stderr, "\nerror: edit 1") || strings.Contains(res.stderr, "\x1b") {
		t.Errorf("the report on a pipe:\n%q", res.stderr)
	}
	got, res = ttyRun(t, r, []string{"stderr"}, nil, nil, "translate", good, bad)
	if !strings.Contains(got, boldRed+"error:"+reset) || !strings.Contains(res.stdout, "\n-one\n+two\n") || strings.Contains(res.stdout, "\x1b") {
		t.Errorf("report on a terminal:\n%q\ndiff on a pipe:\n%q", got, res.stdout)
	}
}
