package gitops

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// parseFsyncComponents reads core.fsync as git's
// parse_fsync_components: on git's default, "none" only as the rest of
// the value, a name matching every component it begins, "-" alone
// ending the list, unknown names ignored, and the names given added
// after the negations are taken from the default.
func TestParseFsyncComponents(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want fsyncComponent
	}{
		{"", fsyncGitDefault},
		{"default", fsyncGitDefault}, // no name of git's: warned of, ignored
		{"none", 0},
		{"committed", fsyncGitDefault | fsyncLooseObject | fsyncReference},
		{"loose-object", fsyncGitDefault | fsyncLooseObject},
		{"-pack", fsyncCommitGraph}, // and pack-metadata, which "pack" begins
		{"-pack-metadata", fsyncPack | fsyncCommitGraph},
		{"reference,none", fsyncReference},                               // "none" drops the default, not the names
		{"none,reference", fsyncGitDefault | fsyncReference},             // "none," is an unknown name to git
		{"all,-index", fsyncAll},                                         // a negation takes from the default only
		{" loose-object , reference", fsyncGitDefault | fsyncReference},  // "loose-object " is unknown
		{"loose-object,-,reference", fsyncGitDefault | fsyncLooseObject}, // git stops at "-"
		{"objects,-loose-object", fsyncGitDefault | fsyncLooseObject},
		{"bogus,derived-metadata,-commit-graph", fsyncGitDefault},
		{"added", fsyncGitDefault | fsyncLooseObject | fsyncReference | fsyncIndex},
	} {
		if got := parseFsyncComponents(tc.in); got != tc.want {
			t.Errorf("parseFsyncComponents(%q) = %06b, want %06b", tc.in, got, tc.want)
		}
	}
}

// readDurability: our default when the configuration says nothing,
// git's when it names core.fsync or core.fsyncObjectFiles; git's
// errors for a key without a value and a core.fsyncObjectFiles that is
// no boolean; the last valid core.fsyncMethod wins.
func TestReadDurability(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file string
		want durability
		err  string
	}{
		{"", durability{components: fsyncOurDefault, method: methodBatch}, ""},
		{"fsyncMethod = fsync", durability{components: fsyncOurDefault, method: methodFsync}, ""},
		{"fsyncMethod = writeout-only\n fsyncMethod = bogus", durability{components: fsyncOurDefault, method: methodWriteout}, ""},
		{"fsync = none", durability{method: methodBatch}, ""},
		{"fsyncObjectFiles = false", durability{components: fsyncGitDefault, method: methodBatch}, ""},
		{"fsyncObjectFiles = yes", durability{components: fsyncGitDefault, method: methodBatch, objectFiles: true}, ""},
		{"fsyncObjectFiles = maybe", durability{}, "bad boolean config value 'maybe' for 'core.fsyncobjectfiles'"},
		{"fsync", durability{}, "missing value for 'core.fsync'"},
		{"fsyncMethod", durability{}, "missing value for 'core.fsyncmethod'"},
	} {
		path := t.TempDir() + "/config"
		if err := os.WriteFile(path, []byte("[core]\n "+tc.file+"\n"), 0o666); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got, err := readDurability(cfg)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%q: error %v, want %s", tc.file, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want):
			t.Errorf("%q: %+v, %v; want %+v", tc.file, got, err, tc.want)
		}
	}
}

// The flushes of a cold Finish, by configuration (issue 30, item 4;
// docs/performance.md row 16): by default the loose objects are each
// written out and flushed once together, then the ref's lock and its
// directory: 3 flushes however many objects; with core.fsyncMethod
// fsync one per object and those two; nothing flushed where git's
// configuration flushes nothing; a pack, its index and their directory
// when the run is packed. Never more than the objects and 4.
func TestFsyncCount(t *testing.T) {
	for _, tc := range []struct {
		config        []string
		writeouts     func(objects int) int
		files, dirs   func(objects int) int
		pack, lockLog bool
	}{
		{config: nil, writeouts: n, files: k(2), dirs: k(1)},
		{config: []string{"core.fsync", "committed"}, writeouts: n, files: k(2), dirs: k(1)},
		{config: []string{"core.fsyncMethod", "fsync"}, writeouts: k(0), files: plus(1), dirs: k(1)},
		{config: []string{"core.fsyncMethod", "writeout-only"}, writeouts: plus(1), files: k(0), dirs: k(0)},
		{config: []string{"core.fsync", "none"}, writeouts: k(0), files: k(0), dirs: k(0)},
		{config: []string{"core.fsync", "derived-metadata"}, writeouts: k(0), files: k(0), dirs: k(0)},
		{config: []string{"core.fsyncObjectFiles", "true"}, writeouts: k(0), files: n, dirs: k(0)},
		{config: []string{"fetch.unpackLimit", "0"}, writeouts: k(0), files: k(3), dirs: k(2), pack: true},
		{config: []string{"fetch.unpackLimit", "0", "core.fsync", "none"}, writeouts: k(0), files: k(0), dirs: k(0), pack: true},
	} {
		t.Run(strings.Join(tc.config, "="), func(t *testing.T) {
			tr := newFixture(t)
			for i := 0; i < len(tc.config); i += 2 {
				tr.git("config", tc.config[i], tc.config[i+1])
			}
			head := tr.git("rev-parse", "HEAD")
			looseBefore, packsBefore := tr.looseObjects(), tr.packFiles()
			var mu sync.Mutex
			var writeouts, files, dirs int
			oldDir, oldFile, oldOut := syncDir, syncFile, writeOut
			syncDir = func(dir string) error { mu.Lock(); dirs++; mu.Unlock(); return oldDir(dir) }
			syncFile = func(f *os.File) error { mu.Lock(); files++; mu.Unlock(); return oldFile(f) }
			writeOut = func(f *os.File) error { mu.Lock(); writeouts++; mu.Unlock(); return oldOut(f) }
			defer func() { syncDir, syncFile, writeOut = oldDir, oldFile, oldOut }()

			w := newWriter(t, tr.open(tr.dir), WriteOptions{Branch: "count", Parent: head})
			var changes []patch.FileChange
			for i := range 10 {
				changes = append(changes, create(fmt.Sprintf("n%d/m%d/f.txt", i%4, i), fmt.Sprintf("count %d\n", i), reg))
			}
			if _, err := w.Record(context.Background(), changes, "ten files"); err != nil {
				t.Fatal(err)
			}
			if err := w.Finish(); err != nil {
				t.Fatal(err)
			}
			objects := len(tr.newLoose(looseBefore))
			if tc.pack {
				if objects != 0 || len(tr.newPacks(packsBefore)) != 1 {
					t.Fatalf("%d loose objects and %d packs, want one pack", objects, len(tr.newPacks(packsBefore)))
				}
				objects = len(strings.Fields(tr.git("rev-list", "--objects", "--no-object-names", "main..count")))
			}
			if objects < 20 {
				t.Fatalf("the reply made %d objects", objects)
			}
			if writeouts != tc.writeouts(objects) || files != tc.files(objects) || dirs != tc.dirs(objects) {
				t.Errorf("%d objects: %d writeouts, %d files and %d directories synced; want %d, %d, %d",
					objects, writeouts, files, dirs, tc.writeouts(objects), tc.files(objects), tc.dirs(objects))
			}
			if files+dirs > objects+4 {
				t.Errorf("%d flushes for %d objects: more than the objects and 4", files+dirs, objects)
			}
			for i := 0; i < len(tc.config); i += 2 { // git warns of some
				tr.git("config", "--unset", tc.config[i])
			}
			tr.fsck()
		})
	}
}

func n(objects int) int        { return objects }
func k(c int) func(int) int    { return func(int) int { return c } }
func plus(c int) func(int) int { return func(o int) int { return o + c } }
