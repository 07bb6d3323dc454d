package engine

import (
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// OpName is the report's name for what an operation does.
func OpName(op translate.Operation) string {
	switch op.Kind {
	case translate.Edit:
		switch {
		case len(op.Old) == 0:
			return "insert"
		case len(op.New) == 0:
			return "delete"
		}
		return "replace"
	case translate.Create:
		return "create"
	}
	return op.Kind.String()
}

// Excerpt quotes what an operation looks for, for a report line: the
// first line of a Replace's old text ("" for other operations, whose
// lines the closest place and the reply show).
func Excerpt(op translate.Operation) string {
	if op.Kind != translate.Replace || op.OldText == "" {
		return ""
	}
	return firstLineOf(breaksRead(op.OldText))
}

// FileStats counts the lines each changed file's part of the reply's
// diff adds and removes (patch.FileStats).
func (r *ReplyResult) FileStats() []patch.FileStat {
	return patch.FileStats(r.Changes, r.Patch)
}
