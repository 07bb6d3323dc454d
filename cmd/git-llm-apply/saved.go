package main

import (
	"fmt"
	"path"
	"strings"
	"unicode"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
	"github.com/git-llm-apply/git-llm-apply/internal/translate/session"
)

// compareSaved adds to a recorded turn's warnings each file whose
// recorded content differs from the content the session saved of it
// (Cline's <final_file_content>): the user changed the agent's edit in
// the diff view, or the editor formatted it on save, and the commit
// holds the agent's edit without that change. It never fails the turn
// (SPEC section 2).
func compareSaved(r *engine.ReplyResult, saved []session.Saved) {
	if r.Commit == "" || len(saved) == 0 {
		return
	}
	for _, s := range saved {
		if strings.HasSuffix(s.Name, ".ipynb") {
			continue // Cline strips a notebook's outputs from what it shows
		}
		at := savedPath(r, s.Path)
		for _, c := range r.Changes {
			if c.NewPath != at || c.NewPath == "" {
				continue
			}
			if line, differs := savedDiffers(string(c.New), s.Content); differs {
				r.Warnings = append(r.Warnings, translate.Warning{Line: s.Line, Msg: fmt.Sprintf(
					"%s as recorded differs from the file the session saved (its final_file_content) from line %d: the user or the editor changed it after the edit, and the commit does not hold that change", at, line)})
			}
		}
	}
}

// savedPath is the repository path of the file an operation named p:
// the path its edits resolved to, else p itself.
func savedPath(r *engine.ReplyResult, p string) string {
	at := ""
	for _, o := range r.Outcomes {
		if o.Op.Path == p && o.Path != "" {
			at = o.Path
		}
	}
	if at == "" {
		at = path.Clean(p)
	}
	return at
}

// savedDiffers compares a recorded content with a saved one as Cline's
// editor does (DiffViewProvider.saveChanges): line breaks as "\n", the
// white space ending the file dropped. It returns the first line
// where they differ.
func savedDiffers(recorded, saved string) (int, bool) {
	norm := func(s string) []string {
		s = strings.ReplaceAll(s, "\r\n", "\n")
		return strings.Split(strings.TrimRightFunc(s, unicode.IsSpace), "\n")
	}
	a, b := norm(recorded), norm(saved)
	for i := 0; i < len(a) || i < len(b); i++ {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i + 1, true
		}
	}
	return 0, false
}
