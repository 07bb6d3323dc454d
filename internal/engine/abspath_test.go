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
		"docs/Read.md":  {patch.ModeRegular, "r = 5\n"},
		"docs/read.md":  {patch.ModeRegular, "r = 6\n"},
		"mod":           {patch.ModeGitlink, ""},
	}
	edit := func(p, root string) translate.Operation {
		return translate.Operation{Kind: translate.Replace, Path: p, Root: root, TextEdit: translate.TextEdit{OldText: "= ", NewText: "== "}, Line: 7}
	}
	create := func(p, root string) translate.Operation {
		return translate.Operation{Kind: translate.Create, Path: p, Root: root, LineEdit: translate.LineEdit{New: []string{"n = 0"}}, Line: 9}
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
			paths: []string{"sub/deep/c.py"}, note: "took sub/deep/c.py for /home/dev/proj/sub/deep/c.py, below /home/dev/proj, which the reply's paths show is the repository's top (the session's root /home/dev/proj/sub is below it)"},
		{name: "a: a new file below the top a session below it shows", ops: []translate.Operation{
			edit("/home/dev/proj/sub/deep/c.py", "/home/dev/proj/sub"), create("/home/dev/proj/sub/b.py", "/home/dev/proj/sub")},
			paths: []string{"sub/deep/c.py", "sub/b.py"}, note: "below /home/dev/proj"},
		{name: "a: a new file in a directory below the root, beside a top-level file of its name", ops: []translate.Operation{
			edit("/home/dev/proj/b.py", "/home/dev/proj"), create("/home/dev/proj/sub/b.py", "/home/dev/proj")},
			paths: []string{"b.py", "sub/b.py"}},
		{name: "a: an existing file below the root, not the top-level one", ops: []translate.Operation{edit("/home/dev/proj/lib/src/b.py", "/home/dev/proj")},
			paths: []string{"lib/src/b.py"}},
		{name: "a: another project beside the root", ops: []translate.Operation{edit("/home/dev/other/b.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: `"/home/dev/other/b.py" is outside the session's top /home/dev/proj; a path outside it is never mapped by its last components`},
		{name: "a: climbing out of the root", ops: []translate.Operation{edit("/home/dev/proj/../other/src/a.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "outside the session's top /home/dev/proj"},
		{name: "a: climbing back under the root", ops: []translate.Operation{edit("/home/dev/proj/lib/../src/a.py", "/home/dev/proj")},
			paths: []string{"src/a.py"}},
		{name: "a: windows, both separators", ops: []translate.Operation{edit(`C:\Users\dev\proj/src\a.py`, `C:\Users\dev\proj`)},
			paths: []string{"src/a.py"}},
		{name: "a: windows, slashes and a lower-case drive", ops: []translate.Operation{edit(`c:/Users/dev/proj/src/a.py`, `C:\Users\dev\proj\`)},
			paths: []string{"src/a.py"}},
		{name: "a: windows, directory names in another case", ops: []translate.Operation{edit(`C:\USERS\Dev\PROJ\src\a.py`, `c:\Users\dev\proj`)},
			paths: []string{"src/a.py"}},
		{name: "a: windows, a file name in another case", ops: []translate.Operation{edit(`C:\proj\SRC\A.PY`, `C:\proj`)},
			paths: []string{"src/a.py"}, note: "took src/a.py for C:\\proj\\SRC\\A.PY: Windows reads names without case"},
		{name: "a: windows, two files differing only in case", ops: []translate.Operation{edit(`C:\proj\docs\READ.md`, `C:\proj`)},
			paths: []string{""}, err: ErrAmbiguous, msg: "docs/Read.md, docs/read.md"},
		{name: "a: windows, the exact one of two", ops: []translate.Operation{edit(`C:\proj\docs\Read.md`, `C:\proj`)},
			paths: []string{"docs/Read.md"}},
		{name: "a: windows, a new file", ops: []translate.Operation{create(`D:\work\proj\New\n.rb`, `d:\work\proj`)},
			paths: []string{"New/n.rb"}},
		{name: "a: windows, .. resolved before the top is compared", ops: []translate.Operation{edit(`C:\proj\..\other\src\a.py`, `C:\proj`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "outside the session's top c:/proj"},
		{name: "a: windows, .. that stays under the top", ops: []translate.Operation{edit(`C:\proj\lib\..\src\a.py`, `C:\proj`)},
			paths: []string{"src/a.py"}},
		{name: "a: windows, a trailing separator names a directory", ops: []translate.Operation{edit(`C:\proj\src\`, `C:\proj`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "names a directory"},
		{name: "a: windows, another drive", ops: []translate.Operation{edit(`D:\proj\src\a.py`, `C:\proj`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "outside the session's top c:/proj"},
		{name: "a: a POSIX path under a Windows root", ops: []translate.Operation{edit(`/proj/src/a.py`, `C:\proj`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "outside the session's top"},
		{name: "a: windows, into .git in another case", ops: []translate.Operation{create(`C:\proj\.GIT\config`, `C:\proj`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "inside .git"},
		{name: "a: a submodule is no file", ops: []translate.Operation{create(`/p/mod/x`, `/p`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "submodule"},
		{name: "UNC path", ops: []translate.Operation{edit(`\\server\share\proj\src\a.py`, `C:\proj`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "UNC path"},
		{name: "UNC path with slashes after", ops: []translate.Operation{edit(`\\server/share/src/a.py`, "")},
			paths: []string{""}, err: ErrUnsafePath, msg: "UNC path"},
		{name: "device path", ops: []translate.Operation{edit(`\\?\C:\proj\src\a.py`, `C:\proj`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "device path"},
		{name: "device path of a pipe", ops: []translate.Operation{create(`\\.\pipe\x`, "")},
			paths: []string{""}, err: ErrUnsafePath, msg: "device path"},
		{name: "NT object path", ops: []translate.Operation{edit(`\??\C:\proj\src\a.py`, "")},
			paths: []string{""}, err: ErrUnsafePath, msg: "device path"},
		{name: "drive-relative path", ops: []translate.Operation{edit(`C:src\a.py`, `C:\proj`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "relative to the current directory of drive C:"},
		{name: "rooted on the current drive", ops: []translate.Operation{edit(`\proj\src\a.py`, `C:\proj`)},
			paths: []string{""}, err: ErrUnsafePath, msg: "current drive"},
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
			paths: []string{"src/a.py"}, note: "below /home/dev/proj, which the reply's paths show is the repository's top"},
		{name: "b: outside the root and the repository", ops: []translate.Operation{edit("/elsewhere/src/a.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "outside the session's top /home/dev/proj; a path outside it is never mapped"},
		{name: "b: a scratch file of the agent", ops: []translate.Operation{create("/tmp/b.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "outside the session's top /home/dev/proj"},
		{name: "b: outside the root and no file", ops: []translate.Operation{create("/elsewhere/n.py", "/home/dev/proj")},
			paths: []string{""}, err: ErrUnsafePath, msg: "outside the session's top /home/dev/proj"},
		{name: "b: windows, the tracked path it ends in", ops: []translate.Operation{edit(`D:\work\proj\lib\src\b.py`, "")},
			paths: []string{"lib/src/b.py"}, note: `took lib/src/b.py for D:\work\proj\lib\src\b.py, the tracked file its path ends in`},
		{name: "b: windows, in another case", ops: []translate.Operation{edit(`D:\work\proj\Lib\Src\B.py`, "")},
			paths: []string{"lib/src/b.py"}, note: "took lib/src/b.py"},
		{name: "b: windows, ambiguous in case", ops: []translate.Operation{edit(`D:\work\docs\READ.MD`, "")},
			paths: []string{""}, err: ErrAmbiguous, msg: "docs/Read.md, docs/read.md"},
		{name: "c: windows, a new file below the revealed top, in another case", ops: []translate.Operation{
			edit(`C:\Work\src\a.py`, ""), create(`c:\work\pkg\n.py`, "")},
			paths: []string{"src/a.py", "pkg/n.py"}, note: "below c:/Work"},
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

// TestAbsolutePathsInEveryFormat: one rule for absolute paths in every
// format (SPEC section 5). A text format's edit of a file's lines takes
// the one tracked path the name ends in, and says so; a create with an
// absolute path and nothing that places the repository is refused; an
// operation with a Root (a session's) is placed below its top.
func TestAbsolutePathsInEveryFormat(t *testing.T) {
	base := files("src/scene_craft.rb", "x = 1\n")
	cases := []struct {
		name, format string
		op           translate.Operation
		path, note   string // path "" when the edit fails
		msg          string
	}{
		{name: "udiff, POSIX", format: "udiff",
			op:   translate.Operation{Kind: translate.Edit, Path: "/home/dev/proj/src/scene_craft.rb", LineEdit: translate.LineEdit{Old: []string{"x = 1"}, New: []string{"x = 2"}}},
			path: "src/scene_craft.rb", note: "took src/scene_craft.rb for /home/dev/proj/src/scene_craft.rb"},
		{name: "diff, Windows", format: "diff",
			op:   translate.Operation{Kind: translate.Edit, Path: `D:\work\proj\src\scene_craft.rb`, LineEdit: translate.LineEdit{Old: []string{"x = 1"}, New: []string{"x = 2"}}},
			path: "src/scene_craft.rb", note: `took src/scene_craft.rb for D:\work\proj\src\scene_craft.rb`},
		{name: "diff, Windows with slashes", format: "diff",
			op:   translate.Operation{Kind: translate.Edit, Path: `d:/work/proj/src/scene_craft.rb`, LineEdit: translate.LineEdit{Old: []string{"x = 1"}, New: []string{"x = 2"}}},
			path: "src/scene_craft.rb", note: "took src/scene_craft.rb"},
		{name: "diff, a create with no top", format: "diff",
			op:  translate.Operation{Kind: translate.Create, Path: `D:\work\proj\new.rb`, LineEdit: translate.LineEdit{New: []string{"n = 0"}}},
			msg: "nothing in the reply shows which directory is the repository"},
		{name: "whole, a write of no tracked file", format: "whole",
			op:  translate.Operation{Kind: translate.Create, Path: "/tmp/scene_craft.rb", LineEdit: translate.LineEdit{New: []string{"n = 0"}}, FileCreate: translate.FileCreate{Overwrite: true}},
			msg: "ends in no file"},
		{name: "udiff, UNC", format: "udiff",
			op:  translate.Operation{Kind: translate.Edit, Path: `\\host\share\src\scene_craft.rb`, LineEdit: translate.LineEdit{Old: []string{"x = 1"}, New: []string{"x = 2"}}},
			msg: "UNC path"},
		{name: "apply-patch under its root", format: "apply-patch",
			op:   translate.Operation{Kind: translate.Edit, Path: "/home/dev/proj/src/scene_craft.rb", Root: "/home/dev/proj", LineEdit: translate.LineEdit{Old: []string{"x = 1"}, New: []string{"x = 2"}}},
			path: "src/scene_craft.rb"},
		{name: "apply-patch outside its root", format: "apply-patch",
			op:  translate.Operation{Kind: translate.Edit, Path: "/home/dev/other/src/scene_craft.rb", Root: "/home/dev/proj", LineEdit: translate.LineEdit{Old: []string{"x = 1"}, New: []string{"x = 2"}}},
			msg: "outside the session's top /home/dev/proj"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.op.Format = c.format
			res, err := Resolve(base, []translate.Operation{c.op}, Options{Format: c.format})
			if err != nil {
				t.Fatal(err)
			}
			o := res.Outcomes[0]
			if c.path == "" {
				if o.Status != Failed || !strings.Contains(o.Err.Msg, c.msg) {
					t.Errorf("%s %v, want refused with %q", o.Status, o.Err, c.msg)
				}
				return
			}
			if o.Status != Applied || o.Path != c.path {
				t.Errorf("%s %q %v, want applied to %s", o.Status, o.Path, o.Err, c.path)
			}
			if w := strings.Join(o.Warnings, "\n"); c.note != "" && !strings.Contains(w, c.note) || c.note == "" && w != "" {
				t.Errorf("warnings %q, want %q", w, c.note)
			}
		})
	}
}
