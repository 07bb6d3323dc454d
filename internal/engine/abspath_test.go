package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

func TestAbsolutePaths(t *testing.T) {
	base := memSource{
		"src/a.py":      {patch.ModeRegular, "x = 1\n"},
		"lib/src/b.py":  {patch.ModeRegular, "y = 2\n"},
		"b.py":          {patch.ModeRegular, "z = 3\n"},
		"link":          {patch.ModeSymlink, "src"},
		"README.md":     {patch.ModeRegular, "title = x\n"},
		"sub/deep/c.py": {patch.ModeRegular, "c = 4\n"},
	}
	edit := func(p, root string) translate.Operation {
		return translate.Operation{Kind: translate.Replace, Path: p, Root: root, OldText: "= ", NewText: "== ", Line: 7}
	}
	create := func(p, root string) translate.Operation {
		return translate.Operation{Kind: translate.Create, Path: p, Root: root, New: []string{"n = 0"}, Line: 9}
	}
	cases := []struct {
		name  string
		ops   []translate.Operation
		paths []string // resolved path of each edit ("" when it failed)
		note  string   // part of a warning of the last edit ("" none)
		err   error    // kind of the last edit's failure
		msg   string
	}{
		{name: "a: under the root", ops: []translate.Operation{edit("/home/dev/proj/src/a.py", "/home/dev/proj")},
			paths: []string{"src/a.py"}},
		{name: "a: root with a trailing slash", ops: []translate.Operation{edit("/home/dev/proj/src/a.py", "/home/dev/proj/")},
			paths: []string{"src/a.py"}},
		{name: "a: a new file under the root", ops: []translate.Operation{create("/home/dev/proj/new/n.py", "/home/dev/proj")},
			paths: []string{"new/n.py"}},
		{name: "a: windows", ops: []translate.Operation{edit(`C:\Users\dev\proj\src\a.py`, `c:\Users\dev\proj`)},
			paths: []string{"src/a.py"}},
		{name: "a: a session run below the top", ops: []translate.Operation{edit("/home/dev/proj/sub/deep/c.py", "/home/dev/proj/sub")},
			paths: []string{"sub/deep/c.py"}, note: "took sub/deep/c.py for /home/dev/proj/sub/deep/c.py: below the session's root"},
		{name: "a: climbing out of the root", ops: []translate.Operation{edit("/home/dev/proj/../other/src/a.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "leaves the repository"},
		{name: "a: the root itself", ops: []translate.Operation{edit("/home/dev/proj", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath},
		{name: "a: into .git", ops: []translate.Operation{create("/home/dev/proj/.git/hooks/pre-commit", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "inside .git"},
		{name: "a: NTFS name of .git", ops: []translate.Operation{create("/home/dev/proj/GIT~1/config", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: ".git"},
		{name: "a: through a symlink", ops: []translate.Operation{create("/home/dev/proj/link/x.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "symbolic link"},
		{name: "b: the tracked path it ends in", ops: []translate.Operation{edit("/home/dev/proj/src/a.py", "")},
			paths: []string{"src/a.py"}, note: "took src/a.py for /home/dev/proj/src/a.py, the tracked file its path ends in"},
		{name: "b: the longest", ops: []translate.Operation{edit("/work/x/lib/src/b.py", "")},
			paths: []string{"lib/src/b.py"}, note: "took lib/src/b.py"},
		{name: "b: at a component boundary", ops: []translate.Operation{edit("/work/x/notb.py", "")},
			paths: []string{""}, err: ErrUnsafePath, msg: "ends in no file of the repository"},
		{name: "b: outside the root, in the repository above it", ops: []translate.Operation{edit("/home/dev/proj/src/a.py", "/home/dev/proj/sub/deep")},
			paths: []string{"src/a.py"}, note: "tracked file its path ends in"},
		{name: "b: outside the root and the repository", ops: []translate.Operation{edit("/elsewhere/src/a.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "ends in the tracked path src/a.py, but the repository is not in /elsewhere"},
		{name: "b: a scratch file of the agent", ops: []translate.Operation{create("/tmp/b.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "outside the session's root /home/dev/proj"},
		{name: "b: outside the root and no file", ops: []translate.Operation{create("/elsewhere/n.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "outside the session's root /home/dev/proj"},
		{name: "c: a new file below the revealed top", ops: []translate.Operation{
			edit("/home/dev/proj/src/a.py", ""), create("/home/dev/proj/pkg/n.py", "")},
			paths: []string{"src/a.py", "pkg/n.py"}, note: "below /home/dev/proj, where the reply's other paths place the repository"},
		{name: "c: revealed by a later edit", ops: []translate.Operation{
			create("/home/dev/proj/pkg/n.py", ""), edit("/home/dev/proj/README.md", "")},
			paths: []string{"pkg/n.py", "README.md"}, note: "took README.md"},
		{name: "c: then edited by the same path", ops: []translate.Operation{
			edit("/p/src/a.py", ""), create("/p/n.py", ""), edit("/p/n.py", "")},
			paths: []string{"src/a.py", "n.py", "n.py"}, note: "took n.py for /p/n.py"},
		{name: "b: a scratch file beside paths that place the repository", ops: []translate.Operation{
			edit("/home/dev/proj/src/a.py", ""), create("/tmp/b.py", "")},
			paths: []string{"src/a.py", ""}, err: ErrUnsafePath, msg: "place the repository in /home/dev/proj, not /tmp"},
		{name: "b: two paths that agree", ops: []translate.Operation{
			edit("/home/dev/proj/src/a.py", ""), edit("/home/dev/proj/b.py", "")},
			paths: []string{"src/a.py", "b.py"}, note: "took b.py for /home/dev/proj/b.py"},
		{name: "d: nothing reveals the top", ops: []translate.Operation{create("/home/dev/proj/n.py", "")},
			paths: []string{""}, err: ErrUnsafePath, msg: "give the path relative to the repository, or the session's root (its cwd)"},
		{name: "d: two tops", ops: []translate.Operation{
			edit("/a/src/a.py", ""), edit("/b/README.md", ""), create("/a/n.py", "")},
			paths: []string{"src/a.py", "README.md", ""}, err: ErrUnsafePath, msg: "in 2 directories (/a, /b)"},
		{name: "d: not below the one top", ops: []translate.Operation{
			edit("/a/src/a.py", ""), create("/b/n.py", "")},
			paths: []string{"src/a.py", ""}, err: ErrUnsafePath, msg: "is not below /a"},
		{name: "relative paths unchanged", ops: []translate.Operation{edit("src/a.py", "/home/dev/proj")},
			paths: []string{"src/a.py"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res, err := Resolve(base, c.ops, Options{Format: translate.FormatToolCalls})
			if err != nil {
				t.Fatal(err)
			}
			for i, o := range res.Outcomes {
				if o.Path != c.paths[i] {
					t.Errorf("edit %d: path %q, want %q (%s %v)", i+1, o.Path, c.paths[i], o.Status, o.Err)
				}
				if c.paths[i] != "" && o.Status == Failed {
					t.Errorf("edit %d failed: %v", i+1, o.Err)
				}
			}
			last := res.Outcomes[len(res.Outcomes)-1]
			if c.note != "" && !strings.Contains(strings.Join(last.Warnings, "\n"), c.note) {
				t.Errorf("warnings %q lack %q", last.Warnings, c.note)
			}
			if c.note == "" && len(last.Warnings) > 0 && c.err == nil {
				t.Errorf("unexpected warnings %q", last.Warnings)
			}
			if c.err != nil {
				if last.Status != Failed || !errors.Is(last.Err, c.err) || !strings.Contains(last.Err.Msg, c.msg) {
					t.Errorf("last edit: %s %v, want %v with %q", last.Status, last.Err, c.err, c.msg)
				} else if last.Err.Line != last.Op.Line {
					t.Errorf("the failure names reply line %d, want %d", last.Err.Line, last.Op.Line)
				}
			}
		})
	}
}

// TestAbsolutePathsOnlyForAgents: other formats keep SPEC section 5's
// rule that a path is relative; an agent's operation read by another
// format's reader (Codex's apply_patch call) maps by its Root.
func TestAbsolutePathsOnlyForAgents(t *testing.T) {
	base := files("src/a.py", "x = 1\n")
	op := translate.Operation{Kind: translate.Edit, Format: "udiff", Path: "/home/dev/proj/src/a.py", Old: []string{"x = 1"}, New: []string{"x = 2"}}
	res, err := Resolve(base, []translate.Operation{op}, Options{Format: "udiff"})
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Outcomes[0]; o.Status != Failed || !strings.Contains(o.Err.Msg, "paths must be relative") {
		t.Errorf("udiff with an absolute path: %s %v, want refused", o.Status, o.Err)
	}
	op.Format, op.Root = "apply-patch", "/home/dev/proj"
	res, err = Resolve(base, []translate.Operation{op}, Options{Format: "apply-patch"})
	if err != nil {
		t.Fatal(err)
	}
	if o := res.Outcomes[0]; o.Status != Applied || o.Path != "src/a.py" {
		t.Errorf("apply-patch call under its root: %s %q %v", o.Status, o.Path, o.Err)
	}
}
