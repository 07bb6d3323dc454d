package gitops

import (
	"errors"
	"slices"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
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
	id := tip
	for n := 0; n < ReplyHistory && id != ""; n++ {
		c, err := r.readCommit(oid.FromHex(id))
		if n > 0 && (errors.Is(err, odb.ErrNotFound) || errors.Is(err, ErrMissingObject)) {
			break
		}
		if err != nil {
			return nil, err
		}
		parent := ""
		if len(c.Parents) > 0 {
			parent = c.Parents[0].String()
		}
		if slices.Contains(trailerValues(c.Message, key), value) {
			subject, _, _ := strings.Cut(strings.TrimLeft(c.Message, "\n"), "\n")
			out = append(out, CommitInfo{ID: id, Parent: parent, Subject: subject})
		}
		id = parent
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
	var from map[string]treeFile
	fromSrc := &treeSource{r: r, trees: map[oid.ID][]treeEntry{}}
	if len(c.Parents) > 0 {
		p := c.Parents[0].String()
		if from, err = r.treeFiles(p); err != nil {
			return nil, err
		}
		pc, err := r.readCommit(c.Parents[0])
		if err != nil {
			return nil, err
		}
		fromSrc.root = pc.TreeHash
	}
	to, err := r.treeFiles(commit)
	if err != nil {
		return nil, err
	}
	toSrc := &treeSource{r: r, root: c.TreeHash, trees: map[oid.ID][]treeEntry{}}
	var paths []string
	for p, f := range from {
		if t, ok := to[p]; !ok || t != f {
			paths = append(paths, p)
		}
	}
	for p := range to {
		if _, ok := from[p]; !ok {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths)
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
