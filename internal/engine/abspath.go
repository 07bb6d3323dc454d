package engine

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Coding agents name files by absolute paths (/home/dev/proj/src/a.py:
// Claude Code's file_path, the text editor's path, Gemini CLI's
// file_path must be absolute), while SPEC section 5 wants paths
// relative to the repository. mapAbsolute turns such a name into the
// repository path it stands for, by these rules, in order:
//
//	(a) under the operation's Root (the session's cwd, taken as the
//	    repository's top): the path below it. When that names no file
//	    but the path ends in a longer tracked path, the session ran in
//	    a directory below the top, and the tracked path is taken.
//	(b) the longest tracked path (a file of the tree as the reply has
//	    left it) the name ends in, at a component boundary; with a
//	    Root, only when the directory above that tracked path holds
//	    Root (the session ran below the repository's top): a path
//	    elsewhere (/tmp/notes.md) is a file outside the repository.
//	    Without a Root, an operation that finds no text of the file
//	    (a write, an insert by number, a delete, a rename) takes it
//	    only when that directory is one the reply's other absolute
//	    paths place the repository in, if they place it anywhere.
//	(c) with no Root: the path below the one directory that the
//	    reply's other absolute paths reveal as the top (each, by (b),
//	    is that directory followed by a tracked path), for a file the
//	    reply creates.
//	(d) anything else fails the edit, saying what root to give.
//
// Relative names are not touched. The path found goes through every
// check a relative one does (.git, symlinks, NTFS and HFS names), and a
// name under Root that climbs out of it ("..") is refused as leaving
// the repository. note says which mapping was taken when it is more
// than the plain path under Root.
func (r *resolver) mapAbsolute(name, root string, evidence bool) (rel, note string, err error) {
	abs := slashed(name)
	clean := path.Clean(abs)
	if root != "" {
		top := path.Clean(slashed(root))
		rest, ok := below(abs, top)
		if !ok {
			rest, ok = below(clean, top)
		}
		if ok {
			if p := path.Clean(rest); !escapes(p) {
				if _, there := r.present(p); !there {
					if t := r.trackedSuffix(clean); len(t) > len(p) {
						return t, fmt.Sprintf("took %s for %s: below the session's root %s it names no file, and %s is the tracked file it ends in", t, name, root, t), nil
					}
				}
			}
			// Written as below the root: a ".." that climbs out is
			// refused by the checks every path goes through.
			return rest, "", nil
		}
	}
	if t := r.trackedSuffix(clean); t != "" {
		mine := topOf(clean, t)
		if root == "" {
			// The reply's other paths may place the repository: a write
			// or delete whose path places it elsewhere (/tmp/b.py beside
			// /home/dev/proj/a.py) is of a file outside it, not of the
			// tracked file its name ends in. An edit that must find
			// its old text in the file carries its own evidence.
			if tops := r.revealedTops(name); !evidence && len(tops) > 0 && !slices.Contains(tops, mine) {
				return "", "", fmt.Errorf("%w: %q ends in the tracked path %s, but the reply's other paths place the repository in %s, not %s; give the path relative to the repository, or the session's root (its cwd)", ErrUnsafePath, name, t, strings.Join(tops, ", "), mine)
			}
			return t, fmt.Sprintf("took %s for %s, the tracked file its path ends in", t, name), nil
		}
		if holds(strings.TrimSuffix(clean, t), path.Clean(slashed(root))) {
			return t, fmt.Sprintf("took %s for %s, the tracked file its path ends in", t, name), nil
		}
		// An agent that ran in root and wrote /tmp/notes.md wrote a
		// scratch file, not the repository's notes.md: the tracked path
		// counts only where the top it reveals holds the session.
		return "", "", fmt.Errorf("%w: %q is outside the session's root %s; it ends in the tracked path %s, but the repository is not in %s", ErrUnsafePath, name, root, t, strings.TrimSuffix(strings.TrimSuffix(clean, t), "/"))
	}
	if root != "" {
		return "", "", fmt.Errorf("%w: %q is outside the session's root %s and ends in no file of the repository", ErrUnsafePath, name, root)
	}
	tops := r.revealedTops(name)
	if len(tops) == 1 {
		if rest, ok := below(clean, tops[0]); ok {
			return rest, fmt.Sprintf("took %s for %s, below %s, where the reply's other paths place the repository", rest, name, tops[0]), nil
		}
		return "", "", fmt.Errorf("%w: %q is not below %s, where the reply's other paths place the repository; give the path relative to the repository, or the session's root (its cwd)", ErrUnsafePath, name, tops[0])
	}
	if len(tops) > 1 {
		return "", "", fmt.Errorf("%w: %q is absolute, and the reply's other paths place the repository in %d directories (%s); give the path relative to the repository, or the session's root (its cwd)", ErrUnsafePath, name, len(tops), strings.Join(tops, ", "))
	}
	return "", "", fmt.Errorf("%w: %q is absolute and ends in no file of the repository, and nothing in the reply shows which directory is the repository; give the path relative to the repository, or the session's root (its cwd)", ErrUnsafePath, name)
}

// isAbsolute reports whether name is an absolute path as agents write
// them: "/home/dev/a.py", or "C:\Users\dev\a.py" on Windows.
func isAbsolute(name string) bool {
	if strings.HasPrefix(name, "/") {
		return true
	}
	return len(name) >= 3 && isLetter(name[0]) && name[1] == ':' && (name[2] == '\\' || name[2] == '/')
}

// slashed writes a Windows path with slashes, its drive letter in
// lower case (Windows paths are compared without case there); a Unix
// path stays as it is, backslashes and all.
func slashed(p string) string {
	if len(p) >= 2 && isLetter(p[0]) && p[1] == ':' {
		return strings.ToLower(p[:1]) + strings.ReplaceAll(p[1:], `\`, "/")
	}
	return p
}

// below returns p's part below directory top, not cleaned.
func below(p, top string) (string, bool) {
	prefix := top
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if !strings.HasPrefix(p, prefix) || len(p) == len(prefix) {
		return "", false
	}
	return p[len(prefix):], true
}

// escapes reports whether a cleaned relative path climbs out of its
// directory.
func escapes(p string) bool { return p == ".." || strings.HasPrefix(p, "../") }

// trackedSuffix returns the longest path of the tree as the reply has
// left it that the cleaned absolute path ends in, at a component
// boundary ("" when none). Two different paths of one length cannot
// both end one name, so the longest is the only candidate.
func (r *resolver) trackedSuffix(abs string) string {
	parts := strings.Split(strings.TrimPrefix(abs, "/"), "/")
	for i := range parts {
		if i == 0 && strings.HasSuffix(parts[0], ":") {
			continue // a drive letter is no directory of a repository
		}
		cand := strings.Join(parts[i:], "/")
		if rd := checkReading(cand, cand); rd.err != nil {
			continue
		}
		if e, ok := r.present(cand); ok && e.Mode != patch.ModeGitlink {
			return cand
		}
	}
	return ""
}

// revealedTops lists the directories that the reply's absolute paths
// other than name place the repository in: each path ending in a
// tracked path reveals the directory above it, and a Root given
// anywhere in the reply is one.
func (r *resolver) revealedTops(name string) []string {
	seen := map[string]bool{}
	var tops []string
	add := func(t string) {
		if !seen[t] {
			seen[t] = true
			tops = append(tops, t)
		}
	}
	for _, op := range r.ops {
		if op.Root != "" {
			add(path.Clean(slashed(op.Root)))
		}
		for _, p := range []string{op.Path, op.NewPath} {
			if p == "" || p == name || !isAbsolute(p) {
				continue
			}
			clean := path.Clean(slashed(p))
			if t := r.trackedSuffix(clean); t != "" {
				add(topOf(clean, t))
			}
		}
	}
	return tops
}

// topOf is the directory a cleaned absolute path places the
// repository in when it ends in the tracked path t.
func topOf(clean, t string) string {
	if top := strings.TrimSuffix(clean[:len(clean)-len(t)], "/"); top != "" {
		return top
	}
	return "/"
}

// findsText reports whether op must find text of its file to apply,
// which shows that the file is the one the agent meant.
func findsText(op *translate.Operation) bool {
	return op.Kind == translate.Replace && op.OldText != "" || op.Kind == translate.Edit && len(op.Old)+len(op.Before)+len(op.After) > 0 ||
		op.Kind == translate.Lazy
}

// agentPath reports whether op names its file by an absolute path to
// map: an agent's tool call (its format, or a session's Root) does.
// Every other format keeps SPEC section 5's rule that paths are
// relative, and an absolute one is refused.
func (r *resolver) agentPath(op *translate.Operation) bool {
	return isAbsolute(op.Path) && isAgentOp(op, r.opts.Format)
}

func isAgentOp(op *translate.Operation, format string) bool {
	return op.Root != "" || op.Format == translate.FormatToolCalls || op.Format == "" && format == translate.FormatToolCalls
}

// relativeName is name, a path op gives, made relative to the
// repository when it is an agent's absolute path (see mapAbsolute).
func (r *resolver) relativeName(op *translate.Operation, name string) (rel, note string, err error) {
	if !isAbsolute(name) || !isAgentOp(op, r.opts.Format) {
		return name, "", nil
	}
	return r.mapAbsolute(name, op.Root, false)
}

// holds reports whether directory dir (ending in "/" or not) is top or
// one of its ancestors.
func holds(dir, top string) bool {
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		return true // the file system's root holds everything
	}
	return top == dir || strings.HasPrefix(top, dir+"/")
}
