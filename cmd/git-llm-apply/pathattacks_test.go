package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every path attack is refused with a clear error, and nothing is
// recorded: no branch, the checkout untouched, nothing written outside.
func TestPathAttacks(t *testing.T) {
	t.Parallel()
	create := func(path string) string { return "Attack.\n\n" + block(path, "", "pwned\n") }
	edit := func(path string) string { return "Attack.\n\n" + block(path, "x\n", "pwned\n") }
	udx := func(directive string) string {
		return "Attack.\n\n<FILE_CHANGES>\n" + directive + "\n</FILE_CHANGES>\n"
	}
	cases := []struct {
		name, reply, want string
	}{
		{"absolute path", create("/tmp/pwned.txt"), "absolute"},
		{"dot-dot escape", create("../pwned.txt"), "leaves the repository"},
		{"escape after normalisation", create("a/../../pwned.txt"), "leaves the repository"},
		{".git directory", create(".git/hooks/pre-commit"), "inside .git"},
		{".GIT in another case", create(".GIT/config"), "inside .git"},
		{".git as a middle component", create("sub/.git/config"), "inside .git"},
		{"through a symlink in the tree", create("link/pwned.txt"), "symbolic link"},
		{"editing a symlink", edit("link"), "symbolic link"},
		{"a path naming a directory", edit("src"), "names a directory"},
		{"a submodule path", edit("mod/file.txt"), "submodule"},
		{"rename target escaping", udx(`<FILE_RENAME from_path="src/app.py" to_path="../pwned.py" />`), "leaves the repository"},
		{"control character", udx("<FILE_NEW file_path=\"a\x01b.txt\">\npwned\n</FILE_NEW>"), "control character"},
		{"NUL byte", udx("<FILE_NEW file_path=\"a\x00b.txt\">\npwned\n</FILE_NEW>"), "control character"},
		{"Windows drive", create(`C:\pwned.txt`), "absolute"},
		{"Windows drive after ./", create(`./C:\pwned.txt`), "absolute"},
		{"Windows drive after a/..", create("a/../C:/pwned.txt"), "absolute"},
		{"UNC path", create(`\\server\share\pwned.txt`), "absolute"},
		{"trailing slash", create("src/"), "names a directory"},
		// A C-quoted name may spell any byte; the report keeps each
		// error on its line.
		{"quoted name with a line break", "Attack.\n\n```diff\n--- /dev/null\n+++ \"b/a\\nb.txt\"\n@@ -0,0 +1 @@\n+pwned\n```\n", `the file name "a\nb.txt" holds a line break`},
		{"quoted name with an escape sequence", "Attack.\n\n```diff\n--- /dev/null\n+++ \"b/\\033[2Ja.txt\"\n@@ -0,0 +1 @@\n+pwned\n```\n", `(create "\x1b[2Ja.txt", reply line 4)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"src/app.py": appPy, "target/x.txt": "x\n"})
			if err := os.Symlink("target", filepath.Join(r.dir, "link")); err != nil {
				t.Fatal(err)
			}
			r.git("add", "link")
			// a gitlink entry, as a submodule leaves in the index
			r.git("update-index", "--add", "--cacheinfo", "160000,"+strings.TrimSpace(r.git("rev-parse", "HEAD"))+",mod")
			r.git("commit", "-q", "-m", "link and submodule")
			before := r.snapshot()
			res := r.run("apply", "-b", "attack", r.reply("r.md", c.reply))
			if res.code == 0 {
				t.Fatalf("the attack was applied:\n%s", res.stderr)
			}
			if !strings.Contains(res.stderr, c.want) {
				t.Errorf("error does not say %q:\n%s", c.want, res.stderr)
			}
			if b := r.branches(); b != "main" {
				t.Errorf("branches: %q", b)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(r.dir), "pwned.txt")); err == nil {
				t.Errorf("a file was written outside the repository")
			}
			r.assertUntouched(before)
			r.fsck()
		})
	}
}

func applyPatchReply(body string) string {
	return "Change.\n\n*** Begin Patch\n" + body + "*** End Patch\n"
}

func udiffxReply(body string) string {
	return "Change.\n\n<FILE_CHANGES>\n" + body + "</FILE_CHANGES>\n"
}

func shellReply(cmd string) string { return "Change.\n\n```bash\n" + cmd + "\n```\n" }

// Names that Windows or macOS take for .git, which git's verify_path
// refuses with core.protectNTFS and core.protectHFS on and git fsck
// --strict reports (hasDotgit), are refused on every platform, in
// every format and as a rename target. Names that only look alike are
// ordinary files.
func TestGitLookAlikeNames(t *testing.T) {
	t.Parallel()
	refused := []string{
		"git~1/config",
		"GIT~1/hooks/post-checkout",
		"sub/Git~1/config",
		".git::$INDEX_ALLOCATION/config",
		".git:x",
		"sub/.GIT:stream/x",
		".git./config",
		".git. ./config",
		".git .:y/z",
		"git~1./config",
		".g\u200cit/config",
		".gi\u200dt/hooks/pre-commit",
		".git\u200e/config",
		"\u200f.git/config",
		".g\u202ait/x", ".g\u202eit/x",
		".g\u206ait/x", ".GIT\u206f/x",
		"\ufeff.git/config",
		`sub\git~1\config`,
	}
	formats := []struct {
		name  string
		flags []string
		reply func(p string) string
	}{
		{"diff", nil, func(p string) string { return "Attack.\n\n" + block(p, "", "pwned\n") }},
		{"apply-patch", nil, func(p string) string { return applyPatchReply("*** Add File: " + p + "\n+pwned\n") }},
		{"udiffx", nil, func(p string) string { return udiffxReply("<FILE_NEW file_path=\"" + p + "\">\npwned\n</FILE_NEW>\n") }},
		{"udiff", nil, func(p string) string {
			return "Attack.\n\n```diff\n--- /dev/null\n+++ b/" + p + "\n@@ -0,0 +1 @@\n+pwned\n```\n"
		}},
		{"whole", nil, func(p string) string { return "Attack.\n\n`" + p + "`\n```\npwned\n```\n" }},
		{"chunk", nil, func(p string) string {
			return "description: Attack.\noperations:\n  - path: '" + p + "'\n    op: create_file\n    payload: |-\n      pwned\n"
		}},
		{"fiup", nil, func(p string) string {
			return "Attack.\n\n<<<FIUP>>>\n[FILE]: " + p + "\n[OP]: CREATE\n[CONTENT]\npwned\n<<<END>>>\n"
		}},
		{"udiffx rename", nil, func(p string) string {
			return udiffxReply("<FILE_RENAME from_path=\"src/app.py\" to_path=\"" + p + "\" />\n")
		}},
		{"apply-patch move", nil, func(p string) string {
			return applyPatchReply("*** Update File: src/app.py\n*** Move to: " + p + "\n")
		}},
		{"git mv", []string{"--shell-ops"}, func(p string) string { return shellReply("git mv src/app.py '" + p + "'") }},
	}
	// What makes a name read as prose, not as a name, in the formats
	// that take names from Markdown lines: such a block is no edit, or
	// one without a name, and nothing is recorded either.
	prose := map[string]string{"diff": " ", "whole": " :"}
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	before := r.snapshot()
	for _, f := range formats {
		for _, p := range refused {
			t.Run(f.name+"/"+p, func(t *testing.T) {
				res := r.run(append(append([]string{"apply", "-b", "attack"}, f.flags...), r.reply("r.md", f.reply(p)))...)
				switch {
				case prose[f.name] != "" && strings.ContainsAny(p, prose[f.name]):
					if res.code == 0 || !strings.Contains(res.stderr, "no edit found") && !strings.Contains(res.stderr, "reads as prose") {
						t.Errorf("exit %d, want no edit read:\n%s", res.code, res.stderr)
					}
				case res.code != 1 || !strings.Contains(res.stderr, "inside .git"):
					t.Errorf("exit %d, want 1 and a refusal:\n%s", res.code, res.stderr)
				}
				if b := r.branches(); b != "main" {
					t.Errorf("branches: %q", b)
					r.git("branch", "-D", "attack")
				}
			})
		}
	}
	r.assertUntouched(before)
	r.fsck()

	allowed := []string{".gitignore", ".github/workflows/ci.yml", ".git.bak/x", ".gitx/y", "git~2/x", "git~10/x", "a.git/x", ".git x/y", ".g\u200bit/x"}
	var reply strings.Builder
	reply.WriteString("Look-alikes.\n\n*** Begin Patch\n")
	for _, p := range allowed {
		reply.WriteString("*** Add File: " + p + "\n+ok\n")
	}
	reply.WriteString("*** End Patch\n")
	if res := r.run("apply", "-b", "alike", r.reply("ok.md", reply.String())); res.code != 0 {
		t.Fatalf("look-alike names: exit %d\n%s", res.code, res.stderr)
	}
	if got := len(r.tree("alike")); got != len(allowed)+1 {
		t.Errorf("branch holds %d files, want %d: %v", got, len(allowed)+1, r.tree("alike"))
	}
	r.assertUntouched(before)
	r.fsck()
}
