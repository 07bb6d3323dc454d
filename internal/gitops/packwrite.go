package gitops

// The files of a record's pack: written, synced and named as git's
// bulk writers do (see objects_write.go).

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
)

// writePack writes objs as one pack and its index in packDir (made if
// missing: created says so) and returns the index's path. Both files
// are complete and synced before their names appear; a pack of the
// same name already there holds the same objects and is kept as it is.
// When it fails or ctx ends, nothing it wrote is left; a kill leaves
// only git's temporary names (tmp_pack_*, tmp_idx_*), which git gc
// removes.
func writePack(ctx context.Context, packDir string, objs []pendingObject) (idxPath string, created bool, err error) {
	if _, err := os.Stat(packDir); errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(packDir, 0o777); err != nil {
			return "", false, err
		}
		created = true
	}
	var files []*os.File
	defer func() {
		for _, f := range files {
			f.Close()           // a second Close only fails
			os.Remove(f.Name()) // after a link, or after a failure
		}
	}()
	create := func(prefix string) (*os.File, error) {
		f, err := os.CreateTemp(packDir, prefix)
		if err == nil {
			files = append(files, f)
		}
		return f, err
	}

	packFile, err := create("tmp_pack_")
	if err != nil {
		return "", false, err
	}
	bw := bufio.NewWriterSize(packFile, 64<<10)
	pw, err := odb.NewPackWriter(bw, len(objs))
	if err != nil {
		return "", false, err
	}
	for _, p := range objs {
		if err := ctx.Err(); err != nil {
			return "", false, err
		}
		rd, err := p.obj.Reader()
		if err != nil {
			return "", false, err
		}
		err = pw.Add(p.id, p.obj.Type(), p.obj.Size(), rd)
		rd.Close()
		if err != nil {
			return "", false, err
		}
	}
	sum, err := pw.Finish()
	if err == nil {
		err = bw.Flush()
	}
	if err != nil {
		return "", false, err
	}
	idxFile, err := create("tmp_idx_")
	if err != nil {
		return "", false, err
	}
	bw.Reset(idxFile)
	if err := pw.WriteIndex(bw); err != nil {
		return "", false, err
	}
	if err := bw.Flush(); err != nil {
		return "", false, err
	}
	// Side by side: the filesystem serves the two waits together.
	if err := eachAtOnce(len(files), func(i int) error { return syncFile(files[i]) }); err != nil {
		return "", false, err
	}
	for _, f := range files {
		if err := f.Close(); err != nil {
			return "", false, err
		}
		if err := os.Chmod(f.Name(), 0o444); err != nil {
			return "", false, err
		}
	}
	base := filepath.Join(packDir, "pack-"+sum.String())
	named, err := publish(packFile.Name(), base+".pack")
	if err != nil {
		return "", false, err
	}
	if _, err := publish(idxFile.Name(), base+".idx"); err != nil {
		if named {
			os.Remove(base + ".pack") // no pack without its index
		}
		return "", false, err
	}
	return base + ".idx", created, nil
}

// publish gives the synced file tmp its final name, and says whether it
// did. A file already there (same name, so same content) is kept:
// linking, not renaming, never replaces it with one a reader may see
// half written on a filesystem without atomic rename.
func publish(tmp, final string) (bool, error) {
	err := os.Link(tmp, final)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		// Some filesystems have no hard links; git falls back to rename.
		if err := os.Rename(tmp, final); err != nil {
			return false, err
		}
	}
	return true, nil
}

// syncFile makes the content of f durable (a variable for the tests,
// which watch the order of the syncs).
var syncFile = func(f *os.File) error { return f.Sync() }
