package main

import (
	"strings"
	"testing"
)

// TestApplyAgentToolCalls records a Cline reply and a Roo Code reply
// as two commits on one branch, each read by detection, and checks
// that a Roo Code block that matches nothing fails naming its reply
// line and the closest place, recording nothing.
func TestApplyAgentToolCalls(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy, "README": "readme\n"})
	before := r.snapshot()
	cline := r.reply("1-cline.md", "Greet politely.\n\n"+
		"<replace_in_file>\n<path>src/app.py</path>\n<diff>\n"+
		"------- SEARCH\n    return \"hello \" + name\n=======\n    return \"good day, \" + name\n+++++++ REPLACE\n"+
		"</diff>\n</replace_in_file>\n\n"+
		"<write_to_file>\n<path>docs/greeting.md</path>\n<content>\n# Greeting\n\nPolite.\n</content>\n</write_to_file>\n")
	roo := r.reply("2-roo.md", "Use sys too.\n\n"+
		"<apply_diff>\n<path>src/app.py</path>\n<diff>\n"+
		"<<<<<<< SEARCH\n:start_line:1\n-------\nimport os\n=======\nimport os\nimport sys\n>>>>>>> REPLACE\n"+
		"</diff>\n</apply_diff>\n")
	res := r.run("apply", "-b", "agents", cline, roo)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	log := r.git("log", "--format=%s%n%b--", "main..agents")
	for _, want := range []string{"Use sys too.", "LLM-Edit-Format: roo", "Greet politely.", "LLM-Edit-Format: cline"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q:\n%s", want, log)
		}
	}
	if n := strings.Count(r.git("rev-list", "main..agents"), "\n"); n != 2 {
		t.Errorf("%d commits, want 2", n)
	}
	app := r.show("agents", "src/app.py")
	if !strings.Contains(app, "good day") || !strings.Contains(app, "import os\nimport sys\n") {
		t.Errorf("app.py:\n%s", app)
	}
	if s := r.show("agents~1", "docs/greeting.md"); s != "# Greeting\n\nPolite.\n" {
		t.Errorf("greeting.md: %q", s)
	}
	r.fsck()
	r.assertUntouched(before)

	bad := r.reply("3-roo.md", "<apply_diff>\n<path>src/app.py</path>\n<diff>\n"+
		"<<<<<<< SEARCH\n:start_line:4\n-------\ndef greet(nam):\n    return \"hello \" + nam\n=======\ndef greet(name):\n    return name\n>>>>>>> REPLACE\n"+
		"</diff>\n</apply_diff>\n")
	res = r.run("apply", "-b", "bad", bad)
	if res.code != 1 {
		t.Fatalf("exit %d, want 1\n%s", res.code, res.stderr)
	}
	for _, want := range []string{"reply line 4", "closest lines are", "def greet(name):", "nothing recorded"} {
		if !strings.Contains(res.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.stderr)
		}
	}
	if b := r.branches(); strings.Contains(b, "bad") {
		t.Errorf("a branch was made: %q", b)
	}
}
