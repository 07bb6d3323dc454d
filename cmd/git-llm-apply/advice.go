package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
)

// elsewhereAdvice is what to do about a failed edit that the other base
// takes (engine.Elsewhere), or whose file only the other base has: the
// user edited the file and did not stage it, or staged it and edited
// it again. "" when the engine found neither, so that the advice
// given is never a guess.
func elsewhereAdvice(e engine.Outcome, w [2]string, at place) string {
	if e.Err == nil || e.Err.Elsewhere == nil {
		return ""
	}
	x := e.Err.Elsewhere
	p, arg := displayPath(e.Err.Path), at.pathArg(e.Err.Path)
	matches := x.Status == engine.Applied
	done := x.Status == engine.AlreadyApplied
	switch x.Base {
	case "worktree":
		switch {
		case x.OnlyThere && matches:
			return fmt.Sprintf("%s is not tracked; %s add %s or use --base worktree (this edit matches the file in the working tree).", p, at.git(), arg)
		case x.OnlyThere && done:
			return fmt.Sprintf("%s is not tracked, and the working tree's %s already holds this edit; %s add %s to stage it.", p, p, at.git(), arg)
		case x.OnlyThere:
			return fmt.Sprintf("%s is not tracked; %s add %s or use --base worktree, and copy %s exactly as it stands in the working tree (this edit does not match it there either).", p, at.git(), arg, w[0])
		case matches:
			return fmt.Sprintf("This edit matches the working tree: %s has changes that are not staged. Stage them with %s add %s, or run again with --base worktree.", p, at.git(), arg)
		case done:
			return fmt.Sprintf("The working tree's %s already holds this edit, in changes that are not staged. Stage them with %s add %s.", p, at.git(), arg)
		}
	case "index":
		switch {
		case x.OnlyThere && (matches || done):
			return fmt.Sprintf("%s is deleted in the working tree but not in the index, where this edit matches; run again without --base worktree, or bring the file back with %s restore %s.", p, at.git(), arg)
		case x.OnlyThere:
			return fmt.Sprintf("%s is deleted in the working tree but not in the index; %s restore %s brings it back.", p, at.git(), arg)
		case matches:
			return fmt.Sprintf("This edit matches the index but not the working tree: %s has changes that are not staged. Run again without --base worktree to edit the staged %s, or send the edit again against the file as it is now.", p, p)
		case done:
			return fmt.Sprintf("The staged %s already holds this edit; the working tree's %s has changes that are not staged (%s diff %s shows them).", p, p, at.git(), arg)
		}
	}
	return ""
}

// suggestAdvice is the advice for an edit naming a path that is no
// file: the closest paths that are, if any ("" when none).
func suggestAdvice(e engine.Outcome, w [2]string) string {
	if e.Err == nil || len(e.Err.Suggestions) == 0 {
		return ""
	}
	names := make([]string, len(e.Err.Suggestions))
	for i, s := range e.Err.Suggestions {
		names[i] = displayPath(s)
	}
	list := names[0]
	if n := len(names); n > 1 {
		list = strings.Join(names[:n-1], ", ") + " or " + names[n-1]
	}
	return fmt.Sprintf("Did you mean %s? To create a file instead, %s.", list, w[1])
}

// shellArg is s as an argument of a suggested command that can be
// pasted as it is: quoted by shquote.Word, and a leading "-", which
// would be read as an option, made "./-".
func shellArg(s string) string {
	if strings.HasPrefix(s, "-") {
		s = "./" + s
	}
	return shquote.Word(s)
}

// place is where the user typed the command, for the git commands the
// report suggests, which must work pasted there as they are: after
// -C DIR they need -C DIR too, and from a subdirectory of the working
// tree a path is relative to it, as git status shows paths.
type place struct {
	dir    string // -C's directory as given, "" for none
	prefix string // the start directory under the working tree's top, "" at the top or outside it
}

// placeOf is the place of a command that runs in dir ("" for the
// process's working directory), given -C arg ("" for none), and opened
// repo.
func placeOf(dir, arg string, repo *gitops.Repo) place {
	at := place{dir: arg}
	start := dir
	if start == "" {
		start = "."
	}
	abs, err := filepath.Abs(start)
	if err != nil || repo == nil || repo.Root() == "" {
		return at
	}
	// The top is found through symbolic links; so must the start be.
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	rel, err := filepath.Rel(repo.Root(), abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return at
	}
	at.prefix = filepath.ToSlash(rel)
	return at
}

// git is how a suggested git command starts.
func (at place) git() string {
	if at.dir == "" {
		return "git"
	}
	return "git -C " + shellArg(at.dir)
}

// pathArg is the path p (relative to the top of the working tree) as
// an argument of a suggested git command, quoted for the shell.
func (at place) pathArg(p string) string {
	if at.prefix != "" {
		if rel, err := filepath.Rel(filepath.FromSlash(at.prefix), filepath.FromSlash(p)); err == nil {
			p = filepath.ToSlash(rel)
		}
	}
	return shellArg(p)
}
