package index

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// longPath is longer than the 4095 bytes an entry's name length field
// holds; it only exists in the index (the file system refuses paths
// that long), added with update-index --cacheinfo.
var longPath = strings.Repeat(strings.Repeat("d", 200)+"/", 22) + "long.txt"

// indexFixture makes a repository whose index holds every kind of
// entry: files, an executable, a symbolic link, a submodule, non-ASCII
// names, a name longer than 4095 bytes, enough entries for several
// marks of a version 4 index; with unusual, also a real merge conflict
// (stages 1 to 3 for one path, 2 and 3 for another), an intent-to-add
// entry and a skip-worktree one. It returns the intent-to-add paths.
func indexFixture(t *testing.T, unusual bool) (*testRepo, []string) {
	tr := newFixture(t)
	for i := range 150 {
		tr.write("many/f"+strconv.Itoa(i)+".txt", strconv.Itoa(i)+"\n", 0o644)
	}
	tr.write("héllo/wörld.txt", "w\n", 0o644)
	tr.write("日本語.txt", "j\n", 0o644)
	tr.git("add", "-A")
	tr.git("update-index", "--add", "--cacheinfo", "100644,"+tr.git("rev-parse", ":a.txt")+","+longPath)
	tr.git("commit", "-q", "-m", "more")
	if !unusual {
		return tr, nil
	}
	tr.git("checkout", "-q", "-b", "other")
	tr.write("a.txt", "theirs\n", 0o644)
	tr.write("both.txt", "theirs\n", 0o644)
	tr.git("add", "-A")
	tr.git("commit", "-q", "-m", "theirs")
	tr.git("checkout", "-q", "main")
	tr.write("a.txt", "ours\n", 0o644)
	tr.write("both.txt", "ours\n", 0o644)
	tr.git("add", "-A")
	tr.git("commit", "-q", "-m", "ours")
	cmd := exec.Command("git", "merge", "-q", "other")
	cmd.Dir, cmd.Env = tr.dir, tr.env
	if out, err := cmd.CombinedOutput(); err == nil {
		t.Fatalf("setup: the merge did not conflict:\n%s", out)
	}
	if out := tr.git("ls-files", "-u"); strings.Count(out, "\n") != 4 {
		t.Fatalf("setup: ls-files -u:\n%s", out)
	}
	tr.write("ita.txt", "intent\n", 0o644)
	tr.write("many/ita.txt", "intent\n", 0o644)
	tr.git("add", "-N", "ita.txt", "many/ita.txt")
	tr.git("update-index", "--skip-worktree", "dir/b.txt", "many/f7.txt")
	return tr, []string{"ita.txt", "many/ita.txt"}
}

// checkIndex requires idx to hold what `git ls-files -s --debug` lists
// for the index at indexFile: each path once, in order, with the mode,
// id and size of its last stage, unmerged when a stage is not 0;
// intent-to-add for ita alone. Paths between and around them must not be found.
func checkIndex(t *testing.T, tr *testRepo, idx *Index, indexFile string, ita []string) {
	t.Helper()
	// With --debug, each record's stat data follows its NUL, ending
	// with the line of its size and flags.
	out := tr.gitEnv(tr.dir, []string{"GIT_INDEX_FILE=" + indexFile}, "", "ls-files", "-s", "--debug", "-z")
	parts := strings.Split(out, "\x00")
	var want []listedEntry
	for i, rec := range parts[:len(parts)-1] {
		if i > 0 {
			rec = rec[strings.Index(rec, "\n  size: "):]
			rec = rec[strings.IndexByte(rec[1:], '\n')+2:]
		}
		meta, path, _ := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		mode, _ := strconv.ParseUint(f[0], 8, 32)
		debug := parts[i+1]
		size, _ := strconv.ParseUint(strings.Fields(debug[strings.Index(debug, "\n  size: ")+9:])[0], 10, 32)
		e := Entry{Mode: patch.Mode(mode), Unmerged: f[2] != "0", IntentToAdd: slices.Contains(ita, path), Size: uint32(size)}
		copy(e.ID[:], mustHex(t, f[1]))
		if n := len(want); n > 0 && want[n-1].path == path {
			e.Unmerged = true
			want[n-1].e = e
			continue
		}
		want = append(want, listedEntry{path, e})
	}
	var got []listedEntry
	for p, e := range idx.All() {
		got = append(got, listedEntry{p, e})
	}
	if !slices.Equal(got, want) {
		t.Errorf("entries differ from git ls-files -s:\n got %v\nwant %v", got, want)
	}
	if paths := idx.Paths(); len(paths) != len(want) {
		t.Errorf("paths() lists %d paths, want %d", len(paths), len(want))
	}
	for _, w := range want {
		if e, ok := idx.Lookup(w.path); !ok || e != w.e {
			t.Errorf("lookup(%q) = %+v, %v, want %+v", shorten(w.path), e, ok, w.e)
		}
		for _, p := range []string{w.path + "\x00", w.path + "/", w.path[:len(w.path)-1], w.path + "~"} {
			if _, ok := idx.Lookup(p); ok && !slices.ContainsFunc(want, func(l listedEntry) bool { return l.path == p }) {
				t.Errorf("lookup(%q) found an entry", shorten(p))
			}
		}
	}
	for _, p := range []string{"", "!", "dir", "many/", "\xff\xff"} {
		if _, ok := idx.Lookup(p); ok {
			t.Errorf("lookup(%q) found an entry", p)
		}
	}
}

func mustHex(t *testing.T, s string) []byte {
	t.Helper()
	var b []byte
	for i := 0; i+1 < len(s); i += 2 {
		v, err := strconv.ParseUint(s[i:i+2], 16, 8)
		if err != nil {
			t.Fatal(err)
		}
		b = append(b, byte(v))
	}
	return b
}

func TestReadIndexMatchesGit(t *testing.T) {
	tests := []struct {
		name    string
		unusual bool
		setup   []string // a git command run before reading
		format  uint32   // the version of the file read; 0: git lists it
	}{
		// git writes version 3 when an entry needs extended flags...
		{"v2", false, []string{"update-index", "--index-version", "2"}, 2},
		// and version 2 when none does.
		{"v3", false, []string{"update-index", "--index-version", "3"}, 2},
		{"v4", false, []string{"update-index", "--index-version", "4"}, 4},
		{"v2 unusual", true, []string{"update-index", "--index-version", "2"}, 3},
		{"v3 unusual", true, []string{"update-index", "--index-version", "3"}, 3},
		{"v4 unusual", true, []string{"update-index", "--index-version", "4"}, 4},
		{"split", true, []string{"update-index", "--split-index"}, 0},
		{"split v4", true, []string{"-c", "index.version=4", "update-index", "--split-index"}, 0},
		{"sparse", false, []string{"sparse-checkout", "set", "--cone", "--sparse-index", "dir"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tr, ita := indexFixture(t, tc.unusual)
			if tc.name == "sparse" {
				// sparse-checkout refuses unmerged paths: no conflict
				// here, but an intent-to-add entry and skip-worktree
				// ones (all outside the cone).
				tr.write("ita.txt", "intent\n", 0o644)
				tr.git("add", "-N", "ita.txt")
				ita = []string{"ita.txt"}
			}
			tr.git(tc.setup...)
			file := filepath.Join(tr.dir, ".git", "index")
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			_, perr := parseIndex(data)
			if v := binary.BigEndian.Uint32(data[4:]); tc.format != 0 && (v != tc.format || perr != nil) {
				t.Fatalf("version %d file: %v", v, perr)
			} else if tc.format == 0 && !errors.As(perr, new(*layered)) {
				t.Fatalf("parseIndex = %v, want a layered error", perr)
			}
			// No git runs here: a sparse directory's files come from
			// the object store.
			gitDir := filepath.Join(tr.dir, ".git")
			idx, err := Open(file, gitDir, storeFiles(gitDir))
			if err != nil {
				t.Fatal(err)
			}
			if tc.format == 4 && len(idx.marks) < 3 {
				t.Fatalf("setup: only %d marks", len(idx.marks))
			}
			checkIndex(t, tr, idx, file, ita)
			if tc.name == "sparse" {
				if e, ok := idx.Lookup("other/deep/y.txt"); !ok || e.Mode != patch.ModeRegular {
					t.Error("a file of a sparse directory is not found")
				}
				if _, ok := idx.Lookup(longPath); !ok {
					t.Error("the long path, in a sparse directory, is not found")
				}
			}
		})
	}
}

// TestReadSplitIndexChanged reads split indexes whose own entries
// replace, delete and add to those of the shared index, conflict
// stages and intent-to-add included, without git, and compares each
// with what git lists.
func TestReadSplitIndexChanged(t *testing.T) {
	tr, _ := indexFixture(t, false)
	tr.git("config", "splitIndex.maxPercentChange", "100") // keep the shared index
	tr.git("update-index", "--split-index")
	file := filepath.Join(tr.dir, ".git", "index")
	gitDir := filepath.Join(tr.dir, ".git")
	id := tr.git("rev-parse", ":a.txt")
	steps := []struct {
		name string
		args []string
		ita  []string
	}{
		{"replaced", []string{"update-index", "--cacheinfo", "100755," + id + ",many/f3.txt"}, nil},
		{"deleted", []string{"update-index", "--force-remove", "many/f4.txt", "dir/b.txt"}, nil},
		{"added", []string{"update-index", "--add", "--cacheinfo", "100644," + id + ",many/f3a.txt"}, nil},
		{"conflict", []string{"update-index", "--index-info"}, nil},
		{"intent to add", []string{"add", "-N", "new-ita.txt"}, []string{"new-ita.txt"}},
		{"conflict resolved", []string{"update-index", "--add", "--cacheinfo", "100644," + id + ",many/f5.txt"}, []string{"new-ita.txt"}},
	}
	tr.write("new-ita.txt", "intent\n", 0o644)
	for _, st := range steps {
		if st.name == "conflict" {
			tr.gitEnv(tr.dir, nil, "0 "+strings.Repeat("0", 40)+"\tmany/f5.txt\n"+
				"100644 "+id+" 1\tmany/f5.txt\n100644 "+id+" 2\tmany/f5.txt\n100644 "+id+" 3\tmany/f5.txt\n", st.args...)
		} else {
			tr.git(st.args...)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := parseIndex(data); !errors.As(err, new(*layered)) {
			t.Fatalf("%s: the index is no longer split (%v)", st.name, err)
		}
		idx, err := Open(file, gitDir, storeFiles(gitDir))
		if err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		checkIndex(t, tr, idx, file, st.ita)
	}
}

func TestReadIndexMissing(t *testing.T) {
	tr := newTestRepo(t)
	gitDir := filepath.Join(tr.dir, ".git")
	idx, err := Open(filepath.Join(gitDir, "index"), gitDir, storeFiles(gitDir))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := idx.Lookup("a"); ok || len(idx.Paths()) != 0 {
		t.Errorf("a missing index has entries: %v", idx.Paths())
	}
}

// parseIndex reads an index file held in memory.
func parseIndex(data []byte) (*Index, error) {
	return newIndex(bytes.NewReader(data), int64(len(data)))
}

// cleanIndex returns the fixture's index without extensions (written by
// update-index --index-info, which makes no cache tree), in version v,
// and where its last entry starts.
func cleanIndex(t *testing.T, tr *testRepo, v string) ([]byte, int) {
	t.Helper()
	file := filepath.Join(t.TempDir(), "index")
	env := []string{"GIT_INDEX_FILE=" + file}
	want := tr.git("ls-files", "-s")
	tr.gitEnv(tr.dir, env, want+"\n", "update-index", "--index-info")
	tr.gitEnv(tr.dir, env, "", "update-index", "--index-version", v)
	if got := tr.gitEnv(tr.dir, env, "", "ls-files", "-s"); got != want {
		t.Fatal("setup: the index differs")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := parseIndex(data)
	if err != nil {
		t.Fatalf("v%s: %v", v, err)
	}
	last := 0
	if _, err := idx.walk(idx.end, func(_, off int, _, _ []byte) error { last = off; return nil }); err != nil {
		t.Fatal(err)
	}
	return data, last
}

// withExtension appends an extension of size bytes, body (possibly
// shorter) and a checksum, left zero.
func withExtension(data []byte, sig string, size int, body string) []byte {
	out := slices.Clone(data[:len(data)-checksumSize])
	out = append(out, sig...)
	out = binary.BigEndian.AppendUint32(out, uint32(size))
	out = append(out, body...)
	return append(out, make([]byte, checksumSize)...)
}

func TestParseIndexCorrupt(t *testing.T) {
	tr, _ := indexFixture(t, false)
	for _, v := range []string{"2", "3", "4"} {
		data, last := cleanIndex(t, tr, v)
		// With no extension, any cut leaves the last entry running into
		// what is taken as the checksum.
		for n := range len(data) {
			if _, err := parseIndex(data[:n]); err == nil {
				t.Fatalf("v%s cut to %d of %d bytes: no error", v, n, len(data))
			}
		}
		set := func(off int, b ...byte) []byte {
			c := slices.Clone(data)
			copy(c[off:], b)
			return c
		}
		noNUL := set(last+flagsAt, 0x0f, 0xff)
		name := last + nameAt
		if v == "4" {
			name++ // the prefix length, 0 to 127
		}
		for i := name; i < len(noNUL); i++ {
			noNUL[i] = 'x'
		}
		first := headerSize // "a.txt", stage 0, no extended flags
		count := binary.BigEndian.Uint32(data[8:])
		type corruption struct {
			name string
			data []byte
			want string // in the error; "" for none
		}
		tests := []corruption{
			{"signature", set(0, 'D', 'I', 'R', 'X'), "DIRC"},
			{"version 1", set(4, 0, 0, 0, 1), "version 1"},
			{"version 5", set(4, 0, 0, 0, 5), "version 5"},
			{"entry count", set(8, 0xff, 0xff, 0xff, 0xff), "4294967295 entries"},
			{"entry count+1", set(8, binary.BigEndian.AppendUint32(nil, count+1)...), "runs past"},
			{"entry count-1", set(8, binary.BigEndian.AppendUint32(nil, count-1)...), "extension"},
			{"name without NUL", noNUL, fmt.Sprintf("entry %d runs past", count-1)},
			{"name too long", set(last+flagsAt, 0x0f, 0xfe), fmt.Sprintf("entry %d", count-1)},
			{"extended flags", set(first+flagsAt, 0x40, 0x05, 0x80, 0), "entry 0 has unknown extended flags 0x8000"},
			{"directory entry", set(first+modeAt, 0, 0, 0x40, 0), "sparse index"},
			{"optional extension", withExtension(data, "ZZZZ", 5, "cache"), ""},
			{"short tail", append(slices.Clone(data[:len(data)-checksumSize]), "TREE123"+strings.Repeat("\x00", checksumSize)...), ""},
			{"mandatory extension", withExtension(data, "abcd", 0, ""), `"abcd" extension`},
			{"extension size", withExtension(data, "TREE", 1000, "x"), `"TREE" runs past`},
			{"split index", withExtension(data, "link", 20, strings.Repeat("\x00", 20)), "split index"},
			{"sparse index extension", withExtension(data, "sdir", 0, ""), ""},
		}
		if v == "4" {
			tests = append(tests,
				corruption{"prefix longer than the previous name", set(first+nameAt, 5), "entry 0 drops 5 bytes of a 0-byte name"},
				corruption{"name length", set(first+flagsAt, 0, 1), "entry 0 has a malformed name"},
				corruption{"varint", set(first+nameAt, 0x80), "entry 0 drops 225 bytes"},
			)
		}
		for _, tc := range tests {
			_, err := parseIndex(tc.data)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("v%s %s: %v", v, tc.name, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("v%s %s: %v, want an error with %q", v, tc.name, err, tc.want)
			}
		}
	}
}

// TestReadIndexLarge reads indexes larger than the window of the
// sequential passes, with names longer than the window, and the stages
// of an unmerged path on both sides of a mark.
func TestReadIndexLarge(t *testing.T) {
	tr := newTestRepo(t)
	id := tr.gitEnv(tr.dir, nil, "x\n", "hash-object", "-w", "--stdin")
	var info strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&info, "100644 %s 0\tp/%04d\n", id, i)
	}
	// Entries 31, 32 and 33: the mark at entry 32 is the middle stage.
	fmt.Fprintf(&info, "0 %s 0\tp/0031\n", strings.Repeat("0", 40))
	for stage := 1; stage <= 3; stage++ {
		fmt.Fprintf(&info, "100644 %s %d\tp/0031\n", id, stage)
	}
	for _, n := range []int{5000, windowSize + 5000} {
		fmt.Fprintf(&info, "100755 %s 0\tq/%s\n", id, strings.Repeat("d/", n/2))
	}
	for _, v := range []string{"2", "4"} {
		t.Run("v"+v, func(t *testing.T) {
			file := filepath.Join(t.TempDir(), "index")
			env := []string{"GIT_INDEX_FILE=" + file}
			tr.gitEnv(tr.dir, env, info.String(), "update-index", "--index-info")
			tr.gitEnv(tr.dir, env, "", "update-index", "--index-version", v)
			gitDir := filepath.Join(tr.dir, ".git")
			idx, err := Open(file, gitDir, storeFiles(gitDir))
			if err != nil {
				t.Fatal(err)
			}
			defer idx.Close()
			if fi, err := os.Stat(file); err != nil || fi.Size() < 2*windowSize {
				t.Fatalf("setup: the index is not larger than the window: %v", err)
			}
			if len(idx.marks) < 3 || string(idx.markName(1)) != "p/0031" {
				t.Fatalf("setup: the second mark is not in the middle of p/0031's stages")
			}
			checkIndex(t, tr, idx, file, nil)
			if err := idx.Err(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestNewIndexShrunk: a file that ends before the size it had when
// opened has changed meanwhile (when what is gone was to be read: not
// the checksum).
func TestNewIndexShrunk(t *testing.T) {
	tr, _ := indexFixture(t, false)
	for _, v := range []string{"2", "4"} {
		data, last := cleanIndex(t, tr, v)
		for _, n := range []int{headerSize + 1, last + 1} {
			if _, err := newIndex(bytes.NewReader(data[:n]), int64(len(data))); !errors.Is(err, errIndexChanged) {
				t.Errorf("v%s: %d of %d bytes: %v, want errIndexChanged", v, n, len(data), err)
			}
		}
	}
}

// FuzzReadIndex feeds parseIndex arbitrary bytes, from indexes git
// wrote in each version: no panic, and no allocation beyond what the
// file's size allows, whatever its header claims; nor when the bytes
// change after they were checked.
func FuzzReadIndex(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00" + strings.Repeat("\x00", 20)))
	f.Add([]byte("DIRC\x00\x00\x00\x04\xff\xff\xff\xff" + strings.Repeat("\x00", 100)))
	dir := f.TempDir()
	env := append(scratch.Env(dir), "GIT_INDEX_FILE="+filepath.Join(dir, "index"))
	git := func(stdin string, args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(stdin)
		if out, err := cmd.CombinedOutput(); err != nil {
			f.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	git("", "init", "-q")
	id := strings.Repeat("1234567890", 4)
	git("100644 "+id+" 0\ta\n100755 "+id+" 1\tb/c\n120000 "+id+" 2\tb/c\n160000 "+id+" 0\tb/d\n"+
		"100644 "+id+" 0\t"+strings.Repeat("x/", 2100)+"y\n", "update-index", "--index-info")
	if err := os.WriteFile(filepath.Join(dir, "ita"), nil, 0o644); err != nil {
		f.Fatal(err)
	}
	git("", "add", "-N", "ita")
	git("", "update-index", "--skip-worktree", "a")
	for _, v := range []string{"2", "3", "4"} {
		git("", "update-index", "--index-version", v)
		data, err := os.ReadFile(filepath.Join(dir, "index"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		idx, err := parseIndex(data)
		if err != nil {
			return
		}
		if len(idx.marks) > len(data)/minEntrySize+1 || len(idx.markNames) > len(data) {
			t.Fatalf("%d marks and %d bytes of names for %d bytes", len(idx.marks), len(idx.markNames), len(data))
		}
		var paths []string
		for p := range idx.All() {
			idx.Lookup(p)
			paths = append(paths, p)
		}
		idx.Lookup("b/c")
		if err := idx.Err(); err != nil {
			t.Fatalf("the bytes newIndex checked: %v", err)
		}
		// The file changes after it was opened (cut, its bytes changed,
		// shifted): whatever lookups find, no panic, and a cut before
		// the entries end is an error.
		flipped, shifted := slices.Clone(data), make([]byte, len(data))
		for i := headerSize; i < len(flipped); i++ {
			flipped[i] ^= byte(i)
		}
		copy(shifted, data[1:])
		cut := data[:len(data)/2]
		for _, changed := range []struct {
			data    []byte
			mustErr bool
		}{{cut, len(cut) < idx.end && idx.n > 0}, {flipped, false}, {shifted, false}} {
			idx.r, idx.failed = bytes.NewReader(changed.data), nil
			for p := range idx.All() {
				idx.Lookup(p)
			}
			if changed.mustErr && !errors.Is(idx.Err(), errIndexChanged) {
				t.Fatalf("all() on a file cut to %d of %d bytes: %v", len(cut), len(data), idx.Err())
			}
			idx.failed = nil
			for _, p := range paths {
				idx.Lookup(p)
			}
		}
	})
}

// TestReadIndexOfBenchmarkSize reads indexes of the benchmark's size
// (100,000 entries) in versions 2 and 4 and checks every entry against
// git ls-files -s, as the performance issue asks.
func TestReadIndexOfBenchmarkSize(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 100,000-entry indexes")
	}
	for _, v := range []string{"2", "4"} {
		file, _ := benchIndex(t, v)
		cmd := exec.Command("git", "ls-files", "-s", "-z")
		cmd.Dir, cmd.Env = filepath.Dir(file), append(scratch.Env(filepath.Dir(file)), "GIT_INDEX_FILE="+file)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		fi, _ := f.Stat()
		idx, err := newIndex(f, fi.Size())
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			meta, path, _ := strings.Cut(rec, "\t")
			fields := strings.Fields(meta)
			e, ok := idx.Lookup(path)
			if !ok || fmt.Sprintf("%06o %s %s", uint32(e.Mode), e.ID, fields[2]) != meta {
				t.Fatalf("v%s: %q: got %06o %s (found %v), git says %s", v, path, uint32(e.Mode), e.ID, ok, meta)
			}
			n++
		}
		if got := len(idx.Paths()); got != n || n != benchEntries {
			t.Errorf("v%s: %d paths, git lists %d, want %d", v, got, n, benchEntries)
		}
		idx.Close()
	}
}

// shorten cuts the long path down for messages.
func shorten(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:40] + "..."
}

// storeFiles lists the files of a tree as gitops does for a sparse
// index, reading the trees from the object store of gitDir.
func storeFiles(gitDir string) TreeFiles {
	s := odb.New(filepath.Join(gitDir, "objects"))
	var walk TreeFiles
	walk = func(id oid.ID, fn func(string, patch.Mode, oid.ID)) error {
		_, data, err := s.Read(id)
		if err != nil {
			return err
		}
		for len(data) > 0 {
			sp := bytes.IndexByte(data, ' ')
			nul := bytes.IndexByte(data, 0)
			if sp < 0 || nul < sp || len(data) < nul+21 {
				return fmt.Errorf("malformed tree %s", id)
			}
			mode, err := strconv.ParseUint(string(data[:sp]), 8, 32)
			if err != nil {
				return err
			}
			name := string(data[sp+1 : nul])
			var sub oid.ID
			copy(sub[:], data[nul+1:])
			data = data[nul+21:]
			if mode&0o170000 == 0o040000 {
				err := walk(sub, func(p string, m patch.Mode, id oid.ID) { fn(name+"/"+p, m, id) })
				if err != nil {
					return err
				}
				continue
			}
			fn(name, modeOf(uint32(mode)), sub)
		}
		return nil
	}
	return walk
}
