package main

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"
)

// files lists "path=content" of every file of rev, sorted, the final
// newline of each content dropped.
func (r *repo) files(rev string) string {
	r.t.Helper()
	var out []string
	for _, p := range strings.Split(r.git("ls-tree", "-r", "--name-only", "-z", rev), "\x00") {
		if p != "" {
			out = append(out, p+"="+strings.TrimSuffix(r.show(rev, p), "\n"))
		}
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}

// A reply that creates, deletes, overwrites or moves a file by a name
// that is no path of the repository means that path, in every format:
// it never lands on sub/s.txt, the one file whose path ends in it.
func TestFileOperationsUseThePathAsWritten(t *testing.T) {
	t.Parallel()
	const main = "sub/s.txt=old t.txt=t"
	const created = "s.txt=new sub/s.txt=old t.txt=t"
	cases := []struct {
		name  string
		reply string
		flags []string
		code  int
		tree  string // the branch's files; "" when nothing is recorded
		say   string
	}{
		{"apply-patch Add File", applyPatchReply("*** Add File: s.txt\n+new\n"), nil, 0, created, "A s.txt"},
		{"apply-patch Delete File", applyPatchReply("*** Delete File: s.txt\n"), nil, 0, "", "already applied"},
		{"apply-patch Move from", applyPatchReply("*** Update File: s.txt\n*** Move to: u.txt\n"), nil, 1, "", "s.txt does not exist"},
		{"apply-patch Move to", applyPatchReply("*** Update File: t.txt\n*** Move to: s.txt\n@@\n-t\n+new\n"), nil, 0, created[:len(created)-len(" t.txt=t")], "R t.txt -> s.txt"},
		{"udiffx FILE_NEW", udiffxReply("<FILE_NEW file_path=\"s.txt\">\nnew\n</FILE_NEW>\n"), nil, 0, created, "A s.txt"},
		{"udiffx FILE_DELETE", udiffxReply("<FILE_DELETE file_path=\"s.txt\" />\n"), nil, 0, "", "already applied"},
		{"udiffx FILE_RENAME from", udiffxReply("<FILE_RENAME from_path=\"s.txt\" to_path=\"u.txt\" />\n"), nil, 1, "", "s.txt does not exist"},
		{"udiffx FILE_RENAME to", udiffxReply("<FILE_RENAME from_path=\"t.txt\" to_path=\"s.txt\" />\n"), nil, 0, "s.txt=t sub/s.txt=old", "R t.txt -> s.txt"},
		{"udiff new file", "Change.\n\n```diff\n--- /dev/null\n+++ b/s.txt\n@@ -0,0 +1 @@\n+new\n```\n", nil, 0, created, "A s.txt"},
		{"whole", "Change.\n\ns.txt\n```\nnew\n```\n", nil, 0, created, "A s.txt"},
		{"diff, empty SEARCH", "Change.\n\n" + block("s.txt", "", "new\n"), nil, 0, created, "A s.txt"},
		{"chunk create_file", "description: Change.\noperations:\n  - path: s.txt\n    op: create_file\n    payload: |-\n      new\n", nil, 0, created, "A s.txt"},
		{"chunk delete_file", "description: Change.\noperations:\n  - path: s.txt\n    op: delete_file\n", nil, 0, "", "already applied"},
		{"fiup CREATE", "Change.\n\n<<<FIUP>>>\n[FILE]: s.txt\n[OP]: CREATE\n[CONTENT]\nnew\n<<<END>>>\n", nil, 0, created, "A s.txt"},
		{"git rm", shellReply("git rm s.txt"), []string{"--shell-ops"}, 0, "", "already applied"},
		{"rm", shellReply("rm s.txt"), []string{"--shell-ops"}, 0, "", "already applied"},
		{"git rm -r", shellReply("git rm -r s.txt"), []string{"--shell-ops"}, 0, "", "already applied"},
		{"git mv from", shellReply("git mv s.txt u.txt"), []string{"--shell-ops"}, 1, "", "s.txt does not exist"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"sub/s.txt": "old\n", "t.txt": "t\n"})
			before := r.snapshot()
			args := append(append([]string{"apply", "-v", "-b", "lit"}, c.flags...), r.reply("r.md", c.reply))
			res := r.run(args...)
			if res.code != c.code {
				t.Fatalf("exit %d, want %d\n%s", res.code, c.code, res.stderr)
			}
			if !strings.Contains(strings.ReplaceAll(res.stderr, "-applied", " applied"), c.say) {
				t.Errorf("the report does not say %q:\n%s", c.say, res.stderr)
			}
			switch {
			case c.tree != "":
				if got := r.files("lit"); got != c.tree {
					t.Errorf("branch holds %q, want %q", got, c.tree)
				}
			case r.branches() != "main":
				if got := r.files("lit"); got != main {
					t.Errorf("branch holds %q, want %q", got, main)
				}
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// The empty SEARCH block of a real reply that meant a new README.md at
// the root: frontend/README.md, the one file ending in the name, keeps
// its lines.
func TestEmptySearchCreatesAtTheRoot(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"frontend/README.md": "# Frontend\n"})
	before := r.snapshot()
	res := r.run("apply", "-b", "docs", r.reply("r.md", "Add a README.\n\n"+block("README.md", "", "# Project\n\nRun it.\n")))
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if got, want := r.files("docs"), "README.md=# Project\n\nRun it. frontend/README.md=# Frontend"; got != want {
		t.Errorf("branch holds %q, want %q", got, want)
	}
	r.assertUntouched(before)
	r.fsck()
}

// An edit of a file's lines may still name it by the end of its path;
// the report says which file it took, for a person and in --json.
func TestEditBySuffixIsReported(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, reply string }{
		{"diff", "Change.\n\n" + block("s.txt", "old\n", "new\n")},
		{"apply-patch", applyPatchReply("*** Update File: s.txt\n@@\n-old\n+new\n")},
		{"udiff", "Change.\n\n```diff\n--- a/s.txt\n+++ b/s.txt\n@@ -1 +1 @@\n-old\n+new\n```\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"sub/s.txt": "old\n"})
			before := r.snapshot()
			reply := r.reply("r.md", c.reply)
			res := r.run("apply", "-b", "suf", reply)
			if res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			if !strings.Contains(res.stderr, "took sub/s.txt for s.txt") {
				t.Errorf("the report does not name the file taken:\n%s", res.stderr)
			}
			if got := r.files("suf"); got != "sub/s.txt=new" {
				t.Errorf("branch holds %q", got)
			}
			res = r.run("check", "--json", reply)
			var rep struct {
				Replies []struct {
					Edits []struct {
						Path     string
						Warnings []string
					}
				}
			}
			if err := json.Unmarshal([]byte(res.stdout), &rep); err != nil || res.code != 0 {
				t.Fatalf("exit %d: %v\n%s", res.code, err, res.stdout)
			}
			if e := rep.Replies[0].Edits[0]; e.Path != "sub/s.txt" || !strings.Contains(strings.Join(e.Warnings, "\n"), "took sub/s.txt for s.txt") {
				t.Errorf("edit in --json: %+v", e)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// "\" is a directory separator, a file really named with one wins,
// and a Markdown escape counts only where it names a file the
// separator reading does not.
func TestBackslashPaths(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		files map[string]string
		reply string
		tree  string
	}{
		{"new file, diff", map[string]string{"x": "x\n"}, "Add.\n\n" + block(`Models\Offer.cs`, "", "class Offer {}\n"),
			"Models/Offer.cs=class Offer {} x=x"},
		{"new file, whole", map[string]string{"x": "x\n"}, "Add.\n\n`Models\\Offer.cs`\n```csharp\nclass Offer {}\n```\n",
			"Models/Offer.cs=class Offer {} x=x"},
		{"new file, apply-patch", map[string]string{"x": "x\n"}, applyPatchReply("*** Add File: Models\\Offer.cs\n+class Offer {}\n"),
			"Models/Offer.cs=class Offer {} x=x"},
		{"new file, udiffx", map[string]string{"x": "x\n"}, udiffxReply("<FILE_NEW file_path=\"Models\\Offer.cs\">\nclass Offer {}\n</FILE_NEW>\n"),
			"Models/Offer.cs=class Offer {} x=x"},
		{"new file, fiup", map[string]string{"x": "x\n"}, "Add.\n\n<<<FIUP>>>\n[FILE]: Models\\Offer.cs\n[OP]: CREATE\n[CONTENT]\nclass Offer {}\n<<<END>>>\n",
			"Models/Offer.cs=class Offer {} x=x"},
		{"existing file, separator before escape", map[string]string{"windows/__init__.py": "a = 1\n"}, "Edit.\n\n" + block(`windows\__init__.py`, "a = 1\n", "a = 2\n"),
			"windows/__init__.py=a = 2"},
		{"existing file, whole", map[string]string{"windows/__init__.py": "a = 1\n"}, "Edit.\n\n**windows\\__init__.py**\n```python\na = 2\n```\n",
			"windows/__init__.py=a = 2"},
		{"a literal backslash wins", map[string]string{`odd\name.txt`: "lit\n", "odd/name.txt": "sep\n"}, "Edit.\n\n" + block(`odd\name.txt`, "lit\n", "x\n"),
			`odd/name.txt=sep odd\name.txt=x`},
		{"an escaped underscore", map[string]string{"my_file.py": "a = 1\n"}, "Edit.\n\n" + block(`my\_file.py`, "a = 1\n", "a = 2\n"),
			"my_file.py=a = 2"},
		{"an escaped underscore, udiff", map[string]string{"my_file.py": "a = 1\n"}, "Edit.\n\n```diff\n--- a/my\\_file.py\n+++ b/my\\_file.py\n@@ -1 +1 @@\n-a = 1\n+a = 2\n```\n",
			"my_file.py=a = 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, c.files)
			before := r.snapshot()
			res := r.run("apply", "-b", "bs", r.reply("r.md", c.reply))
			if res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			if got := r.files("bs"); got != c.tree {
				t.Errorf("branch holds %q, want %q", got, c.tree)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

// A reply whose tree would hold a file and a directory of one name is
// a failed edit, the same in check, translate and apply; a directory
// the reply empties may become a file.
func TestFileAndDirectoryOfOneName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, reply, say string }{
		{"apply-patch, directory first", applyPatchReply("*** Add File: n/x\n+x\n*** Add File: n\n+y\n"), `edit 2 (create n, reply line 6)`},
		{"apply-patch, file first", applyPatchReply("*** Add File: n\n+y\n*** Add File: n/x\n+x\n"), `edit 2 (create n/x, reply line 6)`},
		{"diff, directory first", "Add.\n\n" + block("n/x", "", "x\n") + block("n", "", "y\n"), `edit 2 (create n, reply line 12)`},
		{"udiffx, a move onto the directory", udiffxReply("<FILE_NEW file_path=\"n/x\">\nx\n</FILE_NEW>\n<FILE_RENAME from_path=\"a.txt\" to_path=\"n\" />\n"), `edit 2 (rename a.txt`},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"a.txt": "a\n"})
			before := r.snapshot()
			reply := r.reply("r.md", c.reply)
			for _, cmd := range []string{"check", "translate", "apply"} {
				res := r.run(cmd, reply)
				if res.code != 1 {
					t.Errorf("%s: exit %d, want 1\n%s", cmd, res.code, res.stderr)
				}
				if !strings.Contains(res.stderr, c.say) {
					t.Errorf("%s: the report does not name the edit (%s):\n%s", cmd, c.say, res.stderr)
				}
				if res.stdout != "" {
					t.Errorf("%s: stdout holds %q", cmd, res.stdout)
				}
			}
			if b := r.branches(); b != "main" {
				t.Errorf("branches: %q", b)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
	for _, c := range []struct {
		name, reply string
		flags       []string
		tree        string
	}{
		{"delete then create", applyPatchReply("*** Delete File: sub/only.txt\n*** Add File: sub\n+now a file\n"), nil, "a.txt=a sub=now a file"},
		{"git rm -r then create", shellReply("git rm -r sub") + "\n" + block("sub", "", "now a file\n"), []string{"--shell-ops"}, "a.txt=a sub=now a file"},
		{"move away then move in", udiffxReply("<FILE_RENAME from_path=\"sub/only.txt\" to_path=\"only.txt\" />\n<FILE_RENAME from_path=\"a.txt\" to_path=\"sub\" />\n"), nil, "only.txt=o sub=a"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"a.txt": "a\n", "sub/only.txt": "o\n"})
			before := r.snapshot()
			reply := r.reply("r.md", c.reply)
			res := r.run(append(append([]string{"apply", "-b", "df"}, c.flags...), reply)...)
			if res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			if got := r.files("df"); got != c.tree {
				t.Errorf("branch holds %q, want %q", got, c.tree)
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}
