package main

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// abbrevReply turns "return 1" into "return 2" in app.py.
const abbrevReply = "app.py\n```python\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n"

// gitIn runs git in r with stdin and returns its stdout.
func (r *repo) gitIn(stdin string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Stdin = r.dir, strings.NewReader(stdin)
	res := r.collect(cmd)
	if res.code != 0 {
		r.t.Fatalf("git %s: exit %d\n%s", strings.Join(args, " "), res.code, res.stderr)
	}
	return res.stdout
}

// importBlobs writes n small blobs into one pack of r (git fast-import
// packs 100 objects or more).
func (r *repo) importBlobs(n int) {
	r.t.Helper()
	var b strings.Builder
	for i := range n {
		d := fmt.Sprintf("%d\n", i)
		fmt.Fprintf(&b, "blob\ndata %d\n%s\n", len(d), d)
	}
	r.gitIn(b.String(), "fast-import", "--quiet")
}

var indexLine = regexp.MustCompile(`(?m)^index ([0-9a-f]+)\.\.([0-9a-f]+)`)

// translateAsGitDiff runs translate on abbrevReply, checks that git
// applies it, and that `git diff --cached` after applying it to the
// index prints it byte for byte; it returns the hex digits of its
// index line's ids and leaves the index as it was.
func translateAsGitDiff(t *testing.T, r *repo) (oldID, newID string) {
	t.Helper()
	res := r.run("translate", r.reply("reply.md", abbrevReply))
	if res.code != 0 {
		t.Fatalf("translate: exit %d\n%s", res.code, res.stderr)
	}
	r.gitIn(res.stdout, "apply", "--check", "--cached")
	r.gitIn(res.stdout, "apply", "--cached")
	if git := r.git("diff", "--cached"); git != res.stdout {
		t.Errorf("translate printed\n%s\ngit diff --cached prints\n%s", res.stdout, git)
	}
	r.git("reset", "-q")
	m := indexLine.FindStringSubmatch(res.stdout)
	if m == nil {
		t.Fatalf("no index line in\n%s", res.stdout)
	}
	return m[1], m[2]
}

// TestAbbrevFollowsGit checks the abbreviated names in a repository of
// 16583 packed objects, where git shows 8 digits: translate's index
// lines are git diff's (and core.abbrev's when set), -o's patch files'
// are git format-patch's, and the report's commit ids are git's.
func TestAbbrevFollowsGit(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"app.py": "def f():\n    return 1\n"})
	r.importBlobs(16583)

	if o, n := translateAsGitDiff(t, r); len(o) != 8 || len(n) != 8 {
		t.Errorf("index line ids %s..%s, want 8 digits", o, n)
	}

	dir := filepath.Join(t.TempDir(), "patches")
	res := r.run("apply", "-b", "topic", "-o", dir, r.reply("reply.md", abbrevReply))
	if res.code != 0 {
		t.Fatalf("apply: exit %d\n%s", res.code, res.stderr)
	}
	short := strings.TrimSpace(r.git("rev-parse", "--short", "topic"))
	if len(short) != 8 || !strings.Contains(res.stderr, "["+short+" on topic]") {
		t.Errorf("report does not name the commit %s (git's rev-parse --short):\n%s", short, res.stderr)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.patch"))
	if err != nil || len(files) != 1 {
		t.Fatalf("patch files %v, %v", files, err)
	}
	mail, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	ours := indexLine.FindAllString(string(mail), -1)
	theirs := indexLine.FindAllString(r.git("format-patch", "-1", "--stdout", "topic"), -1)
	if len(ours) != 1 || strings.Join(ours, "\n") != strings.Join(theirs, "\n") {
		t.Errorf("patch file's index lines %q, git format-patch's %q", ours, theirs)
	}

	// A second reply on the branch: the hint names the old tip as git
	// would abbreviate it.
	next := strings.ReplaceAll(strings.ReplaceAll(abbrevReply, "return 2", "return 3"), "return 1", "return 2")
	res = r.run("apply", "-b", "topic", r.reply("next.md", next))
	if res.code != 0 {
		t.Fatalf("second apply: exit %d\n%s", res.code, res.stderr)
	}
	if want := "Review with: git log -p " + short + "..topic\n"; !strings.Contains(res.stderr, want) {
		t.Errorf("want %q in\n%s", want, res.stderr)
	}

	r.git("config", "core.abbrev", "12")
	if o, n := translateAsGitDiff(t, r); len(o) != 12 || len(n) != 12 {
		t.Errorf("with core.abbrev=12 index line ids %s..%s, want 12 digits", o, n)
	}
	r.git("config", "core.abbrev", "no")
	if o, n := translateAsGitDiff(t, r); len(o) != 40 || len(n) != 40 {
		t.Errorf("with core.abbrev=no index line ids %s..%s, want 40 digits", o, n)
	}
}

// TestAbbrevLooseObjectsDoNotCount: git sizes the automatic length by
// packed objects only. 16380 packed objects give 7 digits and 16384
// give 8 (TestAbbrevFollowsGit has more); 16380 packed and 23 loose
// ones, which would make 8 if they counted, leave it at 7. (Loose
// objects at the boundary, not 16384 of them: writing that many files
// takes minutes on a busy disk.)
func TestAbbrevLooseObjectsDoNotCount(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"app.py": "def f():\n    return 1\n"}) // 3 loose objects
	r.importBlobs(16380)
	r.writeLooseBlobs(20)
	counts := r.git("count-objects", "-v")
	if !strings.HasPrefix(counts, "count: 23\n") || !strings.Contains(counts, "\nin-pack: 16380\n") {
		t.Fatalf("count-objects -v:\n%s", counts)
	}
	if o, n := translateAsGitDiff(t, r); len(o) != 7 || len(n) != 7 {
		t.Errorf("index line ids %s..%s, want 7 digits", o, n)
	}
}

// writeLooseBlobs writes n small blobs, none of them importBlobs', as
// loose objects of r, as git stores them (zlib of "blob <size>\0" and
// the content at objects/<2 hex digits>/<38>).
func (r *repo) writeLooseBlobs(n int) {
	r.t.Helper()
	objects := filepath.Join(r.dir, ".git", "objects")
	var z bytes.Buffer
	for i := range n {
		content := fmt.Sprintf("loose %d\n", i)
		id := blobSum(content)
		z.Reset()
		w := zlib.NewWriter(&z)
		fmt.Fprintf(w, "blob %d\x00%s", len(content), content)
		if err := w.Close(); err != nil {
			r.t.Fatal(err)
		}
		dir := filepath.Join(objects, id[:2])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			r.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, id[2:]), z.Bytes(), 0o444); err != nil {
			r.t.Fatal(err)
		}
	}
	r.git("cat-file", "-e", blobSum(fmt.Sprintf("loose %d\n", n-1))) // git reads them
}

// TestAbbrevUniqueInRepository writes a blob whose id shares five
// digits with that of the reply's new content: with core.abbrev=4 git
// shows six digits of it, and so does translate.
func TestAbbrevUniqueInRepository(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"app.py": "def f():\n    return 1\n"})
	r.git("config", "core.abbrev", "4")
	want := blobSum("def f():\n    return 2\n")
	for i := 0; ; i++ {
		c := fmt.Sprintf("n%d\n", i)
		if id := blobSum(c); id[:5] == want[:5] && id[5] != want[5] {
			r.gitIn(c, "hash-object", "-w", "--stdin")
			break
		}
	}
	if o, n := translateAsGitDiff(t, r); len(o) != 4 || n != want[:6] {
		t.Errorf("index line ids %s..%s, want 4 digits..%s", o, n, want[:6])
	}
}

// blobSum is git's name of a blob holding content.
func blobSum(content string) string {
	h := sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(content), content)))
	return hex.EncodeToString(h[:])
}

// TestAbbrevBadConfig: a core.abbrev git refuses stops the command
// before anything is read or written, as it stops git.
func TestAbbrevBadConfig(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"app.py": "def f():\n    return 1\n"})
	before := r.snapshot()
	for _, v := range []string{"garbage", "3", "41"} {
		r.git("config", "core.abbrev", v)
		for _, cmd := range []string{"translate", "apply"} {
			res := r.run(cmd, r.reply("reply.md", abbrevReply))
			if res.code != 2 || !strings.Contains(res.stderr, "core.abbrev") || res.stdout != "" {
				t.Errorf("core.abbrev=%s: %s: exit %d, want 2 and a message naming core.abbrev:\n%s%s", v, cmd, res.code, res.stdout, res.stderr)
			}
		}
		r.git("config", "--unset", "core.abbrev") // git itself refuses to run with it
		r.assertUntouched(before)
		if r.branches() != "main" {
			t.Errorf("branches: %s", r.branches())
		}
	}
}
