package main

import (
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/engine"
)

// elsewhereAdvice is what to do about a failed edit that the other base
// takes (engine.Elsewhere), or whose file only the other base has: the
// user edited the file and did not stage it, or staged it and edited
// it again. "" when the engine found neither, so that the advice
// given is never a guess.
func elsewhereAdvice(e engine.Outcome, w [2]string) string {
	if e.Err == nil || e.Err.Elsewhere == nil {
		return ""
	}
	x := e.Err.Elsewhere
	p, arg := displayPath(e.Err.Path), shellArg(e.Err.Path)
	matches := x.Status == engine.Applied
	done := x.Status == engine.AlreadyApplied
	switch x.Base {
	case "worktree":
		switch {
		case x.OnlyThere && matches:
			return fmt.Sprintf("%s is not tracked; git add %s or use --base worktree (this edit matches the file in the working tree).", p, arg)
		case x.OnlyThere && done:
			return fmt.Sprintf("%s is not tracked, and the working tree's %s already holds this edit; git add %s to stage it.", p, p, arg)
		case x.OnlyThere:
			return fmt.Sprintf("%s is not tracked; git add %s or use --base worktree, and copy %s exactly as it stands in the working tree (this edit does not match it there either).", p, arg, w[0])
		case matches:
			return fmt.Sprintf("This edit matches the working tree: %s has changes that are not staged. Stage them with git add %s, or run again with --base worktree.", p, arg)
		case done:
			return fmt.Sprintf("The working tree's %s already holds this edit, in changes that are not staged. Stage them with git add %s.", p, arg)
		}
	case "index":
		switch {
		case x.OnlyThere && (matches || done):
			return fmt.Sprintf("%s is deleted in the working tree but not in the index, where this edit matches; run again without --base worktree, or bring the file back with git restore %s.", p, arg)
		case x.OnlyThere:
			return fmt.Sprintf("%s is deleted in the working tree but not in the index; git restore %s brings it back.", p, arg)
		case matches:
			return fmt.Sprintf("This edit matches the index but not the working tree: %s has changes that are not staged. Run again without --base worktree to edit the staged %s, or send the edit again against the file as it is now.", p, p)
		case done:
			return fmt.Sprintf("The staged %s already holds this edit; the working tree's %s has changes that are not staged (git diff %s shows them).", p, p, arg)
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

// shellArg quotes s for a POSIX shell when it needs quoting, so that
// a suggested command can be pasted as it is (a leading "-" would be
// read as an option).
func shellArg(s string) string {
	if strings.HasPrefix(s, "-") {
		s = "./" + s
	}
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./:@+=,") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
