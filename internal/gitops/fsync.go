package gitops

// What is made durable before the branch moves, and how: git's
// core.fsync, core.fsyncMethod and core.fsyncObjectFiles (SPEC
// section 3).
//
// git syncs the parts of the repository core.fsync names
// (environment.c's parse_fsync_components, write-or-die.h): by default
// packs, their indexes and the commit graph, but neither loose objects
// nor refs. Built for Windows, git adds loose objects and makes "batch"
// the method (compat/mingw-posix.h): each loose object is written out
// without a flush of the disk's cache (sync_file_range on Linux), then
// one fsync of a new dummy file flushes them all at once, and only
// then do the objects get their final names (object-file.c,
// odb_transaction_files_commit). Here the default is that, plus the
// ref: the run's commit is durable before the branch names it, for the
// price of one flush, not one per object. A repository that sets
// core.fsync or core.fsyncObjectFiles gets git's own rules instead, on
// git's default. git never syncs a directory, and neither does this for
// loose objects: their fan-out directories gain names after the flush,
// and the ref's own flush (on ext4 and xfs a commit of the whole
// journal) carries them, the ordering git relies on; syncing each
// directory cost a flush per object again.

import (
	"errors"
	"os"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/config"
)

// fsyncComponent is git's enum fsync_component: the parts of the
// repository core.fsync names.
type fsyncComponent uint8

const (
	fsyncLooseObject fsyncComponent = 1 << iota
	fsyncPack
	fsyncPackMetadata
	fsyncCommitGraph
	fsyncIndex
	fsyncReference

	fsyncObjects         = fsyncLooseObject | fsyncPack
	fsyncDerivedMetadata = fsyncPackMetadata | fsyncCommitGraph
	// fsyncGitDefault is FSYNC_COMPONENTS_DEFAULT: git syncs no loose
	// object and no ref unless told to.
	fsyncGitDefault = (fsyncObjects | fsyncDerivedMetadata) &^ fsyncLooseObject
	fsyncCommitted  = fsyncObjects | fsyncReference
	fsyncAll        = fsyncObjects | fsyncDerivedMetadata | fsyncIndex | fsyncReference
	// fsyncOurDefault, when the configuration says nothing: Git for
	// Windows' default (git's and loose objects) and the ref.
	fsyncOurDefault = fsyncGitDefault | fsyncCommitted
)

// fsyncNames is git's fsync_component_names, in its order.
var fsyncNames = []struct {
	name string
	bits fsyncComponent
}{
	{"loose-object", fsyncLooseObject},
	{"pack", fsyncPack},
	{"pack-metadata", fsyncPackMetadata},
	{"commit-graph", fsyncCommitGraph},
	{"index", fsyncIndex},
	{"objects", fsyncObjects},
	{"reference", fsyncReference},
	{"derived-metadata", fsyncDerivedMetadata},
	{"committed", fsyncCommitted},
	{"added", fsyncCommitted | fsyncIndex},
	{"all", fsyncAll},
}

// fsyncMethod is core.fsyncMethod.
type fsyncMethod uint8

const (
	methodFsync    fsyncMethod = iota // a flush per file
	methodWriteout                    // writeout-only: never a flush
	methodBatch                       // loose objects written out, one flush for all
)

// durability is what a writer syncs and how.
type durability struct {
	components fsyncComponent
	method     fsyncMethod
	// objectFiles is core.fsyncObjectFiles: loose objects synced
	// whatever core.fsync says (the key core.fsync replaced).
	objectFiles bool
}

// readDurability reads the three keys as git does, but for the
// defaults: with neither core.fsync nor core.fsyncObjectFiles set, the
// components are fsyncOurDefault, and without a valid
// core.fsyncMethod the method is batch. git's errors: a core.fsync or
// core.fsyncMethod without a value, a core.fsyncObjectFiles that is no
// boolean; what git warns of and ignores (an unknown component or
// method) is ignored.
func readDurability(cfg *config.Values) (durability, error) {
	d := durability{components: fsyncOurDefault, method: methodBatch}
	v, set := cfg.Get("core.fsync")
	of, ofSet := cfg.Get("core.fsyncobjectfiles")
	if set || ofSet {
		d.components = fsyncGitDefault
	}
	if set {
		if valueless(cfg, "core.fsync") {
			return d, errors.New("missing value for 'core.fsync'")
		}
		d.components = parseFsyncComponents(v)
	}
	if ofSet {
		b, err := config.ParseBool("core.fsyncobjectfiles", of)
		if err != nil {
			return d, err
		}
		d.objectFiles = b
	}
	// git keeps the last valid value it read and warns of the others.
	for _, m := range cfg.Multi("core.fsyncmethod") {
		switch m {
		case "fsync":
			d.method = methodFsync
		case "writeout-only":
			d.method = methodWriteout
		case "batch":
			d.method = methodBatch
		}
	}
	if valueless(cfg, "core.fsyncmethod") {
		return d, errors.New("missing value for 'core.fsyncmethod'")
	}
	return d, nil
}

// valueless reports whether key's last setting is a bare name, which
// Get reads as "true" and Multi as "".
func valueless(cfg *config.Values, key string) bool {
	all := cfg.Multi(key)
	v, _ := cfg.Get(key)
	return len(all) > 0 && all[len(all)-1] == "" && v == "true"
}

// parseFsyncComponents is git's parse_fsync_components: a comma list
// changing git's default, "-name" removing, "none" (as the whole rest
// of the value) starting from nothing. As in git, a name matches every
// component it begins ("pack" is also pack-metadata).
func parseFsyncComponents(s string) fsyncComponent {
	current := fsyncGitDefault
	var positive, negative fsyncComponent
	for s != "" {
		s = strings.TrimLeft(s, ", \t\n\r")
		name, rest, _ := strings.Cut(s, ",")
		if s == "none" {
			current = 0
			s = rest
			continue
		}
		negated := strings.HasPrefix(name, "-")
		name = strings.TrimPrefix(name, "-")
		if name == "" { // git stops reading here, "-" or not
			break
		}
		for _, n := range fsyncNames {
			if strings.HasPrefix(n.name, name) {
				if negated {
					negative |= n.bits
				} else {
					positive |= n.bits
				}
			}
		}
		s = rest
	}
	return current&^negative | positive
}

// has reports whether c is among the components synced.
func (d durability) has(c fsyncComponent) bool { return d.components&c != 0 }

// batchLoose reports whether loose objects are written out one by one
// and flushed together (git's batch_fsync_enabled).
func (d durability) batchLoose() bool {
	return d.has(fsyncLooseObject) && d.method == methodBatch
}

// syncsLoose reports whether each loose object is synced by itself, as
// close_loose_object does outside batch mode.
func (d durability) syncsLoose() bool {
	return !d.batchLoose() && (d.objectFiles || d.has(fsyncLooseObject))
}

// sync makes f durable if c is synced: git's fsync_component, whose
// writeout-only method writes out and never flushes.
func (d durability) sync(c fsyncComponent, f *os.File) error {
	if !d.has(c) {
		return nil
	}
	return d.syncAlways(f)
}

// syncAlways is git's maybe_fsync.
func (d durability) syncAlways(f *os.File) error {
	if d.method == methodWriteout && writeOut(f) == nil {
		return nil
	}
	return syncFile(f)
}

// syncLoose does for a loose object's temporary file what
// close_loose_object does: in batch mode a writeout (a flush where
// there is none, as git falls back), else a sync if loose objects are
// synced.
func (d durability) syncLoose(f *os.File) error {
	switch {
	case d.batchLoose():
		if writeOut(f) == nil {
			return nil
		}
		return syncFile(f)
	case d.syncsLoose():
		return d.syncAlways(f)
	}
	return nil
}

// syncsDir reports whether the directories that gained the names of
// c's files are synced: git syncs none, so this is ours, for packs and
// the ref, and never under writeout-only, which flushes nothing.
func (d durability) syncsDir(c fsyncComponent) bool {
	return d.has(c) && d.method != methodWriteout
}

// flushBatch is the one flush of batch mode (git's
// odb_transaction_files_commit): a new file in dir, synced and
// removed, after which every file written out before it is durable.
// Its name is temporary (tmp_*), so git gc removes it after a crash.
func flushBatch(dir string) error {
	f, err := os.CreateTemp(dir, "tmp_bulk_fsync_")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	err = syncFile(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeOut writes f's dirty pages to the disk without flushing its
// cache (sync_file_range's writeout where there is one), errors.
// ErrUnsupported where there is none; a variable for the tests, which
// watch the order of the syncs.
var writeOut = writeOutFile
