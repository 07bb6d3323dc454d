package gitops

import (
	"fmt"
	"slices"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
)

// CommitInfo is a commit as a log of a branch lists it.
type CommitInfo struct {
	ID      string // full hex id
	Parent  string // its first parent's id, "" for a root commit
	Subject string // the first line of its message
}

// CommitsWithTrailer returns, newest first, the commits among the last
// ReplyHistory first-parent commits from tip whose message's last
// paragraph has the trailer "key: value" (SPEC section 2, mcp: the
// commits of a session). A history shorter than the bound, or cut by a
// shallow or partial clone, is searched as far as it goes.
func (r *Repo) CommitsWithTrailer(tip, key, value string) ([]CommitInfo, error) {
	var out []CommitInfo
	err := r.walkHistory(tip, func(c historyEntry) {
		for _, l := range c.trailers {
			if v, ok := trailerValue(l, key); ok && v == value {
				out = append(out, CommitInfo{ID: c.hex, Parent: c.parentHex, Subject: c.subject})
				return
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// CommitChanges returns the changes commit makes to the tree of its
// first parent (to an empty tree for a root commit), by path: no
// renames are found.
func (r *Repo) CommitChanges(commit string) ([]patch.FileChange, error) {
	c, err := r.readCommit(oid.FromHex(commit))
	if err != nil {
		return nil, err
	}
	parent := ""
	fromSrc := &treeSource{r: r, trees: map[oid.ID][]treeEntry{}}
	if len(c.Parents) > 0 {
		parent = c.Parents[0].String()
		pc, err := r.readCommit(c.Parents[0])
		if err != nil {
			return nil, err
		}
		fromSrc.root = pc.TreeHash
	}
	from, to, paths, err := r.changedCommitFiles(parent, commit)
	if err != nil {
		return nil, err
	}
	toSrc := &treeSource{r: r, root: c.TreeHash, trees: map[oid.ID][]treeEntry{}}
	var out []patch.FileChange
	for _, p := range paths {
		if from[p].mode == patch.ModeGitlink || to[p].mode == patch.ModeGitlink {
			continue // a submodule's commit is no file change of ours
		}
		var ch patch.FileChange
		if f, ok := from[p]; ok {
			ch.OldPath, ch.OldMode, ch.OldID = p, f.mode, f.id.String()
			if ch.Old, err = fromSrc.Read(p); err != nil {
				return nil, err
			}
		}
		if f, ok := to[p]; ok {
			ch.NewPath, ch.NewMode, ch.NewID = p, f.mode, f.id.String()
			if ch.New, err = toSrc.Read(p); err != nil {
				return nil, err
			}
		}
		out = append(out, ch)
	}
	return out, nil
}

// changedFiles compares the trees a and b (zero: the empty tree) and
// returns the files that differ, by path, as each tree has them: a file
// only one side has is in one map only. A subtree both sides share is
// not read, so the cost is that of the change, not of the trees.
func (r *Repo) changedFiles(a, b oid.ID) (from, to map[string]treeFile, err error) {
	from, to = map[string]treeFile{}, map[string]treeFile{}
	var walk func(a, b oid.ID, prefix string) error
	walk = func(a, b oid.ID, prefix string) error {
		if a == b {
			return nil
		}
		ea, err := r.readTree(a)
		if err != nil {
			return err
		}
		eb, err := r.readTree(b)
		if err != nil {
			return err
		}
		type pair struct{ a, b *treeEntry }
		byName := map[string]pair{}
		for i := range ea {
			p := byName[ea[i].name]
			p.a = &ea[i]
			byName[ea[i].name] = p
		}
		for i := range eb {
			p := byName[eb[i].name]
			p.b = &eb[i]
			byName[eb[i].name] = p
		}
		for name, p := range byName {
			if p.a != nil && p.b != nil && p.a.id == p.b.id && (p.a.isDir() == p.b.isDir()) && (p.a.isDir() || p.a.engineMode() == p.b.engineMode()) {
				continue
			}
			var da, db oid.ID
			if p.a != nil {
				if p.a.isDir() {
					da = p.a.id
				} else {
					from[prefix+name] = treeFile{mode: p.a.engineMode(), id: p.a.id}
				}
			}
			if p.b != nil {
				if p.b.isDir() {
					db = p.b.id
				} else {
					to[prefix+name] = treeFile{mode: p.b.engineMode(), id: p.b.id}
				}
			}
			if !da.IsZero() || !db.IsZero() {
				if err := walk(da, db, prefix+name+"/"); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return from, to, walk(a, b, "")
}

// changedCommitFiles is changedFiles of two commits' trees ("" for
// none: the empty tree), and the changed paths, sorted.
func (r *Repo) changedCommitFiles(a, b string) (from, to map[string]treeFile, paths []string, err error) {
	var ta, tb oid.ID
	for _, x := range []struct {
		id   string
		tree *oid.ID
	}{{a, &ta}, {b, &tb}} {
		if x.id == "" {
			continue
		}
		c, err := r.readCommit(oid.FromHex(x.id))
		if err != nil {
			return nil, nil, nil, fmt.Errorf("reading commit %s: %w", x.id, err)
		}
		*x.tree = c.TreeHash
	}
	if from, to, err = r.changedFiles(ta, tb); err != nil {
		return nil, nil, nil, err
	}
	for p := range from {
		paths = append(paths, p)
	}
	for p := range to {
		if _, ok := from[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
	return from, to, paths, nil
}
