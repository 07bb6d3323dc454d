package engine

import (
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Agents and models name files by absolute paths (/home/dev/proj/a.py:
// Claude Code's file_path, Gemini CLI's file_path must be absolute;
// Codex and Cline on Windows write C:\Users\me\proj\a.ts; aider's
// replies written on Windows name D:\work\proj\a.rb), while SPEC
// section 5 wants paths relative to the repository. mapAbsolute turns
// such a name, in any format, into the repository path it stands for
// (SPEC section 5):
//
//	(a) with a Root (a session's top: its first recorded cwd), the
//	    repository's top is established once for the reply
//	    (sessionTop): Root, or the directory above it that the
//	    reply's paths show is the top. A path below that top is the
//	    path below it; any other path is refused, never mapped by its
//	    last components.
//	(b) without a Root: the longest tracked path (a file of the tree
//	    as the reply has left it) the name ends in, at a component
//	    boundary. An operation that finds no text of the file (a
//	    write, an insert by number, a delete, a rename) takes it only
//	    when the directory above it is one the reply's other absolute
//	    paths place the repository in, if they place it anywhere.
//	(c) without a Root: the path below the one directory that the
//	    reply's other absolute paths reveal as the top (each, by (b),
//	    is that directory followed by a tracked path), for a file the
//	    reply creates.
//	(d) anything else fails the edit, saying what to give.
//
// The path is read as the system that wrote it reads it (readAbsolute):
// ".." is resolved before anything is compared, a Windows drive and
// its directory names compare without case, and a tracked file is
// taken for a Windows name differing only in case when it is the one
// so named. Relative names are not touched. The path found goes
// through every check a relative one does (.git, symlinks, NTFS and
// HFS names). note says which mapping was taken when it is more than
// the plain path below Root.
func (r *resolver) mapAbsolute(name, root string, evidence bool) (rel, note string, err error) {
	abs, err := readAbsolute(name)
	if err != nil {
		return "", "", err
	}
	if root != "" {
		return r.underTop(name, abs, root)
	}
	t, err := r.trackedSuffix(abs)
	if err != nil {
		return "", "", err
	}
	if t != "" {
		mine := topOf(abs.clean, t)
		// The reply's other paths may place the repository: a write or
		// delete whose path places it elsewhere (/tmp/b.py beside
		// /home/dev/proj/a.py) is of a file outside it, not of the
		// tracked file its name ends in. An edit that must find its
		// old text in the file carries its own evidence.
		if tops := r.revealedTops(name); !evidence && len(tops) > 0 && !containsDir(tops, mine) {
			return "", "", fmt.Errorf("%w: %q ends in the tracked path %s, but the reply's other paths place the repository in %s, not %s; give the path relative to the repository, or the session's root (its cwd)", ErrUnsafePath, name, t, strings.Join(tops, ", "), mine)
		}
		return t, fmt.Sprintf("took %s for %s, the tracked file its path ends in", t, name), nil
	}
	tops := r.revealedTops(name)
	if len(tops) == 1 {
		if rest, ok := below(abs, dirPath(tops[0])); ok {
			return rest, fmt.Sprintf("took %s for %s, below %s, where the reply's other paths place the repository", rest, name, tops[0]), nil
		}
		return "", "", fmt.Errorf("%w: %q is not below %s, where the reply's other paths place the repository; give the path relative to the repository, or the session's root (its cwd)", ErrUnsafePath, name, tops[0])
	}
	if len(tops) > 1 {
		return "", "", fmt.Errorf("%w: %q is absolute, and the reply's other paths place the repository in %d directories (%s); give the path relative to the repository, or the session's root (its cwd)", ErrUnsafePath, name, len(tops), strings.Join(tops, ", "))
	}
	return "", "", fmt.Errorf("%w: %q is absolute and ends in no file of the repository, and nothing in the reply shows which directory is the repository; give the path relative to the repository, or the session's root (its cwd)", ErrUnsafePath, name)
}

// underTop places abs by the session's top (rule (a) of mapAbsolute).
func (r *resolver) underTop(name string, abs absPath, root string) (rel, note string, err error) {
	top := r.sessionTop(root)
	rest, ok := below(abs, top)
	if !ok {
		if abs.windows == top.windows && sameDir(abs.clean, top.clean) {
			return "", "", fmt.Errorf("%w: %q is the session's top directory, not a file", ErrUnsafePath, name)
		}
		return "", "", fmt.Errorf("%w: %q is outside the session's top %s; a path outside it is never mapped by its last components", ErrUnsafePath, name, top.clean)
	}
	p, found, err := r.tracked(rest, abs.windows)
	if err != nil {
		return "", "", fmt.Errorf("%w (%s)", err, name)
	}
	var notes []string
	if found && p != rest {
		notes = append(notes, fmt.Sprintf("took %s for %s: Windows reads names without case, and it is the one tracked file so named", p, name))
	}
	if rt := slashed(root); !sameDir(rt.clean, top.clean) {
		notes = append(notes, fmt.Sprintf("took %s for %s, below %s, which the reply's paths show is the repository's top (the session's root %s is below it)", p, name, top.clean, root))
	}
	return p, strings.Join(notes, "; "), nil
}

// sessionTop is the repository's top for the operations of Root root,
// established once for the reply: root itself or one of the
// directories above it, the one below which the reply's absolute paths
// of that Root name the most tracked files, counting first the edits
// that must find their old text in the file (they show it is the file
// meant; a write may name a file that happens to exist), then every
// path; the deepest of equals, so root when they name none. A session
// started in a directory below the repository's top names its files
// by paths that show it.
func (r *resolver) sessionTop(root string) absPath {
	if t, ok := r.tops[root]; ok {
		return t
	}
	rt := slashed(root)
	cands := ancestors(rt.clean)
	texts, all := make([]int, len(cands)), make([]int, len(cands))
	for i := range r.ops {
		op := &r.ops[i]
		if op.Root != root {
			continue
		}
		for _, p := range []string{op.Path, op.NewPath} {
			if !isAbsolute(p) {
				continue
			}
			a, err := readAbsolute(p)
			if err != nil {
				continue
			}
			for i, c := range cands {
				if rest, ok := below(a, absPath{clean: c, windows: rt.windows}); ok {
					if _, found, _ := r.tracked(rest, a.windows); found {
						all[i]++
						if p == op.Path && findsText(op) {
							texts[i]++
						}
					}
				}
			}
		}
	}
	best := 0
	for i := range cands {
		if texts[i] > texts[best] || texts[i] == texts[best] && all[i] > all[best] {
			best = i
		}
	}
	top := absPath{clean: cands[best], windows: rt.windows}
	if r.tops == nil {
		r.tops = map[string]absPath{}
	}
	r.tops[root] = top
	return top
}

// tracked looks p, a clean relative path, up among the files of the
// tree as the reply has left it: p itself, or for a name from a
// Windows path the one file whose path differs from it only in case
// (Windows reads names so). found is false when none is; two files
// differing only in case make the name ambiguous. p is returned
// unchanged when no file is found.
func (r *resolver) tracked(p string, windows bool) (string, bool, error) {
	if rd := checkReading(p, p); rd.err != nil {
		return p, false, nil
	}
	if e, ok := r.present(p); ok {
		return p, e.Mode != patch.ModeGitlink, nil
	}
	if !windows {
		return p, false, nil
	}
	hits, err := r.foldMatches(p)
	if err != nil {
		return p, false, err
	}
	switch len(hits) {
	case 0:
		return p, false, nil
	case 1:
		return hits[0], true, nil
	}
	return p, false, fmt.Errorf("%w: %q names any of %s, which Windows, reading names without case, cannot tell apart", ErrAmbiguous, p, strings.Join(hits, ", "))
}

// foldMatches lists the files of the tree as the reply has left it
// whose paths equal p but for case (ASCII and Unicode simple folding,
// same length), gitlinks aside.
func (r *resolver) foldMatches(p string) ([]string, error) {
	ps := r.pathSet()
	if err := ps.load(); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var hits []string
	add := func(q string) {
		if seen[q] || len(q) != len(p) || !strings.EqualFold(q, p) {
			return
		}
		seen[q] = true
		if e, ok := r.present(q); ok && e.Mode != patch.ModeGitlink {
			hits = append(hits, q)
		}
	}
	for _, q := range ps.base {
		add(q)
	}
	for q := range r.files {
		add(q)
	}
	return hits, nil
}

// trackedSuffix returns the longest path of the tree as the reply has
// left it that the absolute path ends in, at a component boundary (""
// when none). Two different paths of one length cannot both end one
// name, so the longest is the only candidate (for a Windows name, the
// one file differing from it only in case, or the name is ambiguous).
func (r *resolver) trackedSuffix(abs absPath) (string, error) {
	parts := strings.Split(strings.TrimPrefix(abs.clean, "/"), "/")
	for i := range parts {
		if i == 0 && abs.windows {
			continue // a drive letter is no directory of a repository
		}
		cand := strings.Join(parts[i:], "/")
		if cand == "" {
			continue
		}
		t, found, err := r.tracked(cand, abs.windows)
		if err != nil {
			return "", err
		}
		if found {
			return t, nil
		}
	}
	return "", nil
}

// revealedTops lists the directories that the reply's absolute paths
// other than name place the repository in: each path ending in a
// tracked path reveals the directory above it, and a Root given
// anywhere in the reply is one.
func (r *resolver) revealedTops(name string) []string {
	var tops []string
	add := func(t string) {
		if !containsDir(tops, t) {
			tops = append(tops, t)
		}
	}
	for _, op := range r.ops {
		if op.Root != "" {
			add(slashed(op.Root).clean)
		}
		for _, p := range []string{op.Path, op.NewPath} {
			if p == name || !isAbsolute(p) {
				continue
			}
			a, err := readAbsolute(p)
			if err != nil {
				continue
			}
			if t, _ := r.trackedSuffix(a); t != "" {
				add(topOf(a.clean, t))
			}
		}
	}
	return tops
}

func containsDir(dirs []string, d string) bool {
	for _, x := range dirs {
		if sameDir(x, d) {
			return true
		}
	}
	return false
}

// dirPath is a clean directory as an absPath.
func dirPath(clean string) absPath { return absPath{clean: clean, windows: isWindowsClean(clean)} }

// topOf is the directory a clean absolute path places the repository
// in when it ends in the tracked path t (of the same length as the
// part it ends in).
func topOf(clean, t string) string {
	top := strings.TrimSuffix(clean[:len(clean)-len(t)], "/")
	switch {
	case top == "":
		return "/"
	case isWindowsClean(top) && len(top) == 2:
		return top + "/"
	}
	return top
}

// findsText reports whether op must find text of its file to apply,
// which shows that the file is the one the agent meant.
func findsText(op *translate.Operation) bool {
	return op.Kind == translate.Replace && op.OldText != "" || op.Kind == translate.Edit && len(op.Old)+len(op.Before)+len(op.After) > 0 ||
		op.Kind == translate.Lazy
}

// relativeName is name, a path op gives, made relative to the
// repository when it is absolute (see mapAbsolute).
func (r *resolver) relativeName(op *translate.Operation, name string) (rel, note string, err error) {
	if !isAbsolute(name) {
		return name, "", nil
	}
	return r.mapAbsolute(name, op.Root, false)
}
