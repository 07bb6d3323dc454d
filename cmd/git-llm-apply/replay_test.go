package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The replay fixtures under testdata/replay are one session in every
// shape replay reads: four requests, made small, of an agent working in
// /home/dev/proj on f.txt ("a b c d", one letter a line):
//
//	1 "Make b upper case.\nIt reads better." edits b -> B
//	2 "What does this file do?"             edits nothing
//	3 "Make c upper case."                  an edit the session saw fail (not replayed), then c -> C
//	4 "Add notes.md saying hello."          creates notes.md
//
// claude.jsonl is a Claude Code session (~/.claude/projects/*/<id>.jsonl:
// "user"/"assistant" lines whose message.content holds text, tool_use
// Edit/Write with absolute file_path under cwd, and tool_result items,
// is_error on the failed edit). codex.jsonl is a Codex CLI rollout
// (~/.codex/sessions/.../rollout-*.jsonl: session_meta with cwd, the
// environment context as a user message, event_msg user_message
// requests, apply_patch as a custom tool call, a function call and a
// shell exec, whose output reports failure with exit_code 1). aider.md
// is aider's .aider.chat.history.md (#### requests, > tool output, the
// "failed to match" report naming the block it skipped). gemini.jsonl
// is four runs of Gemini CLI's --output-format stream-json, one after
// another (init, the user message, delta messages, tool_use with
// parameters, tool_result with status error on the failed replace, a
// relative file_path as newer Gemini CLI accepts). replies/ is the
// same session as a directory of replies.

// replayRepo is the repository the session worked on; with drifted set,
// c was changed by hand since, so that turn 3 fails when replayed.
func replayRepo(t *testing.T, drifted bool) *repo {
	f := "a\nb\nc\nd\n"
	if drifted {
		f = "a\nb\nx\nd\n"
	}
	return newRepo(t, map[string]string{"f.txt": f})
}

func fixture(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", "replay", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// llmBranch is the one branch replay made.
func (r *repo) llmBranch() string {
	r.t.Helper()
	var found []string
	for _, b := range strings.Split(r.branches(), "\n") {
		if strings.HasPrefix(b, "llm/") {
			found = append(found, b)
		}
	}
	if len(found) != 1 {
		r.t.Fatalf("branches %v: want one llm/ branch", found)
	}
	return found[0]
}

// commits lists subject and trailers of the commits on branch that main
// does not have, oldest first.
func (r *repo) commits(branch string) []string {
	r.t.Helper()
	var out []string
	log := r.git("log", "--reverse", "--format=%s|%(trailers:key=LLM-Session,valueonly,separator=)|%(trailers:key=LLM-Edit-Format,valueonly,separator=)%x00", "main.."+branch)
	for _, c := range strings.Split(log, "\x00") {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, c)
		}
	}
	return out
}

var formatTrailer = regexp.MustCompile(`^[a-z-]+$`)

// checkCommits compares the commits of branch with want ("subject|session#turn").
func checkCommits(t *testing.T, r *repo, branch string, want []string) {
	t.Helper()
	got := r.commits(branch)
	var short []string
	for _, c := range got {
		f := strings.Split(c, "|")
		if len(f) != 3 || !formatTrailer.MatchString(f[2]) {
			t.Errorf("commit %q: want subject, LLM-Session and LLM-Edit-Format", c)
			continue
		}
		short = append(short, f[0]+"|"+f[1])
	}
	if strings.Join(short, "\n") != strings.Join(want, "\n") {
		t.Errorf("commits on %s:\n%s\nwant\n%s", branch, strings.Join(short, "\n"), strings.Join(want, "\n"))
	}
}

// A directory of replies is a session whose turns are its files; a
// reply with no edit is a turn without edits, listed only with -v.
func TestReplayDirectory(t *testing.T) {
	t.Parallel()
	r := replayRepo(t, false)
	before := r.snapshot()
	res := r.run("replay", "-v", fixture(t, "replies"))
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	r.assertUntouched(before)
	r.fsck()
	b := r.llmBranch()
	if b != "llm/make-b-upper-case" {
		t.Errorf("branch %s, want llm/<slug of the first request>", b)
	}
	checkCommits(t, r, b, []string{"Make b upper case.|replies#1", "Make c upper case.|replies#3", "Add notes.md saying hello.|replies#4"})
	if r.show(b, "f.txt") != "a\nB\nC\nd\n" || r.show(b, "notes.md") != "hello\n" {
		t.Errorf("files at the tip: %q %q", r.show(b, "f.txt"), r.show(b, "notes.md"))
	}
	if !strings.Contains(res.stderr, "02-chat.md: no edit to replay") {
		t.Errorf("-v does not list the turn without edits:\n%s", res.stderr)
	}
	if quiet := replayRepo(t, false).run("replay", fixture(t, "replies")); strings.Contains(quiet.stderr, "no edit to replay") {
		t.Errorf("without -v the turn without edits is listed:\n%s", quiet.stderr)
	}
}

// Several SESSIONs go onto one branch, in order; -b appends to an
// existing branch as apply does.
func TestReplaySeveralSessions(t *testing.T) {
	t.Parallel()
	r := replayRepo(t, false)
	more := filepath.Join(t.TempDir(), "more")
	os.Mkdir(more, 0o755)
	os.WriteFile(filepath.Join(more, "1.md"), []byte("Add e.\n\nf.txt\n```\n<<<<<<< SEARCH\nd\n=======\nd\ne\n>>>>>>> REPLACE\n```\n"), 0o644)
	res := r.run("replay", "-b", "topic", fixture(t, "replies"), more)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	checkCommits(t, r, "topic", []string{"Make b upper case.|replies#1", "Make c upper case.|replies#3", "Add notes.md saying hello.|replies#4", "Add e.|more#1"})
	r.fsck()
}

// A turn that fails stops the replay there with exit 1: the turns
// before it stay recorded, the report names the turn; --partial goes on.
func TestReplayDirectoryStopsAtAFailingTurn(t *testing.T) {
	t.Parallel()
	r := replayRepo(t, true)
	before := r.snapshot()
	res := r.run("replay", fixture(t, "replies"))
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
	}
	r.assertUntouched(before)
	checkCommits(t, r, r.llmBranch(), []string{"Make b upper case.|replies#1"})
	if !strings.Contains(res.stderr, "stopped at "+filepath.Join(fixture(t, "replies"), "03-c.md")) {
		t.Errorf("the report does not name the turn it stopped at:\n%s", res.stderr)
	}
	r.fsck()

	r = replayRepo(t, true)
	res = r.run("replay", "--partial", fixture(t, "replies"))
	if res.code != 1 {
		t.Fatalf("--partial: exit %d, want 1\n%s", res.code, res.stderr)
	}
	checkCommits(t, r, r.llmBranch(), []string{"Make b upper case.|replies#1", "Add notes.md saying hello.|replies#4"})
	r.fsck()
}

// A SESSION that is no session log is bad input, found before anything
// is recorded, even after a good one.
func TestReplayNotASessionLog(t *testing.T) {
	t.Parallel()
	r := replayRepo(t, false)
	before := r.snapshot()
	for _, args := range [][]string{
		{fixture(t, "not-a-log.txt")},
		{fixture(t, "replies"), fixture(t, "not-a-log.txt")},
	} {
		res := r.run(append([]string{"replay"}, args...)...)
		if res.code != 2 || !strings.Contains(res.stderr, "not-a-log.txt") {
			t.Errorf("%v: exit %d, want 2 naming the file\n%s", args, res.code, res.stderr)
		}
		if b := r.branches(); b != "main" {
			t.Errorf("%v: branches %q, want nothing recorded", args, b)
		}
	}
	if res := r.run("replay"); res.code != 2 {
		t.Errorf("no SESSION: exit %d, want 2", res.code)
	}
	r.assertUntouched(before)
}

// The session logs of each agent, replayed (these need the session
// package's readers).
func TestReplaySessionLogs(t *testing.T) {
	t.Parallel()
	for _, log := range []string{"claude.jsonl", "codex.jsonl", "aider.md", "gemini.jsonl"} {
		t.Run(log, func(t *testing.T) {
			want := []string{"Make b upper case.|" + log + "#1", "Make c upper case.|" + log + "#3", "Add notes.md saying hello.|" + log + "#4"}
			r := replayRepo(t, false)
			before := r.snapshot()
			res := r.run("replay", "--json", fixture(t, log))
			if res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			r.assertUntouched(before)
			r.fsck()
			b := r.llmBranch()
			checkCommits(t, r, b, want)
			if r.show(b, "f.txt") != "a\nB\nC\nd\n" || r.show(b, "notes.md") != "hello\n" {
				t.Errorf("files at the tip: %q %q", r.show(b, "f.txt"), r.show(b, "notes.md"))
			}
			if body := r.git("log", "-1", "--format=%b", b+"~2"); !strings.Contains(body, "I'll change b.") || strings.Contains(r.git("log", "-1", "--format=%s", b+"~2"), "reads better") {
				t.Errorf("turn 1: the body does not hold the assistant's prose, or the subject more than the request's first line:\n%s", r.git("log", "-1", "--format=%B", b+"~2"))
			}
			checkReplayJSON(t, res.stdout)

			r = replayRepo(t, true)
			res = r.run("replay", fixture(t, log))
			if res.code != 1 || !strings.Contains(res.stderr, log+"#3 (log line ") {
				t.Errorf("drifted: exit %d, want 1 naming turn 3 and its log line\n%s", res.code, res.stderr)
			}
			checkCommits(t, r, r.llmBranch(), want[:1])
			r.fsck()

			r = replayRepo(t, true)
			res = r.run("replay", "--partial", fixture(t, log))
			if res.code != 1 {
				t.Errorf("drifted, --partial: exit %d, want 1\n%s", res.code, res.stderr)
			}
			checkCommits(t, r, r.llmBranch(), []string{want[0], want[2]})
		})
	}
}

// checkReplayJSON: every turn is in the report with its number and log
// line, and turn 3 lists the edit the session saw fail.
func checkReplayJSON(t *testing.T, stdout string) {
	t.Helper()
	var doc struct {
		Replies []struct {
			Turn    int    `json:"turn"`
			Line    int    `json:"session_line"`
			Status  string `json:"status"`
			Skipped []struct {
				Line int    `json:"line"`
				Why  string `json:"why"`
			} `json:"skipped"`
		} `json:"replies"`
		OK bool `json:"ok"`
	}
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("--json: %v\n%s", err, stdout)
	}
	var got []string
	for _, r := range doc.Replies {
		got = append(got, fmt.Sprintf("%d:%s:%d", r.Turn, r.Status, len(r.Skipped)))
		if r.Line <= 0 {
			t.Errorf("turn %d has no log line", r.Turn)
		}
	}
	if want := "1:recorded:0 2:no-edits:0 3:recorded:1 4:recorded:0"; strings.Join(got, " ") != want || !doc.OK {
		t.Errorf("--json turns %q (ok %v), want %q", strings.Join(got, " "), doc.OK, want)
	}
}

// A Cline task history (cline.json, tasks/<id>/api_conversation_history.json):
// tool results come back as user messages and are no requests, so the
// task is one turn and the <feedback> and <answer> messages the next
// ones. The README as Cline saved it differs from what the model wrote
// (the user edited it in the diff view): a warning naming the file, in
// the human report and in --json, and the replay succeeds; the saved
// app.ts differs only by CRLF and a trailing blank line, which is no
// difference.
func TestReplayCline(t *testing.T) {
	t.Parallel()
	for _, asJSON := range []bool{false, true} {
		r := newRepo(t, map[string]string{"src/app.ts": "export const x = 1\n"})
		before := r.snapshot()
		args := []string{"replay", fixture(t, "cline.json")}
		if asJSON {
			args = []string{"replay", "--json", fixture(t, "cline.json")}
		}
		res := r.run(args...)
		if res.code != 0 {
			t.Fatalf("exit %d\n%s", res.code, res.stderr)
		}
		r.assertUntouched(before)
		r.fsck()
		b := r.llmBranch()
		checkCommits(t, r, b, []string{"Add a greeting to src/app.ts|cline.json#1", "Say hello instead|cline.json#2"})
		if got := r.show(b, "src/app.ts"); got != "export const x = 1\nexport const greet = () => \"hello\"\n" {
			t.Errorf("src/app.ts at the tip: %q", got)
		}
		if got := r.show(b, "README.md"); got != "# App\n\nSays hi.\n" {
			t.Errorf("README.md at the tip: %q, want the model's content", got)
		}
		if !asJSON {
			if !strings.Contains(res.stderr, "README.md as recorded differs from the file the session saved") || strings.Contains(res.stderr, "src/app.ts as recorded differs") {
				t.Errorf("the human report does not warn about README.md alone:\n%s", res.stderr)
			}
			continue
		}
		var doc struct {
			Replies []struct {
				Turn     int      `json:"turn"`
				Status   string   `json:"status"`
				Warnings []string `json:"warnings"`
				Skipped  []struct {
					Path string `json:"path"`
				} `json:"skipped"`
			} `json:"replies"`
		}
		if err := json.Unmarshal([]byte(res.stdout), &doc); err != nil {
			t.Fatalf("--json: %v\n%s", err, res.stdout)
		}
		var got []string
		for _, rep := range doc.Replies {
			got = append(got, fmt.Sprintf("%d:%s:%d skipped:%d warnings", rep.Turn, rep.Status, len(rep.Skipped), len(rep.Warnings)))
		}
		if want := "1:recorded:2 skipped:1 warnings 2:recorded:1 skipped:0 warnings 3:no-edits:0 skipped:0 warnings"; strings.Join(got, " ") != want {
			t.Errorf("--json turns %q, want %q", strings.Join(got, " "), want)
		}
		if len(doc.Replies) > 0 && len(doc.Replies[0].Warnings) == 1 && !strings.Contains(doc.Replies[0].Warnings[0], "README.md") {
			t.Errorf("the warning does not name README.md: %s", doc.Replies[0].Warnings[0])
		}
	}
}
