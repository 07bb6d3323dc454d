package patch

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// mailFile is one file of a mailCase: content and mode.
type mailFile struct {
	mode    Mode
	content string
}

func mfText(s string) *mailFile { return &mailFile{mode: ModeRegular, content: s} }

// mailCase is one commit compared with `git format-patch`: the files
// before it (base), the files it changes (a nil file is deleted; a
// rename is a deletion and a creation git detects with -M), and its
// message, author and date.
type mailCase struct {
	name    string
	base    map[string]*mailFile
	next    map[string]*mailFile
	message string
	author  string // "Name <email>"; a default when empty
	date    string // git's --date; a default when empty
	binary  bool   // compare binary patch data only up to "GIT binary patch"
}

const mcSignature = "git-llm-apply"

func mailCases() []mailCase {
	lines20 := ptLines20
	many := func(prefix string, n int) string { return ptNumbered(prefix, 1, n) }
	bin := "\x00\x01\x02binary\x00data" + strings.Repeat("\xff\xfe", 100)
	longDir := "very/long/directory/name/that/goes/on/and/on/forever/and/ever/"
	return []mailCase{
		{name: "one modified file",
			base:    map[string]*mailFile{"f.txt": mfText(lines20)},
			next:    map[string]*mailFile{"f.txt": mfText(ptEdit(lines20, 7, "seven"))},
			message: "Change line seven\n\nBecause seven deserves a name.\n"},
		{name: "several files",
			base: map[string]*mailFile{"a.txt": mfText(lines20), "b.txt": mfText("gone\n"), "run.sh": mfText("echo\n"), "keep": mfText("k\n")},
			next: map[string]*mailFile{"a.txt": mfText(ptInsert(lines20, 3, "x", "y")), "b.txt": nil,
				"run.sh": {mode: ModeExec, content: "echo\n"}, "c/new.go": mfText(ptGoNew)},
			message: "Touch several files\n\nOne edited, one gone, one made executable, one new.\n"},
		{name: "new file",
			next:    map[string]*mailFile{"docs/new.md": mfText("# Title\n\nText.\n")},
			message: "Add docs\n"},
		{name: "new empty file",
			next:    map[string]*mailFile{"empty": mfText("")},
			message: "Add an empty file\n"},
		{name: "deleted file",
			base:    map[string]*mailFile{"old.txt": mfText(many("old ", 12))},
			next:    map[string]*mailFile{"old.txt": nil},
			message: "Remove old.txt\n"},
		{name: "rename with edits",
			base: map[string]*mailFile{"src/foo/bar/file.c": mfText(ptCFile), "docs/readme.txt": mfText(many("doc ", 30)), "top.txt": mfText(lines20)},
			next: map[string]*mailFile{
				"src/foo/bar/file.c": nil, "src/foo/baz/file.c": mfText(strings.Replace(ptCFile, "step3", "STEP3", 1)),
				"docs/readme.txt": nil, "docs/README.txt": mfText(many("doc ", 30)),
				"top.txt": nil, "other.txt": mfText(ptEdit(lines20, 5, "five")),
			},
			message: "Move things around\n"},
		{name: "rename overlapping prefix and suffix",
			base:    map[string]*mailFile{"a/b/c": mfText(lines20), "x/file.c": mfText(many("x", 25)), "dir/f": mfText(many("f", 22))},
			next:    map[string]*mailFile{"a/b/c": nil, "a/b/d/c": mfText(lines20), "x/file.c": nil, "y/file.c": mfText(many("x", 25)), "dir/f": nil, "f": mfText(many("f", 22))},
			message: "Rename with shared parts\n"},
		{name: "rename and mode change",
			base:    map[string]*mailFile{"tool": mfText(many("t", 30))},
			next:    map[string]*mailFile{"tool": nil, "bin/tool": {mode: ModeExec, content: many("t", 30)}},
			message: "Move tool to bin and make it executable\n"},
		{name: "mode change",
			base:    map[string]*mailFile{"x.sh": mfText("#!/bin/sh\n")},
			next:    map[string]*mailFile{"x.sh": {mode: ModeExec, content: "#!/bin/sh\n"}},
			message: "Make x.sh executable\n"},
		{name: "type change",
			base:    map[string]*mailFile{"ln": mfText("x\n"), "same": mfText("target")},
			next:    map[string]*mailFile{"ln": {mode: ModeSymlink, content: "target"}, "same": {mode: ModeSymlink, content: "target"}},
			message: "Turn files into symlinks\n"},
		{name: "binary files", binary: true,
			base:    map[string]*mailFile{"b.bin": mfText(bin), "same.bin": mfText(bin), "f.txt": mfText(lines20)},
			next:    map[string]*mailFile{"b.bin": mfText(bin + "more"), "n.bin": mfText("n\x00w"), "same.bin": {mode: ModeExec, content: bin}, "f.txt": mfText(ptEdit(lines20, 2, "two"))},
			message: "Update binaries\n"},
		{name: "deleted binary", binary: true,
			base:    map[string]*mailFile{"b.bin": mfText(bin)},
			next:    map[string]*mailFile{"b.bin": nil},
			message: "Drop the blob\n"},
		{name: "long path names",
			next: map[string]*mailFile{
				longDir + "some_file_name.txt":               mfText(many("l", 7)),
				longDir + "and/deeper/still/another_file.go": mfText(many("m", 3)),
				"short.txt": mfText("s\n"),
				"x" + strings.Repeat("y", 80) + "/z/file.txt":  mfText("q\n"),
				strings.Repeat("nodirectoryatall", 6) + ".txt": mfText("w\n"),
			},
			message: "Add deeply nested files\n"},
		{name: "long rename",
			base:    map[string]*mailFile{longDir + "a.txt": mfText(many("r", 40))},
			next:    map[string]*mailFile{longDir + "a.txt": nil, "short/b.txt": mfText(many("r", 40))},
			message: "Flatten\n"},
		{name: "graph scaling",
			base: map[string]*mailFile{"big.txt": mfText(many("big ", 200)), "mid.txt": mfText(many("mid ", 100)), "one.txt": mfText(lines20), "del.txt": mfText(many("d", 15))},
			next: map[string]*mailFile{
				"big.txt": mfText(strings.ReplaceAll(many("big ", 200), "0\n", "0!\n") + many("extra ", 60)),
				"mid.txt": mfText(strings.ReplaceAll(many("mid ", 100), "1", "one")),
				"one.txt": mfText(ptEdit(lines20, 4, "four")), "huge.txt": mfText(many("h", 900)),
				"tiny.txt": mfText("t\n"), "del.txt": nil,
			},
			message: "Change a lot\n"},
		{name: "graph scaling with binary", binary: true,
			base:    map[string]*mailFile{"a.txt": mfText(many("a", 40))},
			next:    map[string]*mailFile{"a.txt": mfText(many("b", 45)), "blob.bin": mfText(strings.Repeat(bin, 60))},
			message: "Mix text and binary\n"},
		{name: "quoted names",
			base:    map[string]*mailFile{"dé l": mfText("a\n"), "x y": mfText("b\n"), "naïve": mfText(lines20)},
			next:    map[string]*mailFile{"dé l": {mode: ModeExec, content: "a\n"}, "né w": mfText("c\n"), "x y": nil, "q\"t": mfText("d\n"), "naïve": nil, "plain name": mfText(lines20)},
			message: "Quote names\n"},
		{name: "non-ASCII author and subject",
			author:  "Jörg Müller <joerg@example.com>",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Überarbeite die Größe\n\nMit Umlauten im Text: äöü.\n"},
		{name: "non-ASCII long subject",
			author:  "Ünïcödé Long Name With Many Words That Goes On And On And On Forever Longer <u@example.com>",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Überschrift mit Umlauten und einem sehr langen Text der über die Grenze hinausgeht ok\n"},
		{name: "non-ASCII body only",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Plain subject\n\nBut a body with “quotes”.\n"},
		{name: "non-ASCII author only",
			author:  "Zoë <zoe@example.com>",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Plain subject\n"},
		{name: "author needing quotes",
			author:  `A. U. "Tom" Thor\ <thor@example.com>`,
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Quote the author\n"},
		{name: "long author name",
			author:  "Very Long Name With Many Words That Goes On And On And On Forever Longer Than Line <someone@example.com>",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Long author\n"},
		{name: "long author address",
			author:  "Seed maintainers <maintainers@users.noreply.a-very-long-domain-name-for-testing.example>",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Long address\n"},
		{name: "long unbreakable author",
			author:  "VeryLongNameWithoutSpaceVeryLongNameWithoutSpaceVeryLongNameWithoutSpaceXYZ <v@example.com>",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Unbreakable author\n"},
		{name: "long subject",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Fix the thing that is broken in a very long subject line that exceeds the limit of seventy eight characters by far, really far\n\nBody.\n"},
		{name: "long first word in subject",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Supercalifragilisticexpialidocious_supercalifragilisticexpialidocious_supercali and more\n"},
		{name: "subject that looks encoded",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Handle =?utf-8?q?x?= in headers_and such\n"},
		{name: "tab and control character in subject",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Subject with a\ttab and a control \x01 character that runs on long enough to wrap\n"},
		{name: "multi-line subject paragraph",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "First line of the subject\nsecond line of the subject\n\nBody after it.\n"},
		{name: "body with From line",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Quote an mbox separator\n\nFrom the start, lines like the next one confuse mailers:\nFrom someone@example.com Mon Sep 17 00:00:00 2001\n>From escaped\n\n    indented code\n\ttabbed\n"},
		{name: "no body",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Just a subject\n"},
		{name: "trailer only",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Apply the reply\n\nLLM-Edit-Format: udiff\n"},
		{name: "negative zone",
			date:    "2024-12-31T23:59:59-0930",
			next:    map[string]*mailFile{"f.txt": mfText("x\n")},
			message: "Late edit\n"},
		{name: "no newline at end",
			base:    map[string]*mailFile{"f.txt": mfText("a\nb")},
			next:    map[string]*mailFile{"f.txt": mfText("a\nc")},
			message: "Change the last line\n"},
	}
}

func TestFormatMailMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, tc := range mailCases() {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			t.Parallel()
			r := newPatchRepo(t)
			base, commit, tip := r.mailSeries(tc)

			// The commit alone: "[PATCH]".
			got, _ := r.ourMail(commit, 1, 1)
			want := r.git(nil, "-c", "core.abbrev=7", "format-patch", "-M", "--stdout", "--signature="+mcSignature, "-1", commit)
			compareMail(t, "alone", got, want, tc.binary)

			// A series numbered from 9, tc's commit in the middle:
			// "[PATCH 09/11]", "[PATCH 10/11]", "[PATCH 11/11]", under
			// git's own file names.
			out := filepath.Join(t.TempDir(), "out")
			r.git(nil, "-c", "core.abbrev=7", "format-patch", "-M", "--numbered", "--start-number=9",
				"--signature="+mcSignature, "-q", "-o", out, base+".."+tip)
			names := mailDir(t, out)
			series := strings.Fields(string(r.git(nil, "rev-list", "--reverse", base+".."+tip)))
			if len(names) != 3 || len(series) != 3 || series[1] != commit {
				t.Fatalf("git wrote patches %v of commits %v, want 3 with %s second", names, series, commit)
			}
			for i, id := range series {
				got, message := r.ourMail(id, 9+i, 11)
				if name := FileName(9+i, message); name != names[i] {
					t.Errorf("FileName = %q, git wrote %q", name, names[i])
				}
				want, err := os.ReadFile(filepath.Join(out, names[i]))
				if err != nil {
					t.Fatal(err)
				}
				compareMail(t, names[i], got, want, tc.binary)
			}
		})
	}
}

// ourMail returns FormatMail's patch n of total for a commit, made from
// what git says of it, and the commit's message.
func (r *patchRepo) ourMail(id string, n, total int) (mail []byte, message string) {
	r.t.Helper()
	c := r.readCommit(id)
	changes := r.commitChanges(id)
	patch, err := Format(changes, Options{})
	if err != nil {
		r.t.Fatalf("Format: %v", err)
	}
	mail, err = FormatMail(patch, changes, c.mailOptions(n, total))
	if err != nil {
		r.t.Fatalf("FormatMail: %v", err)
	}
	return mail, c.message
}

// compareMail requires got to be want, except for binary patch data
// when binary is set.
func compareMail(t *testing.T, what string, got, want []byte, binary bool) {
	t.Helper()
	g, w := string(got), string(want)
	if binary {
		g, w = mailBinaryHead(g), mailBinaryHead(w)
	}
	if g != w {
		t.Errorf("%s: FormatMail differs from git format-patch\n--- ours\n%s--- git\n%s", what, got, want)
	}
}

// mailBinaryHead drops the data of each binary patch, up to the next
// file or the signature: our deflate stream is not C zlib's, and git
// may send a delta.
func mailBinaryHead(m string) string { return ptBinaryHead(m) }

// mailDir lists the files of dir, sorted.
func mailDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// mailSeries makes the commits of tc: base holds tc.base, then a
// commit of its own, then tc's commit, then another of its own, so
// that tc's commit is the middle one of a series of three.
func (r *patchRepo) mailSeries(tc mailCase) (base, commit, tip string) {
	r.t.Helper()
	for p, f := range tc.base {
		r.write(p, f.mode, []byte(f.content))
	}
	r.git(nil, "add", "-A")
	r.git(nil, "commit", "-q", "--allow-empty", "-m", "Base")
	base = r.head()
	r.write("series/before.txt", ModeRegular, []byte("before\n"))
	r.git(nil, "add", "-A")
	r.git(nil, "commit", "-q", "-m", "Prepare the series")
	for p, f := range tc.next {
		os.Remove(filepath.Join(r.dir, filepath.FromSlash(p)))
		if f != nil {
			r.write(p, f.mode, []byte(f.content))
		}
	}
	author, date := tc.author, tc.date
	if author == "" {
		author = "A U Thor <author@example.com>"
	}
	if date == "" {
		date = "2005-04-07T22:13:13+0200"
	}
	r.git(nil, "add", "-A")
	r.git([]byte(tc.message), "commit", "-q", "--author="+author, "--date="+date, "-F", "-")
	commit = r.head()
	r.write("series/after.txt", ModeRegular, []byte("after\n"))
	r.git(nil, "add", "-A")
	r.git(nil, "commit", "-q", "-m", "Finish the series")
	return base, commit, r.head()
}

func (r *patchRepo) head() string {
	r.t.Helper()
	return strings.TrimSpace(string(r.git(nil, "rev-parse", "HEAD")))
}

// mailCommit is what FormatMail needs of a commit, read back from git.
type mailCommit struct {
	id, author, message string
	date                time.Time
}

func (c mailCommit) mailOptions(n, total int) MailOptions {
	return MailOptions{Commit: c.id, Author: c.author, Date: c.date, Message: c.message, N: n, Total: total, Signature: mcSignature}
}

// readCommit parses the author line and message of a commit object.
func (r *patchRepo) readCommit(id string) mailCommit {
	r.t.Helper()
	raw := string(r.git(nil, "cat-file", "commit", id))
	header, message, _ := strings.Cut(raw, "\n\n")
	c := mailCommit{id: id, message: message}
	for _, l := range strings.Split(header, "\n") {
		rest, ok := strings.CutPrefix(l, "author ")
		if !ok {
			continue
		}
		gt := strings.LastIndexByte(rest, '>')
		c.author = rest[:gt+1]
		f := strings.Fields(rest[gt+1:])
		ts, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			r.t.Fatalf("author line %q: %v", l, err)
		}
		hh, _ := strconv.Atoi(f[1][1:3])
		mm, _ := strconv.Atoi(f[1][3:5])
		off := hh*3600 + mm*60
		if f[1][0] == '-' {
			off = -off
		}
		c.date = time.Unix(ts, 0).In(time.FixedZone("", off))
	}
	return c
}

// commitChanges builds the FileChanges of a commit, in git's order,
// from `git diff-tree -M` and the blobs it names.
func (r *patchRepo) commitChanges(commit string) []FileChange {
	r.t.Helper()
	fields := strings.Split(string(r.git(nil, "diff-tree", "-r", "-M", "-z", "--no-commit-id", commit+"^", commit)), "\x00")
	var changes []FileChange
	for i := 0; i+1 < len(fields); {
		meta := strings.Fields(strings.TrimPrefix(fields[i], ":"))
		oldMode, _ := strconv.ParseUint(meta[0], 8, 32)
		newMode, _ := strconv.ParseUint(meta[1], 8, 32)
		status := meta[4][:1]
		c := FileChange{OldMode: Mode(oldMode), NewMode: Mode(newMode)}
		switch status {
		case "A":
			c.NewPath = fields[i+1]
		case "D":
			c.OldPath = fields[i+1]
		case "R":
			c.OldPath, c.NewPath = fields[i+1], fields[i+2]
			i++
		default:
			c.OldPath, c.NewPath = fields[i+1], fields[i+1]
		}
		i += 2
		if c.OldPath != "" {
			c.Old = r.git(nil, "cat-file", "blob", meta[2])
		}
		if c.NewPath != "" {
			c.New = r.git(nil, "cat-file", "blob", meta[3])
		}
		changes = append(changes, c)
	}
	return changes
}

// TestFormatMailGitAm writes a series with FormatMail under
// FileName names and requires `git am` on a clone of the base to
// rebuild the same trees, messages and authors. No body line here has
// the shape of an mbox separator ("From x Mon Sep 17 00:00:00 2001"):
// git mailsplit would cut the mail there, as it does git's own.
func TestFormatMailGitAm(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	bin := "\x00\x01\x02binary\x00data" + strings.Repeat("\xff\xfe", 100)
	steps := []mailCase{
		{author: "Jörg Müller <joerg@example.com>", date: "2011-06-01T10:00:00+0200",
			next:    map[string]*mailFile{"a.txt": mfText(ptEdit(ptLines20, 3, "drei")), "é t.txt": mfText("neu\n")},
			message: "Überarbeite die Größe\n\nFrom the start: a body line that begins with From.\n\nLLM-Edit-Format: udiff\n"},
		{author: `A. U. "Tom" Thor <thor@example.com>`, date: "2012-01-02T03:04:05-0700",
			next: map[string]*mailFile{"a.txt": nil, "moved/a.txt": {mode: ModeExec, content: ptEdit(ptLines20, 3, "drei")},
				"b.bin": mfText(bin + "changed"), "new.bin": mfText("n\x00w"), "ln": {mode: ModeSymlink, content: "a.txt"}},
			message: "Move a.txt, change the blobs and replace ln with a symlink\n\nSeveral kinds of change at once.\n\nLLM-Edit-Format: whole\n"},
		{next: map[string]*mailFile{"gone.txt": nil},
			message: "Remove gone.txt because it is no longer needed by anything in this tree\n\n" +
				"Remove gone.txt because it is no longer needed by anything in this tree at all, not even the tests\n\nLLM-Edit-Format: search-replace\n"},
	}

	r := newPatchRepo(t)
	r.write("a.txt", ModeRegular, []byte(ptLines20))
	r.write("b.bin", ModeRegular, []byte(bin))
	r.write("gone.txt", ModeRegular, []byte("bye\n"))
	r.write("ln", ModeRegular, []byte("was a file\n"))
	r.git(nil, "add", "-A")
	r.git(nil, "commit", "-q", "-m", "Base")
	base := r.head()
	dir := t.TempDir()
	for i, s := range steps {
		for p, f := range s.next {
			os.Remove(filepath.Join(r.dir, filepath.FromSlash(p)))
			if f != nil {
				r.write(p, f.mode, []byte(f.content))
			}
		}
		r.git(nil, "add", "-A")
		args := []string{"commit", "-q", "-F", "-"}
		if s.author != "" {
			args = append(args, "--author="+s.author, "--date="+s.date)
		}
		r.git([]byte(s.message), args...)
		mail, message := r.ourMail(r.head(), i+1, len(steps))
		if err := os.WriteFile(filepath.Join(dir, FileName(i+1, message)), mail, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	clone := &patchRepo{&scratch.Repo{T: t, Dir: t.TempDir(), Home: r.Home, Env: r.Env}, t, ""}
	clone.dir = clone.Dir
	clone.git(nil, "clone", "-q", "--no-checkout", r.dir, ".")
	clone.git(nil, "checkout", "-q", "-b", "am", base)
	names := mailDir(t, dir)
	args := []string{"am"}
	for _, n := range names {
		args = append(args, filepath.Join(dir, n))
	}
	am := exec.Command("git", args...)
	am.Dir, am.Env = clone.dir, clone.Env
	if out, err := am.CombinedOutput(); err != nil { // git am explains on stdout
		t.Fatalf("git am: %v\n%s", err, out)
	}

	for _, q := range []string{"HEAD^{tree}", "HEAD~1^{tree}", "HEAD~2^{tree}"} {
		if got, want := clone.git(nil, "rev-parse", q), r.git(nil, "rev-parse", q); !bytes.Equal(got, want) {
			t.Errorf("git am gives %s %s, want %s", q, got, want)
		}
	}
	for _, format := range []string{"%B", "%an <%ae> %ad"} {
		got := clone.git(nil, "log", "--date=raw", "--format="+format, base+"..HEAD")
		want := r.git(nil, "log", "--date=raw", "--format="+format, base+"..HEAD")
		if !bytes.Equal(got, want) {
			t.Errorf("git log --format=%s after git am:\n%s\nwant:\n%s", format, got, want)
		}
	}
}

func TestPatchFileNameMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	subjects := []string{
		"Fix: the bug (really!) in foo.c",
		"...leading dots",
		".hidden file handling",
		"Über straße café",
		"a very long subject line that goes on and on and on for more than sixty four characters in total",
		"trailing dots...",
		"trailing dash -",
		"multiple...dots....here",
		"under_score and CamelCase 123",
		"---",
		"ééé",
		"x--y__z..w",
		"abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij",
		"abcdefghij abcdefghij abcdefghij abcdefghij abcdefghi. cdefghij",
		"abcdefghij abcdefghij abcdefghij abcdefghij abcdefghij-cdefghij",
		"abcdefghij abcdefghij abcdefghij abcdefghij abcdefghi.. x",
		"\n\n  \nAfter blank lines\nand a second subject line\n\nbody",
		"tabs\tand\rcarriage returns",
		"[PATCH] already prefixed: v2",
	}
	r := newPatchRepo(t)
	r.git(nil, "commit", "-q", "--allow-empty", "-m", "Base")
	base := r.head()
	for i, s := range subjects {
		r.write("f.txt", ModeRegular, []byte(strconv.Itoa(i)))
		r.git(nil, "add", "-A")
		r.git([]byte(s), "commit", "-q", "--cleanup=verbatim", "-F", "-")
	}
	out := filepath.Join(t.TempDir(), "out")
	r.git(nil, "format-patch", "-q", "-o", out, base+"..HEAD")
	names := mailDir(t, out)
	if len(names) != len(subjects) {
		t.Fatalf("git wrote %d patches, want %d", len(names), len(subjects))
	}
	for i, s := range subjects {
		if got := FileName(i+1, s); got != names[i] {
			t.Errorf("FileName(%d, %q) = %q, git names it %q", i+1, s, got, names[i])
		}
	}
	if got := FileName(12345, "Big"); got != "12345-Big.patch" {
		t.Errorf("FileName(12345) = %q", got)
	}
}

func TestDiffstatRenameName(t *testing.T) {
	for _, tc := range []struct{ a, b, want string }{
		{"a", "b", "a => b"},
		{"docs/readme.txt", "docs/README.txt", "docs/{readme.txt => README.txt}"},
		{"src/foo/bar/file.c", "src/foo/baz/file.c", "src/foo/{bar => baz}/file.c"},
		{"x/file.c", "y/file.c", "{x => y}/file.c"},
		{"dir/f", "f", "dir/f => f"},
		{"f", "dir/f", "f => dir/f"},
		{"a/b/c", "a/b/d/c", "a/b/{ => d}/c"},
		{"a/b/d/c", "a/b/c", "a/b/{d => }/c"},
		{"a/b", "a/b/b", "a/{ => b}/b"},
		{"top.txt", "other.txt", "top.txt => other.txt"},
		{"é t.txt", "ü.txt", `"\303\251 t.txt" => "\303\274.txt"`},
		{"plain", "naïve", `plain => "na\303\257ve"`},
	} {
		if got := renameName(tc.a, tc.b); got != tc.want {
			t.Errorf("renameName(%q, %q) = %q, want %q", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestDiffstatWidthsMatchGit checks the name shortening and graph
// scaling at widths other than the mail's against `git diff --stat`.
func TestDiffstatWidthsMatchGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	tc := mailCases()
	var c mailCase
	for _, x := range tc {
		if x.name == "graph scaling" {
			c = x
		}
	}
	c.next["very/long/directory/name/that/goes/on/and/on/forever/and/ever/some_file_name.txt"] = mfText("l\n")
	c.next["bin.dat"] = mfText("\x00" + strings.Repeat("x", 12345))
	r := newPatchRepo(t)
	_, commit, _ := r.mailSeries(c)
	pairs := diffPairs(r.commitChanges(commit))
	for _, width := range []int{10, 30, 40, 60, 72, 80, 100, 200} {
		var got bytes.Buffer
		writeDiffstat(&got, statFiles(pairs), width)
		want := r.git(nil, "diff", "-M", fmt.Sprintf("--stat=%d", width), commit+"^", commit)
		if got.String() != string(want) {
			t.Errorf("width %d: diffstat differs from git\n--- ours\n%s--- git\n%s", width, got.String(), want)
		}
	}
}

func TestFormatMailEmpty(t *testing.T) {
	o := MailOptions{Author: "A <a@b>", Date: time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC), Message: "Nothing\n", Signature: "sig"}
	got, err := FormatMail(nil, nil, o)
	if err != nil {
		t.Fatal(err)
	}
	want := "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n" +
		"From: A <a@b>\nDate: Thu, 2 Jan 2020 03:04:05 +0000\nSubject: [PATCH] Nothing\n\n-- \nsig\n\n"
	if string(got) != want {
		t.Errorf("FormatMail with no changes = %q, want %q", got, want)
	}
	o.Signature = ""
	got, _ = FormatMail(nil, nil, o)
	if want := strings.TrimSuffix(want, "-- \nsig\n\n"); string(got) != want {
		t.Errorf("FormatMail without signature = %q, want %q", got, want)
	}
}

func TestFormatMailErrors(t *testing.T) {
	good := MailOptions{Author: "A <a@b>", Date: time.Unix(1, 0), Message: "m\n"}
	changes := ptMod("f", "a\n", "b\n")
	patch, err := Format(changes, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FormatMail(patch, changes, good); err != nil {
		t.Fatalf("FormatMail(good) = %v", err)
	}
	for name, tc := range map[string]struct {
		edit     func(*MailOptions)
		patch    []byte
		changes  []FileChange
		mismatch bool
	}{
		"short commit":   {edit: func(o *MailOptions) { o.Commit = "abc123" }},
		"upper commit":   {edit: func(o *MailOptions) { o.Commit = strings.Repeat("A", 40) }},
		"no address":     {edit: func(o *MailOptions) { o.Author = "A" }},
		"open address":   {edit: func(o *MailOptions) { o.Author = "A <a@b" }},
		"no date":        {edit: func(o *MailOptions) { o.Date = time.Time{} }},
		"n beyond total": {edit: func(o *MailOptions) { o.N, o.Total = 4, 3 }},
		"n zero":         {edit: func(o *MailOptions) { o.N, o.Total = 0, 3 }},
		"negative total": {edit: func(o *MailOptions) { o.Total = -1 }},
		"bad change":     {changes: []FileChange{{}}},
		"missing patch":  {patch: []byte{}, mismatch: true},
		"extra section":  {patch: append(append([]byte{}, patch...), patch...), mismatch: true},
	} {
		o := good
		if tc.edit != nil {
			tc.edit(&o)
		}
		p, c := patch, changes
		if tc.patch != nil {
			p = tc.patch
		}
		if tc.changes != nil {
			c = tc.changes
		}
		_, err := FormatMail(p, c, o)
		switch {
		case err == nil:
			t.Errorf("%s: FormatMail accepted it", name)
		case strings.HasPrefix(err.Error(), "patch: "):
			t.Errorf("%s: error %q carries a package prefix", name, err)
		case tc.mismatch && !strings.Contains(err.Error(), ErrMismatch.Error()):
			t.Errorf("%s: error %v, want ErrMismatch", name, err)
		}
	}
	for _, o := range []MailOptions{
		{Author: "<a@b>", Date: time.Unix(1, 0), N: 1, Total: 1, Commit: strings.Repeat("a", 64)},
		{Author: "A <a@b>", Date: time.Unix(1, 0), N: 0, Total: 0},
	} {
		if err := o.Validate(); err != nil {
			t.Errorf("Validate(%+v) = %v", o, err)
		}
	}
}

func TestFormatMailDate(t *testing.T) {
	for _, tc := range []struct {
		t    time.Time
		want string
	}{
		{time.Date(2001, 2, 3, 4, 5, 6, 0, time.FixedZone("", 90*60)), "Sat, 3 Feb 2001 04:05:06 +0130"},
		{time.Date(2024, 12, 31, 23, 59, 59, 0, time.FixedZone("", -(9*3600+30*60))), "Tue, 31 Dec 2024 23:59:59 -0930"},
		{time.Date(1999, 10, 10, 10, 10, 10, 0, time.UTC), "Sun, 10 Oct 1999 10:10:10 +0000"},
		// A zone with seconds is cut to the minute, the wall clock with it.
		{time.Date(1880, 1, 1, 12, 0, 0, 0, time.FixedZone("LMT", 561)), "Thu, 1 Jan 1880 11:59:39 +0009"},
	} {
		if got := rfc2822Date(tc.t); got != tc.want {
			t.Errorf("rfc2822Date(%v) = %q, want %q", tc.t, got, tc.want)
		}
	}
}
