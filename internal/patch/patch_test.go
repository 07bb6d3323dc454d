package patch

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// patchCase is one comparison of Format with `git diff --cached`.
// The base commit holds the old side of every change plus extra; the
// index then gets the new side.
type patchCase struct {
	name    string
	changes []FileChange // in the order git prints them: by path
	extra   map[string]string
	opts    Options
	// binary cases are compared up to the "GIT binary patch" line:
	// our deflate stream differs from C zlib's, and git may send a delta.
	binary bool
}

// ptMod is a change of one regular file's content.
func ptMod(path, old, new string) []FileChange {
	return []FileChange{{OldPath: path, NewPath: path, OldMode: ModeRegular, NewMode: ModeRegular, Old: []byte(old), New: []byte(new)}}
}

func ptCreate(path string, mode Mode, content string) FileChange {
	return FileChange{NewPath: path, NewMode: mode, New: []byte(content)}
}

func ptRemove(path string, mode Mode, content string) FileChange {
	return FileChange{OldPath: path, OldMode: mode, Old: []byte(content)}
}

// ptNumbered returns lines "prefix1\n" .. "prefixN\n".
func ptNumbered(prefix string, from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%s%d\n", prefix, i)
	}
	return b.String()
}

var ptLines20 = ptNumbered("line ", 1, 20)

// ptEdit replaces line n (1-based) of ptLines20-style text with repl lines
// (nil deletes it); insertions use ptInsert.
func ptEdit(text string, n int, repl ...string) string {
	ls := strings.SplitAfter(text, "\n")
	out := append([]string{}, ls[:n-1]...)
	for _, r := range repl {
		out = append(out, r+"\n")
	}
	return strings.Join(append(out, ls[n:]...), "")
}

func ptInsert(text string, after int, add ...string) string {
	ls := strings.SplitAfter(text, "\n")
	out := append([]string{}, ls[:after]...)
	for _, r := range add {
		out = append(out, r+"\n")
	}
	return strings.Join(append(out, ls[after:]...), "")
}

const ptGoOld = `package p

func a() int {
	return 1
}

func c() int {
	return 3
}
`

const ptGoNew = `package p

func a() int {
	return 1
}

func b() int {
	return 2
}

func c() int {
	return 3
}
`

const ptPyOld = `class A:
    def one(self):
        return 1

    def three(self):
        return 3
`

const ptPyNew = `class A:
    def one(self):
        return 1

    def two(self):
        return 2

    def three(self):
        return 3
`

// ptCFile has function lines for hunk headers, two of them far apart.
var ptCFile = "#include <stdio.h>\n\nint first(void)\n{\n" + ptNumbered("\tstep", 1, 12) + "}\n\n" +
	"static int second(int a, int b)   \n{\n" + ptNumbered("\tmore", 1, 20) + "}\n"

var ptLongFunc = "static int " + strings.Repeat("very_long_name_", 6) + "(int argument_one, int argument_two)\n"

func ptCases() []patchCase {
	crlf := strings.ReplaceAll(ptLines20, "\n", "\r\n")
	bin := "\x00\x01\x02binary\x00data" + strings.Repeat("\xff\xfe", 100)
	return []patchCase{
		{name: "modify first line", changes: ptMod("f.txt", ptLines20, ptEdit(ptLines20, 1, "first"))},
		{name: "modify middle line", changes: ptMod("f.txt", ptLines20, ptEdit(ptLines20, 10, "middle"))},
		{name: "modify last line", changes: ptMod("f.txt", ptLines20, ptEdit(ptLines20, 20, "last"))},
		{name: "insert at start", changes: ptMod("f.txt", ptLines20, ptInsert(ptLines20, 0, "new a", "new b"))},
		{name: "insert at end", changes: ptMod("f.txt", ptLines20, ptInsert(ptLines20, 20, "new a", "new b"))},
		{name: "insert in middle", changes: ptMod("f.txt", ptLines20, ptInsert(ptLines20, 10, "new a"))},
		{name: "delete at start", changes: ptMod("f.txt", ptLines20, ptEdit(ptEdit(ptLines20, 1), 1))},
		{name: "delete at end", changes: ptMod("f.txt", ptLines20, ptEdit(ptLines20, 20))},
		{name: "delete in middle", changes: ptMod("f.txt", ptLines20, ptEdit(ptEdit(ptLines20, 8), 8))},
		{name: "insert without context", changes: ptMod("f.txt", ptLines20, ptInsert(ptLines20, 3, "x", "y")), opts: Options{Context: -1}},
		{name: "delete without context", changes: ptMod("f.txt", ptLines20, ptEdit(ptEdit(ptLines20, 4), 4)), opts: Options{Context: -1}},
		{name: "insert at start without context", changes: ptMod("f.txt", ptLines20, ptInsert(ptLines20, 0, "x")), opts: Options{Context: -1}},
		{name: "one line context", changes: ptMod("f.txt", ptLines20, ptEdit(ptEdit(ptLines20, 5, "five"), 9, "nine")), opts: Options{Context: 1}},
		{name: "wide context", changes: ptMod("f.txt", ptLines20, ptEdit(ptLines20, 10, "ten")), opts: Options{Context: 8}},
		{name: "one line file", changes: ptMod("f.txt", "a\n", "b\n")},
		{name: "several hunks", changes: ptMod("f.txt", ptNumbered("l", 1, 60), ptEdit(ptEdit(ptEdit(ptNumbered("l", 1, 60), 5, "x"), 30, "y"), 55, "z"))},
		{name: "hunks merge with gap six", changes: ptMod("f.txt", ptLines20, ptEdit(ptEdit(ptLines20, 5, "x"), 12, "y"))},
		{name: "hunks split with gap seven", changes: ptMod("f.txt", ptLines20, ptEdit(ptEdit(ptLines20, 5, "x"), 13, "y"))},
		{name: "whole file rewrite", changes: ptMod("f.txt", "one\ntwo\nthree\n", "uno\ndos\ntres\ncuatro\n")},
		{name: "crlf file", changes: ptMod("f.txt", crlf, strings.Replace(crlf, "line 7\r\n", "seven\r\n", 1))},
		{name: "crlf to lf", changes: ptMod("f.txt", "a\r\nb\r\n", "a\nb\n")},
		{name: "old lacks final newline", changes: ptMod("f.txt", "a\nb\nc", "a\nb\nd\n")},
		{name: "new lacks final newline", changes: ptMod("f.txt", "a\nb\nc\n", "a\nb\nd")},
		{name: "both lack final newline", changes: ptMod("f.txt", "a\nb\nc", "a\nb\nd")},
		{name: "both lack final newline change above", changes: ptMod("f.txt", "a\nb\nc\nd", "a\nB\nc\nd")},
		{name: "add final newline", changes: ptMod("f.txt", "a\nb\nc", "a\nb\nc\n")},
		{name: "remove final newline", changes: ptMod("f.txt", "a\nb\nc\n", "a\nb\nc")},
		{name: "empty to content", changes: ptMod("f.txt", "", "a\nb\n")},
		{name: "content to empty", changes: ptMod("f.txt", "a\nb\n", "")},
		{name: "empty to no newline", changes: ptMod("f.txt", "", "a")},
		{name: "new file", changes: []FileChange{ptCreate("new.txt", ModeRegular, "hello\nworld\n")}},
		{name: "new file without newline", changes: []FileChange{ptCreate("new.txt", ModeRegular, "hello")}},
		{name: "deleted file", changes: []FileChange{ptRemove("old.txt", ModeRegular, "bye\nnow\n")}},
		{name: "new empty file", changes: []FileChange{ptCreate("empty", ModeRegular, "")}},
		{name: "deleted empty file", changes: []FileChange{ptRemove("empty", ModeRegular, "")}},
		{name: "new exec file", changes: []FileChange{ptCreate("run.sh", ModeExec, "#!/bin/sh\necho hi\n")}},
		{name: "rename without change", changes: []FileChange{{OldPath: "a.txt", NewPath: "b.txt", OldMode: ModeRegular, NewMode: ModeRegular, Old: []byte(ptLines20), New: []byte(ptLines20)}}},
		{name: "rename with change", changes: []FileChange{{OldPath: "a.txt", NewPath: "b.txt", OldMode: ModeRegular, NewMode: ModeRegular, Old: []byte(ptLines20), New: []byte(ptEdit(ptLines20, 4, "four"))}}},
		{name: "rename with bigger change", changes: []FileChange{{OldPath: "dir/a.txt", NewPath: "other/z.txt", OldMode: ModeRegular, NewMode: ModeRegular, Old: []byte(crlf + "tail"), New: []byte(ptEdit(ptEdit(crlf, 4, "four"), 9, "nine", "more") + "end")}}},
		{name: "rename and mode change", changes: []FileChange{{OldPath: "a.sh", NewPath: "b.sh", OldMode: ModeRegular, NewMode: ModeExec, Old: []byte(ptLines20), New: []byte(ptLines20)}}},
		{name: "rename mode and content change", changes: []FileChange{{OldPath: "a.sh", NewPath: "b.sh", OldMode: ModeExec, NewMode: ModeRegular, Old: []byte(ptLines20), New: []byte(ptEdit(ptLines20, 20, "x"))}}},
		{name: "mode change only", changes: []FileChange{{OldPath: "x.sh", NewPath: "x.sh", OldMode: ModeRegular, NewMode: ModeExec, Old: []byte("echo\n"), New: []byte("echo\n")}}},
		{name: "mode change with content", changes: []FileChange{{OldPath: "x.sh", NewPath: "x.sh", OldMode: ModeExec, NewMode: ModeRegular, Old: []byte("echo\n"), New: []byte("echo hi\n")}}},
		{name: "name with spaces", changes: ptMod("my file.txt", "a\n", "b\n")},
		{name: "new file with spaces", changes: []FileChange{ptCreate("dir x/my file", ModeRegular, "a\n")}},
		{name: "mode change with spaces", changes: []FileChange{{OldPath: "a b", NewPath: "a b", OldMode: ModeRegular, NewMode: ModeExec, Old: []byte("x\n"), New: []byte("x\n")}}},
		{name: "name with trailing space", changes: ptMod("end ", "a\n", "b\n")},
		{name: "unicode name", changes: ptMod("spécial/été.txt", "a\n", "b\n")},
		{name: "unicode rename", changes: []FileChange{{OldPath: "naïve", NewPath: "plain name", OldMode: ModeRegular, NewMode: ModeRegular, Old: []byte(ptLines20), New: []byte(ptLines20)}}},
		{name: "special characters in name", changes: []FileChange{ptCreate("tab\there \"q\" back\\slash", ModeRegular, "x\n")}},
		{name: "subdirectories", changes: ptMod("a/b/c/d.go", ptGoOld, ptGoNew)},
		{name: "indent heuristic go", changes: ptMod("p.go", ptGoOld, ptGoNew)},
		{name: "indent heuristic python", changes: ptMod("a.py", ptPyOld, ptPyNew)},
		{name: "blank lines", changes: ptMod("f.txt", "a\n\n\nb\n\n\nc\n\n\nd\n", "a\n\n\nb\n\n\nx\n\n\nc\n\n\nd\n")},
		{name: "blank lines removed", changes: ptMod("f.txt", "a\n\n\n\nb\n\n\n\nc\n", "a\n\nb\n\nc\n")},
		{name: "function context", changes: ptMod("f.c", ptCFile, strings.Replace(strings.Replace(ptCFile, "step10", "STEP", 1), "more17", "MORE", 1))},
		{name: "function context reused", changes: ptMod("f.c", ptCFile, strings.Replace(strings.Replace(ptCFile, "more2\n", "M2\n", 1), "more18", "M18", 1))},
		{name: "function line too long", changes: ptMod("f.c", ptLongFunc+ptNumbered("\tx", 1, 10), ptLongFunc+ptEdit(ptNumbered("\tx", 1, 10), 9, "\ty"))},
		{name: "function line is the first changed line", changes: ptMod("f.c", ptCFile, strings.Replace(ptCFile, "int first(void)", "int first(int)", 1))},
		{name: "function line candidates", changes: ptMod("f.txt", "_under\n$dollar\n1digit\n é\n\tindented\n#hash\nx\ny\nz\nw\n", "_under\n$dollar\n1digit\n é\n\tindented\n#hash\nx\ny\nz\nW\n")},
		{name: "function line with form feed", changes: ptMod("f.txt", "name\f\v \n\ta\n\tb\n\tc\n\td\n\te\n", "name\f\v \n\ta\n\tb\n\tc\n\td\n\tE\n")},
		{name: "function line with crlf", changes: ptMod("f.txt", "name  \r\n\ta\r\n\tb\r\n\tc\r\n\td\r\n\te\r\n", "name  \r\n\ta\r\n\tb\r\n\tc\r\n\td\r\n\tE\r\n")},
		{name: "new symlink", changes: []FileChange{ptCreate("link", ModeSymlink, "target/file")}},
		{name: "symlink retarget", changes: []FileChange{{OldPath: "link", NewPath: "link", OldMode: ModeSymlink, NewMode: ModeSymlink, Old: []byte("one"), New: []byte("two")}}},
		{name: "deleted symlink", changes: []FileChange{ptRemove("link", ModeSymlink, "target")}},
		{name: "file becomes symlink", changes: []FileChange{{OldPath: "x", NewPath: "x", OldMode: ModeRegular, NewMode: ModeSymlink, Old: []byte("text\n"), New: []byte("target")}}},
		{name: "several files", extra: map[string]string{"keep": "same\n"}, changes: []FileChange{
			ptCreate("a", ModeRegular, "new\n"),
			ptMod("b", ptLines20, ptEdit(ptLines20, 2, "two"))[0],
			ptRemove("c", ModeRegular, "gone\n"),
			{OldPath: "d", NewPath: "d", OldMode: ModeRegular, NewMode: ModeExec, Old: []byte("d\n"), New: []byte("d\n")},
		}},
		{name: "full index", changes: ptMod("f.txt", ptLines20, ptEdit(ptLines20, 3, "three")), opts: Options{Abbrev: 40}},
		{name: "abbrev 12", changes: ptMod("f.txt", ptLines20, ptEdit(ptLines20, 3, "three")), opts: Options{Abbrev: 12}},
		{name: "new binary", binary: true, changes: []FileChange{ptCreate("b.bin", ModeRegular, bin)}},
		{name: "deleted binary", binary: true, changes: []FileChange{ptRemove("b.bin", ModeRegular, bin)}},
		{name: "modified binary", binary: true, changes: ptMod("b.bin", bin, bin+"more")},
		{name: "text becomes binary", binary: true, changes: ptMod("b.bin", "text\n", bin)},
		{name: "binary rename with change", binary: true, changes: []FileChange{{OldPath: "a.bin", NewPath: "z.bin", OldMode: ModeRegular, NewMode: ModeRegular, Old: []byte(bin + ptLines20), New: []byte(bin + ptEdit(ptLines20, 3, "x"))}}},
		{name: "binary mode change", binary: true, changes: []FileChange{{OldPath: "b.bin", NewPath: "b.bin", OldMode: ModeRegular, NewMode: ModeExec, Old: []byte(bin), New: []byte(bin)}}},
	}
}

func TestFormatPatchMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	cases := ptCases()
	if len(cases) < 36 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, tc := range cases {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			got, err := Format(tc.changes, tc.opts)
			if err != nil {
				t.Fatalf("Format: %v", err)
			}
			r := newPatchRepo(t)
			want, tree := r.gitDiff(tc)
			g, w := string(got), string(want)
			if tc.binary {
				g, w = ptBinaryHead(g), ptBinaryHead(w)
			}
			if g != w {
				t.Errorf("Format differs from git\n--- ours\n%s--- git\n%s", got, want)
			}
			if err := Verify(got, tc.changes); err != nil {
				t.Errorf("Verify: %v\n%s", err, got)
			}
			r.applyCached(got, tree, tc.opts.Context < 0)
		})
	}
}

// ptBinaryHead cuts a patch (or a mail) after each "GIT binary patch"
// line, dropping the data up to the next file (or the signature).
func ptBinaryHead(p string) string {
	var out []string
	skip := false
	for _, l := range strings.SplitAfter(p, "\n") {
		if strings.HasPrefix(l, "diff --git ") || l == "-- \n" {
			skip = false
		}
		if !skip {
			out = append(out, l)
		}
		if l == "GIT binary patch\n" {
			skip = true
		}
	}
	return strings.Join(out, "")
}

// patchRepo is a scratch repository (internal/scratch) whose git
// takes its standard input as bytes and returns its output as git
// wrote it.
type patchRepo struct {
	*scratch.Repo
	t   *testing.T
	dir string
}

func newPatchRepo(t *testing.T) *patchRepo {
	t.Helper()
	r := scratch.New(t)
	return &patchRepo{r, t, r.Dir}
}

// git runs git in the repository with stdin and returns its stdout,
// without the automatic maintenance a commit would start (a process no
// test looks at).
func (r *patchRepo) git(stdin []byte, args ...string) []byte {
	r.t.Helper()
	args = append([]string{"-c", "maintenance.auto=false"}, args...)
	return []byte(r.Output(r.dir, nil, string(stdin), args...))
}

// write puts a file of the given mode in the work tree.
func (r *patchRepo) write(path string, mode Mode, content []byte) {
	r.t.Helper()
	full := filepath.Join(r.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		r.t.Fatal(err)
	}
	os.Remove(full)
	var err error
	switch mode {
	case ModeSymlink:
		err = os.Symlink(string(content), full)
	case ModeExec:
		err = os.WriteFile(full, content, 0o755)
	default:
		err = os.WriteFile(full, content, 0o644)
	}
	if err != nil {
		r.t.Fatal(err)
	}
}

// gitDiff commits the old side of tc, stages the new side and returns
// `git diff --cached` with the case's options and the staged tree.
func (r *patchRepo) gitDiff(tc patchCase) (diff []byte, tree string) {
	r.t.Helper()
	for p, s := range tc.extra {
		r.write(p, ModeRegular, []byte(s))
	}
	for _, c := range tc.changes {
		if !c.IsCreate() {
			r.write(c.OldPath, c.OldMode, c.Old)
		}
	}
	r.git(nil, "add", "-A")
	r.git(nil, "commit", "-q", "--allow-empty", "-m", "base")
	for _, c := range tc.changes {
		if !c.IsCreate() {
			os.Remove(filepath.Join(r.dir, filepath.FromSlash(c.OldPath)))
		}
	}
	for _, c := range tc.changes {
		if !c.IsDelete() {
			r.write(c.NewPath, c.NewMode, c.New)
		}
	}
	r.git(nil, "add", "-A")
	tree = strings.TrimSpace(string(r.git(nil, "write-tree")))
	args := []string{"-c", "core.abbrev=7", "diff", "--cached", "-M", "--binary"}
	switch {
	case tc.opts.Context < 0:
		args = append(args, "-U0")
	case tc.opts.Context > 0:
		args = append(args, "-U"+strconv.Itoa(tc.opts.Context))
	}
	switch {
	case tc.opts.Abbrev == 40:
		args = append(args, "--full-index")
	case tc.opts.Abbrev > 0:
		args = append(args, "--abbrev="+strconv.Itoa(tc.opts.Abbrev))
	}
	return r.git(nil, args...), tree
}

// applyCached resets the index to the base commit, applies patch to it
// with `git apply --cached` and requires the result to be tree.
func (r *patchRepo) applyCached(patch []byte, tree string, zeroContext bool) {
	r.t.Helper()
	r.git(nil, "read-tree", "HEAD")
	args := []string{"apply", "--cached"}
	if zeroContext {
		// git refuses hunks without context unless told they are meant.
		args = append(args, "--unidiff-zero")
	}
	r.git(patch, append(args, "--check", "-")...)
	r.git(patch, append(args, "-")...)
	if got := strings.TrimSpace(string(r.git(nil, "write-tree"))); got != tree {
		r.t.Errorf("git apply --cached gives tree %s, want %s", got, tree)
	}
}

func TestFormatPatchHunkHeader(t *testing.T) {
	for _, tc := range []struct {
		s1, c1, s2, c2 int
		fn             string
		want           string
	}{
		{0, 0, 0, 3, "", "@@ -0,0 +1,3 @@\n"},
		{0, 2, 0, 0, "", "@@ -1,2 +0,0 @@\n"},
		{3, 0, 3, 2, "", "@@ -3,0 +4,2 @@\n"},
		{4, 1, 4, 1, "f()", "@@ -5 +5 @@ f()\n"},
		{9, 7, 9, 8, "", "@@ -10,7 +10,8 @@\n"},
		// xdiff's 128-byte buffer cuts the function text of huge ranges.
		{999999999, 1000000000, 999999999, 1000000000, strings.Repeat("x", 80),
			"@@ -1000000000,1000000000 +1000000000,1000000000 @@ " + strings.Repeat("x", 75) + "\n"},
	} {
		var b bytes.Buffer
		writeHunkHeader(&b, tc.s1, tc.c1, tc.s2, tc.c2, []byte(tc.fn))
		if b.String() != tc.want {
			t.Errorf("writeHunkHeader(%d,%d,%d,%d) = %q, want %q", tc.s1, tc.c1, tc.s2, tc.c2, b.String(), tc.want)
		}
	}
}

func TestFormatPatchErrors(t *testing.T) {
	for name, tc := range map[string]struct {
		changes []FileChange
		opts    Options
	}{
		"no path":         {changes: []FileChange{{}}},
		"create with old": {changes: []FileChange{{NewPath: "a", Old: []byte("x")}}},
		"delete with new": {changes: []FileChange{{OldPath: "a", New: []byte("x")}}},
		"negative abbrev": {opts: Options{Abbrev: -2}},
	} {
		if _, err := Format(tc.changes, tc.opts); err == nil || strings.HasPrefix(err.Error(), "patch: ") {
			t.Errorf("%s: Format error = %v, want an error without a package prefix", name, err)
		}
	}
}

func TestFormatPatchUnchanged(t *testing.T) {
	same := FileChange{OldPath: "a", NewPath: "a", OldMode: ModeRegular, Old: []byte("x\n"), New: []byte("x\n")}
	got, err := Format([]FileChange{same}, Options{})
	if err != nil || len(got) != 0 {
		t.Fatalf("Format(unchanged) = %q, %v; want nothing", got, err)
	}
	if err := Verify(got, []FileChange{same}); err != nil {
		t.Errorf("Verify(empty patch) = %v", err)
	}
}

func TestVerifyPatchCatchesCorruption(t *testing.T) {
	changes := []FileChange{
		ptMod("f.txt", ptLines20, ptEdit(ptLines20, 10, "ten"))[0],
		ptCreate("n.txt", ModeExec, "new\n"),
		ptRemove("b.bin", ModeRegular, "\x00bin"),
	}
	patch, err := Format(changes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := Verify(patch, changes); err != nil {
		t.Fatalf("Verify(good patch) = %v", err)
	}
	for name, tc := range map[string]struct {
		patch    string
		changes  []FileChange
		mismatch bool // want ErrMismatch, else any error
	}{
		"added line":       {patch: strings.Replace(string(patch), "+ten\n", "+TEN\n", 1), mismatch: true},
		"context line":     {patch: strings.Replace(string(patch), " line 9\n", " line nine\n", 1)},
		"hunk count":       {patch: strings.Replace(string(patch), "@@ -7,7 +7,7 @@", "@@ -7,7 +7,8 @@", 1)},
		"mode":             {patch: strings.Replace(string(patch), "new file mode 100755", "new file mode 100644", 1), mismatch: true},
		"blob id":          {patch: strings.Replace(string(patch), "index 0000000..", "index 0000000..1", 1), mismatch: true},
		"preamble":         {patch: "hello\n" + string(patch), mismatch: true},
		"missing file":     {patch: string(patch), changes: changes[:2], mismatch: true},
		"other content":    {patch: string(patch), changes: append(ptMod("f.txt", ptLines20, ptEdit(ptLines20, 10, "TEN")), changes[1:]...), mismatch: true},
		"renamed path":     {patch: strings.ReplaceAll(string(patch), "n.txt", "m.txt"), mismatch: true},
		"truncated binary": {patch: strings.TrimSuffix(string(patch), "\n\n") + "\n", mismatch: false},
	} {
		if tc.changes == nil {
			tc.changes = changes
		}
		err := Verify([]byte(tc.patch), tc.changes)
		switch {
		case err == nil:
			t.Errorf("%s: Verify accepted a corrupt patch", name)
		case strings.HasPrefix(err.Error(), "patch: "):
			t.Errorf("%s: error %q carries a package prefix", name, err)
		case tc.mismatch && !errors.Is(err, ErrMismatch):
			t.Errorf("%s: error %v, want ErrMismatch", name, err)
		}
	}
}

func FuzzFormatPatch(f *testing.F) {
	f.Add([]byte(""), []byte("a\n"))
	f.Add([]byte("a\nb\nc"), []byte("a\nc\n"))
	f.Add([]byte(ptLines20), []byte(ptEdit(ptLines20, 5, "x")))
	f.Add([]byte("a\r\nb\r\n"), []byte("a\r\nb"))
	f.Add([]byte("x\x00y"), []byte("x\x00z"))
	f.Add([]byte(ptGoOld), []byte(ptGoNew))
	f.Fuzz(func(t *testing.T, old, new []byte) {
		for _, changes := range [][]FileChange{
			{{OldPath: "f", NewPath: "f", OldMode: ModeRegular, NewMode: ModeRegular, Old: old, New: new}},
			{{OldPath: "f", NewPath: "g h", OldMode: ModeRegular, NewMode: ModeExec, Old: old, New: new}},
			{ptCreate("é", ModeRegular, string(new)), ptRemove("d", ModeRegular, string(old))},
		} {
			patch, err := Format(changes, Options{})
			if err != nil {
				t.Fatalf("Format: %v", err)
			}
			if err := Verify(patch, changes); err != nil {
				t.Fatalf("Verify: %v\n%s", err, patch)
			}
		}
	})
}

func BenchmarkFormatPatch(b *testing.B) {
	var old, new strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&old, "\tline %d of the benchmark file\n", i)
		if i%500 == 250 {
			fmt.Fprintf(&new, "\tchanged line %d\n", i)
		} else {
			fmt.Fprintf(&new, "\tline %d of the benchmark file\n", i)
		}
	}
	changes := ptMod("big.txt", old.String(), new.String())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Format(changes, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
