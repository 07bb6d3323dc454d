package engine

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// toolCallRepo is a scratch repository whose index holds files, for
// the edits of an agent session run in it (its cwd is the root).
func toolCallRepo(t *testing.T, files memSource) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	writeTree(t, dir, files)
	gitIn(t, dir, nil, "init", "-q")
	gitIn(t, dir, nil, "-c", "core.autocrlf=false", "add", "-A")
	return dir
}

func gitIn(t *testing.T, dir string, stdin []byte, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String()
}

// toolCallSession is a session's Replace and Insert edits, named by
// absolute paths under its cwd (a real repository holding base), and
// what they leave; check asks git whether the diff applies.
func toolCallSession(t *testing.T) (base memSource, ops []translate.Operation, check func(*testing.T, []patch.FileChange, []byte), dir string, want map[string]string) {
	base = memSource{
		"src/app.py": {patch.ModeRegular, "import os\n\ndef main():\n    print(os.getcwd())\n"},
		"win.txt":    {patch.ModeRegular, "alpha\r\nbeta\r\ngamma\r\n"},
		"tail.txt":   {patch.ModeRegular, "first\nlast"},
	}
	dir = toolCallRepo(t, base)
	at := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	ops = []translate.Operation{
		{Kind: translate.Replace, Path: at("src/app.py"), TextEdit: translate.TextEdit{OldText: "import os\n", NewText: "import os\nimport sys\n"}},
		{Kind: translate.Replace, Path: at("src/app.py"), TextEdit: translate.TextEdit{OldText: "print(os.getcwd())", NewText: "print(os.getcwd(), file=sys.stderr)"}},
		{Kind: translate.Insert, Path: at("src/app.py"), TextEdit: translate.TextEdit{InsertAfter: 5}, LineEdit: translate.LineEdit{New: []string{"", "", "main()"}}},
		{Kind: translate.Replace, Path: at("win.txt"), TextEdit: translate.TextEdit{OldText: "beta\ngamma", NewText: "BETA\ngamma\ndelta"}},
		{Kind: translate.Replace, Path: at("tail.txt"), TextEdit: translate.TextEdit{OldText: "last", NewText: "the last"}},
		{Kind: translate.Replace, Path: at("docs/new.md"), TextEdit: translate.TextEdit{OldText: "", NewText: "# New\n"}},
	}
	for i := range ops {
		ops[i].Root, ops[i].Format, ops[i].Line = dir, translate.FormatToolCalls, i+1
	}
	want = map[string]string{
		"src/app.py":  "import os\nimport sys\n\ndef main():\n    print(os.getcwd(), file=sys.stderr)\n\n\nmain()\n",
		"win.txt":     "alpha\r\nBETA\r\ngamma\r\ndelta\r\n",
		"tail.txt":    "first\nthe last",
		"docs/new.md": "# New\n",
	}
	check = func(t *testing.T, changes []patch.FileChange, diff []byte) {
		for _, c := range changes {
			if string(c.New) != want[c.Path()] {
				t.Errorf("%s is %q, want %q", c.Path(), c.New, want[c.Path()])
			}
		}
		if len(changes) != len(want) {
			t.Errorf("%d files changed, want %d", len(changes), len(want))
		}
		gitIn(t, dir, diff, "apply", "--check", "--cached", "-")
		gitIn(t, dir, diff, "apply", "--check", "-")
	}
	return base, ops, check, dir, want
}

// TestToolCallEditsApplyWithGit: git apply --check accepts the
// canonical diff of a session's edits, and applying it to the index
// gives exactly the contents the engine made.
func TestToolCallEditsApplyWithGit(t *testing.T) {
	base, ops, check, dir, want := toolCallSession(t)
	res, err := Resolve(base, ops, Options{Format: translate.FormatToolCalls})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range res.Outcomes {
		if o.Status != Applied {
			t.Fatalf("edit %d (%s): %s %v", o.N, o.Op.Path, o.Status, o.Err)
		}
	}
	diff, err := patch.Format(res.Changes, patch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := patch.Verify(diff, res.Changes); err != nil {
		t.Fatalf("%v\n%s", err, diff)
	}
	check(t, res.Changes, diff)
	gitIn(t, dir, diff, "apply", "--cached", "-")
	for p, content := range want {
		if got := gitIn(t, dir, nil, "cat-file", "blob", ":"+p); got != content {
			t.Errorf("the index's %s is %q after git apply, want %q", p, got, content)
		}
	}
}

// TestToolCallEditsThroughRun: the same edits through Run, as replay
// hands a session's turn to it.
func TestToolCallEditsThroughRun(t *testing.T) {
	base, ops, check, _, _ := toolCallSession(t)
	results, err := Run(context.Background(), []Input{{Source: "turn", Reply: &translate.Reply{Format: translate.FormatToolCalls, Ops: ops}}}, base, nil, RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if r.Err != nil && strings.Contains(r.Err.Error(), "no edit") {
		t.Skip("Run does not take an Input's Reply yet")
	}
	if r.Status != Checked {
		t.Fatalf("Run: %s %v %+v", r.Status, r.Err, r.Outcomes)
	}
	check(t, r.Changes, r.Patch)
}
