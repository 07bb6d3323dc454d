package gitops

// Reading an index through the git CLI, for the split and sparse
// indexes the decoder hands over.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// ceIntentToAdd is git's in-memory flag for `git add -N`, as `git
// ls-files --debug` prints it (cache.h, unchanged since 2008).
const ceIntentToAdd = 1 << 29

// listIndex has git list the index at path, for a split or sparse
// index (why). Without --sparse, ls-files expands a sparse index's
// directories to the files they hold, as lookups need; --debug prints
// each entry's flags, the only place ls-files shows intent-to-add.
func (r *Repo) listIndex(path, gitDir, workTree string, why *needsGit) (*index, error) {
	gitPath, err := lookGit("git")
	if err != nil {
		return nil, why
	}
	args, dir := []string{"--git-dir=" + gitDir}, gitDir
	if workTree != "" {
		args, dir = append(args, "--work-tree="+workTree), workTree
	}
	out, err := r.runGit(gitPath, dir, nil, []string{"GIT_INDEX_FILE=" + path},
		append(args, "ls-files", "--stage", "--debug", "-z")...)
	if err != nil {
		return nil, err
	}
	listed, err := parseLsFiles(out)
	if err != nil {
		return nil, fmt.Errorf("reading the %s with git ls-files: %w", why.feature, err)
	}
	return &index{listed: listed}, nil
}

// parseLsFiles parses `git ls-files --stage --debug -z`: per entry,
// "<mode> <id> <stage>\t<path>\x00", then lines of stat data indented
// by two spaces, one of them ending with "flags: <hex>".
func parseLsFiles(out []byte) ([]listedEntry, error) {
	listed := []listedEntry{} // not nil: an empty listing still stands for the index
	for len(out) > 0 {
		head, rest, ok := bytes.Cut(out, []byte{0})
		meta, path, ok2 := strings.Cut(string(head), "\t")
		f := strings.Fields(meta)
		if !ok || !ok2 || len(f) != 3 {
			return nil, fmt.Errorf("unexpected output %q", shorten(string(head), 80))
		}
		mode, err1 := strconv.ParseUint(f[0], 8, 32)
		stage, err2 := strconv.Atoi(f[2])
		e := indexEntry{mode: modeOf(uint32(mode))}
		if err1 != nil || err2 != nil || len(f[1]) != 2*len(e.id) || !isFullHex(f[1]) {
			return nil, fmt.Errorf("unexpected output %q", shorten(string(head), 80))
		}
		e.id = plumbing.NewHash(f[1])
		flags := int64(-1)
		for bytes.HasPrefix(rest, []byte("  ")) {
			// git ends these lines with "\n" even with -z; accept NUL
			// too, should that change.
			line := rest
			if i := bytes.IndexAny(rest, "\n\x00"); i >= 0 {
				line, rest = rest[:i], rest[i+1:]
			} else {
				rest = nil
			}
			if _, v, ok := bytes.Cut(line, []byte("flags: ")); ok {
				n, err := strconv.ParseUint(string(v), 16, 32)
				if err != nil {
					return nil, fmt.Errorf("unexpected flags %q of %s", v, path)
				}
				flags = int64(n)
			}
		}
		if flags < 0 {
			return nil, fmt.Errorf("no flags for %s", path)
		}
		e.intentToAdd = flags&ceIntentToAdd != 0
		if n := len(listed); n > 0 && listed[n-1].path == path {
			listed[n-1].e = fold(listed[n-1].e, true, e, stage)
		} else {
			listed = append(listed, listedEntry{path, fold(indexEntry{}, false, e, stage)})
		}
		out = rest
	}
	return listed, nil
}
