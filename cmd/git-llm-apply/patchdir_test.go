package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -o naming something that cannot be the patch directory is refused
// before anything is recorded (apply) or resolved (translate): exit 2,
// no branch, no object, a message naming the path.
func TestPatchDirNotADirectory(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"src/app.py": appPy})
	reply := r.reply("r.md", "Import sys.\n\n"+block("src/app.py", "import os\n", "import os\nimport sys\n"))
	file := filepath.Join(t.TempDir(), "patches")
	if err := os.WriteFile(file, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dangling := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(filepath.Join(t.TempDir(), "gone"), dangling); err != nil {
		t.Fatal(err)
	}
	before := r.snapshot()
	objects := r.git("count-objects", "-v")
	for _, tc := range []struct {
		dir, want string
	}{
		{file, file + " is not a directory"},
		{filepath.Join(file, "sub"), file + " is not a directory"},
		{dangling, dangling + " is a symbolic link to nothing"},
	} {
		for _, cmd := range []string{"apply", "translate"} {
			done := map[string]string{"apply": "recorded", "translate": "written"}[cmd]
			res := r.run(cmd, "-o", tc.dir, reply)
			want := "-o " + tc.dir + ": " + tc.want + "; nothing was " + done
			if res.code != exitUsage || !strings.Contains(res.stderr, want) {
				t.Errorf("%s -o %s: exit %d, want %d and %q:\n%s", cmd, tc.dir, res.code, exitUsage, want, res.stderr)
			}
			if res.stdout != "" {
				t.Errorf("%s -o %s printed:\n%s", cmd, tc.dir, res.stdout)
			}
		}
	}
	if b := r.branches(); b != "main" {
		t.Errorf("branches: %s", b)
	}
	if got := r.git("count-objects", "-v"); got != objects {
		t.Errorf("objects were written:\n%s\nwas\n%s", got, objects)
	}
	if data, err := os.ReadFile(file); err != nil || string(data) != "keep\n" {
		t.Errorf("the file named by -o: %q, %v", data, err)
	}
	r.assertUntouched(before)
	// A directory that does not exist yet is made.
	dir := filepath.Join(t.TempDir(), "new", "patches")
	if res := r.run("apply", "-o", dir, reply); res.code != 0 {
		t.Fatalf("apply -o %s: exit %d\n%s", dir, res.code, res.stderr)
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) != 1 {
		t.Errorf("%s: %v, %v", dir, ents, err)
	}
}
