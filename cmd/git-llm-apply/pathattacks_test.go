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
