package gitops

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestAutoAbbrev(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		count uint64
		want  int
	}{
		{0, 7}, {1, 7}, {100, 7}, {16383, 7},
		{16384, 8}, {65535, 8},
		{65536, 9}, {262143, 9},
		{262144, 10}, {1 << 20, 11}, {1 << 32, 17}, {1<<64 - 1, 32},
	} {
		if got := autoAbbrev(c.count); got != c.want {
			t.Errorf("autoAbbrev(%d) = %d, want %d", c.count, got, c.want)
		}
	}
}

// TestParseAbbrevAsGit reads each core.abbrev value with parseAbbrev
// and has git read it too, for the length of `git rev-parse --short`
// in a repository of one object (7 for auto) or its refusal.
func TestParseAbbrevAsGit(t *testing.T) {
	t.Parallel()
	tr := newTestRepo(t)
	id := tr.gitEnv(tr.dir, nil, "x\n", "hash-object", "-w", "--stdin")
	for _, c := range []struct {
		value   string
		want    int // 0: auto
		wantErr string
	}{
		{value: "auto"}, {value: "AUTO"},
		{value: "4", want: 4}, {value: "12", want: 12}, {value: "39", want: 39}, {value: "40", want: 40},
		{value: "no", want: 40}, {value: "false", want: 40}, {value: "Off", want: 40}, {value: "", want: 40},
		{value: "0x10", want: 16}, {value: "010", want: 8}, {value: " 8", want: 8}, {value: "+9", want: 9},
		{value: "50", wantErr: "out of range: 50"}, {value: "41", wantErr: "out of range: 41"},
		{value: "3", wantErr: "out of range: 3"}, {value: "0", wantErr: "out of range: 0"},
		{value: "-5", wantErr: "out of range: -5"}, {value: "7k", wantErr: "out of range: 7168"},
		{value: "yes", wantErr: "invalid unit"}, {value: "true", wantErr: "invalid unit"},
		{value: "garbage", wantErr: "invalid unit"}, {value: "08", wantErr: "invalid unit"},
		{value: "0x", wantErr: "invalid unit"}, {value: "9 ", wantErr: "invalid unit"},
		{value: "k", wantErr: "invalid unit"}, {value: "-G", wantErr: "invalid unit"},
		{value: "99999999999", wantErr: "out of range"},
	} {
		n, auto, err := parseAbbrev(c.value)
		switch {
		case c.wantErr != "":
			if !errors.Is(err, ErrBadAbbrev) || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("parseAbbrev(%q) = %d, %v, %v; want an error saying %q", c.value, n, auto, err, c.wantErr)
			}
		case err != nil || auto != (c.want == 0) || !auto && n != c.want:
			t.Errorf("parseAbbrev(%q) = %d, %v, %v; want %d (0: auto)", c.value, n, auto, err, c.want)
		}

		cmd := exec.Command("git", "-c", "core.abbrev="+c.value, "rev-parse", "--short", id)
		cmd.Dir, cmd.Env = tr.dir, tr.env
		out, gitErr := cmd.Output()
		switch {
		case c.wantErr != "" && gitErr == nil:
			t.Errorf("git takes core.abbrev=%q (%s), parseAbbrev refuses it", c.value, out)
		case c.wantErr == "" && gitErr != nil:
			t.Errorf("git refuses core.abbrev=%q: %v", c.value, gitErr)
		case c.wantErr == "":
			want := max(c.want, fallbackAbbrev*btoi(c.want == 0))
			if got := len(strings.TrimSpace(string(out))); got != want {
				t.Errorf("git shows %d digits for core.abbrev=%q, the test expects %d", got, c.value, want)
			}
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// importBlobs writes n small blobs (the numbers from, from+1, ... on a
// line) into one pack with git fast-import.
func importBlobs(tr *testRepo, from, n int) {
	tr.t.Helper()
	var b strings.Builder
	for i := from; i < from+n; i++ {
		d := fmt.Sprintf("%d\n", i)
		fmt.Fprintf(&b, "blob\ndata %d\n%s\n", len(d), d)
	}
	tr.gitEnv(tr.dir, nil, b.String(), "fast-import", "--quiet")
}

// TestRepoAbbrevCountsPackedObjects checks the automatic length at the
// first threshold against git's own (`git rev-parse --short`): packed
// objects count, those of alternates too, and loose ones do not.
func TestRepoAbbrevCountsPackedObjects(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("writes 16583 objects twice")
	}
	packed := newTestRepo(t)
	importBlobs(packed, 0, 16383)
	checkAbbrev(t, packed, packed.dir, 7)
	// A second pack (fast-import leaves up to 100 objects loose):
	// the count is over all packs.
	importBlobs(packed, 16383, 200)
	checkAbbrev(t, packed, packed.dir, 8)

	alt := newTestRepo(t)
	objects := filepath.Join(alt.dir, ".git", "objects")
	if err := os.WriteFile(filepath.Join(objects, "info", "alternates"), []byte(filepath.Join(packed.dir, ".git", "objects")+"\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	checkAbbrev(t, alt, alt.dir, 8)

	// The same 16583 objects, the last 200 loose: 7 digits. (Loose at
	// the threshold rather than all 16583: writing that many files
	// takes minutes on a busy disk.)
	loose := newTestRepo(t)
	importBlobs(loose, 0, 16383)
	writeLooseBlobs(loose, 16383, 200)
	if n := len(loose.looseObjects()); n != 200 {
		t.Fatalf("%d loose objects, want 200", n)
	}
	checkAbbrev(t, loose, loose.dir, 7)
}

// writeLooseBlobs writes the blobs importBlobs would (the numbers from,
// from+1, ... on a line) as loose objects, as git stores them: zlib of
// "blob <size>\0" and the content at objects/<2 hex digits>/<38>.
func writeLooseBlobs(tr *testRepo, from, n int) {
	tr.t.Helper()
	var z bytes.Buffer
	for i := from; i < from+n; i++ {
		content := fmt.Sprintf("%d\n", i)
		sum := blobIDOf(content)
		id := hex.EncodeToString(sum[:])
		z.Reset()
		w := zlib.NewWriter(&z)
		fmt.Fprintf(w, "blob %d\x00%s", len(content), content)
		if err := w.Close(); err != nil {
			tr.t.Fatal(err)
		}
		dir := filepath.Join(tr.dir, ".git", "objects", id[:2])
		if err := os.MkdirAll(dir, 0o755); err != nil {
			tr.t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, id[2:]), z.Bytes(), 0o444); err != nil {
			tr.t.Fatal(err)
		}
	}
	last := blobIDOf(fmt.Sprintf("%d\n", from+n-1))
	tr.gitEnv(tr.dir, nil, "", "cat-file", "-e", hex.EncodeToString(last[:])) // git reads them
}

// checkAbbrev checks that Abbrev of the repository at dir is want, as
// git's for an object of it.
func checkAbbrev(t *testing.T, tr *testRepo, dir string, want int) {
	t.Helper()
	r := tr.open(dir)
	n, err := r.Abbrev()
	if err != nil || n != want {
		t.Fatalf("Abbrev() = %d, %v; want %d", n, err, want)
	}
	id := tr.gitEnv(dir, nil, "0\n", "hash-object", "--stdin") // the first imported blob
	if git := tr.gitAt(dir, "rev-parse", "--short", id); len(git) != want {
		t.Fatalf("git rev-parse --short gives %s, want %d digits", git, want)
	}
	if got := r.ShortID(id, n); len(got) != want {
		t.Fatalf("ShortID(%s, %d) = %s", id, n, got)
	}
}

// blobIDOf is git's name of a blob holding content.
func blobIDOf(content string) [20]byte {
	return sha1.Sum([]byte(fmt.Sprintf("blob %d\x00%s", len(content), content)))
}

// sharedHex counts the leading hex digits two names share.
func sharedHex(a, b [20]byte) int {
	x, y := hex.EncodeToString(a[:]), hex.EncodeToString(b[:])
	n := 0
	for n < len(x) && x[n] == y[n] {
		n++
	}
	return n
}

// sharingBlob returns a content whose blob id shares at least digits
// leading hex digits with id, and exactly that many.
func sharingBlob(id [20]byte, digits int) string {
	for i := 0; ; i++ {
		c := fmt.Sprintf("n%d\n", i)
		if h := blobIDOf(c); sharedHex(id, h) == digits {
			return c
		}
	}
}

// TestShortIDLengthensSharedPrefix makes a blob whose id shares five
// digits with another's: git names either with six, whether they are
// loose or packed, and an object not in the repository is abbreviated
// against those that are.
func TestShortIDLengthensSharedPrefix(t *testing.T) {
	t.Parallel()
	target := "target\n"
	tid := blobIDOf(target)
	other := sharingBlob(tid, 5)
	oid := blobIDOf(other)
	targetHex, otherHex := hex.EncodeToString(tid[:]), hex.EncodeToString(oid[:])

	for _, c := range []struct {
		name         string
		writeTarget  bool
		pack         bool
		want4, want7 string
	}{
		{"loose", true, false, targetHex[:6], targetHex[:7]},
		{"packed", true, true, targetHex[:6], targetHex[:7]},
		{"target absent, loose", false, false, targetHex[:6], targetHex[:7]},
		{"target absent, packed", false, true, targetHex[:6], targetHex[:7]},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := newTestRepo(t)
			ids := []string{tr.gitEnv(tr.dir, nil, other, "hash-object", "-w", "--stdin")}
			if c.writeTarget {
				ids = append(ids, tr.gitEnv(tr.dir, nil, target, "hash-object", "-w", "--stdin"))
			}
			if c.pack {
				tr.gitEnv(tr.dir, nil, strings.Join(ids, "\n")+"\n", "pack-objects", "-q", ".git/objects/pack/pack")
				tr.git("prune-packed")
				if n := len(tr.looseObjects()); n != 0 {
					t.Fatalf("%d loose objects left", n)
				}
			}
			r := tr.open(tr.dir)
			if got := r.ShortID(targetHex, 4); got != c.want4 {
				t.Errorf("ShortID(target, 4) = %s, want %s", got, c.want4)
			}
			if got := r.ShortID(targetHex, 7); got != c.want7 {
				t.Errorf("ShortID(target, 7) = %s, want %s", got, c.want7)
			}
			if got := r.ShortID(otherHex, 4); got != otherHex[:4] && !c.writeTarget {
				t.Errorf("ShortID(other, 4) = %s with the target absent, want %s", got, otherHex[:4])
			}
			if c.writeTarget {
				if git := tr.git("rev-parse", "--short=4", targetHex); git != c.want4 {
					t.Errorf("git rev-parse --short=4 gives %s, want %s", git, c.want4)
				}
				if got, git := r.ShortID(otherHex, 4), tr.git("rev-parse", "--short=4", otherHex); got != git {
					t.Errorf("ShortID(other, 4) = %s, git %s", got, git)
				}
			}
			if got := r.ShortID(targetHex, 40); got != targetHex {
				t.Errorf("ShortID(target, 40) = %s", got)
			}
		})
	}
}
