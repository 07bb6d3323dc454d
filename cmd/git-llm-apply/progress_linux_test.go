package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// screen is what a terminal shows of out: a carriage return goes back
// to the start of the line, and what follows overwrites it.
func screen(out string) []string {
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		var line []rune
		col := 0
		for _, r := range l {
			if r == '\r' {
				col = 0
				continue
			}
			if col < len(line) {
				line[col] = r
			} else {
				line = append(line, r)
			}
			col++
		}
		lines = append(lines, strings.TrimRight(string(line), " "))
	}
	return lines
}

// progressOf splits a terminal's output at the kept progress line: the
// lines rewritten before it (each ended by \r), and what follows it.
func progressOf(t *testing.T, out, title string, total string) (drawn []string, rest string) {
	t.Helper()
	final := title + ": 100% (" + total + "/" + total + "), done.\n"
	before, rest, ok := strings.Cut(out, final)
	if !ok {
		t.Fatalf("no %q in:\n%q", final, out)
	}
	drawn = strings.Split(before, "\r")
	if drawn[len(drawn)-1] != "" {
		t.Errorf("the last progress line is not ended by \\r: %q", before)
	}
	drawn = drawn[:len(drawn)-1]
	line := regexp.MustCompile(`^` + title + `: +\d+% \(\d+/` + total + `\)$`)
	for _, d := range drawn {
		if !line.MatchString(d) {
			t.Errorf("progress line %q", d)
		}
	}
	return drawn, rest
}

// A run of many replies on a terminal shows its progress on one line
// rewritten in place, and keeps its last line before the report.
func TestProgressOnATerminal(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	dir := batchReplies(t, 12)
	got, res := ttyRun(t, r, []string{"stderr"}, nil, nil, "apply", "-b", "batch", dir)
	if res.code != 0 {
		t.Fatalf("exit %d:\n%s", res.code, got)
	}
	drawn, rest := progressOf(t, got, "Applying replies", "12")
	if len(drawn) == 0 || drawn[0] != "Applying replies:   0% (0/12)" {
		t.Errorf("the first line shown: %q", drawn)
	}
	if !strings.HasPrefix(rest, dir+"/r0000.md (diff): Add new/0000.txt.") || strings.Contains(rest, "\r") {
		t.Errorf("the report after the progress:\n%q", rest)
	}
	lines := screen(got)
	if lines[0] != "Applying replies: 100% (12/12), done." {
		t.Errorf("the terminal shows:\n%s", strings.Join(lines, "\n"))
	}
	for what, args := range map[string][]string{
		"Checking replies":    {"check", dir},
		"Translating replies": {"translate", dir},
	} {
		got, res := ttyRun(t, r, []string{"stderr"}, nil, nil, args...)
		if res.code != 0 {
			t.Fatalf("exit %d:\n%s", res.code, got)
		}
		progressOf(t, got, what, "12")
	}
}

// No progress where git shows none: on a pipe, with --no-progress, -q
// or --json; and a short run (of few replies, within the delay) shows
// none either. --progress shows it anywhere, the last of the two flags
// winning.
func TestProgressWhereShown(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	many := batchReplies(t, 12)
	few := batchReplies(t, 2)
	for _, tc := range []struct {
		name string
		tty  bool
		env  []string
		args []string
		want bool
	}{
		{"pipe", false, nil, []string{many}, false},
		{"--progress on a pipe", false, nil, []string{"--progress", many}, true},
		{"--no-progress", true, nil, []string{"--no-progress", many}, false},
		{"-q", true, nil, []string{"-q", many}, false},
		{"-q --progress", true, nil, []string{"-q", "--progress", many}, true},
		{"--json", true, nil, []string{"--json", many}, false},
		{"--progress --no-progress", true, nil, []string{"--progress", "--no-progress", many}, false},
		{"--no-progress --progress", true, nil, []string{"--no-progress", "--progress", many}, true},
		{"few replies, within the delay", true, []string{"GIT_PROGRESS_DELAY=1000"}, []string{few}, false},
		{"few replies, no delay", true, []string{"GIT_PROGRESS_DELAY=0"}, []string{few}, true},
		{"many replies, within the delay", true, []string{"GIT_PROGRESS_DELAY=1000"}, []string{many}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr string
			if tc.tty {
				got, res := ttyRun(t, r, []string{"stderr"}, tc.env, nil, append([]string{"check"}, tc.args...)...)
				stderr = got + res.stderr
			} else {
				stderr = r.runEnv(tc.env, append([]string{"check"}, tc.args...)...).stderr
			}
			if shown := strings.Contains(stderr, "Checking replies:"); shown != tc.want {
				t.Errorf("progress shown %v, want %v:\n%q", shown, tc.want, stderr)
			}
		})
	}
}

// SIGINT while the progress line shows: the line is cleared before the
// report, not left for the report to write over.
func TestProgressInterrupted(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"a.txt": "a\n"})
	dir := batchReplies(t, 500)
	sent := false
	got, res := ttyRun(t, r, []string{"stderr"}, nil, func(cmd *exec.Cmd, out string) {
		if !sent && strings.Contains(out, "Applying replies:") {
			cmd.Process.Signal(os.Interrupt)
			sent = true
		}
	}, "apply", "-b", "batch", dir)
	if res.code != exitInterrupted {
		t.Fatalf("exit %d:\n%q", res.code, got)
	}
	// Each line drawn is followed by the next one or by blanks over it.
	drawn := regexp.MustCompile(`Applying replies: [^\r\n]*\r`)
	for _, at := range drawn.FindAllStringIndex(got, -1) {
		next := got[at[1]:]
		if !strings.HasPrefix(next, "Applying replies: ") && !regexp.MustCompile(`^\r +\r`).MatchString(next) {
			t.Errorf("a progress line left for the report to write over: %q", got[at[0]:min(len(got), at[1]+40)])
		}
	}
	reported := false
	for _, l := range screen(got) {
		if strings.Contains(l, "replies:") {
			t.Errorf("the terminal still shows %q:\n%q", l, got)
		}
		reported = reported || strings.HasPrefix(l, "fatal: interrupted: ")
	}
	if !reported {
		t.Errorf("no report of the interrupt:\n%q", got)
	}
}
