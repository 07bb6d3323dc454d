package engine

import (
	"strings"
	"unicode/utf8"

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
// diff adds and removes (patch.FileStats), also once Compact dropped
// the diff.
func (r *ReplyResult) FileStats() []patch.FileStat {
	if r.stats != nil {
		return r.stats
	}
	return patch.FileStats(r.Changes, r.Patch)
}

// Compact drops what the report of r does not use once r is recorded,
// keeping what it shows the same: the texts of the edits that did not
// fail (their kind, path, lines and the excerpt the report quotes
// stay), and with contents set, also the files' contents and the diff
// (their counts stay, for FileStats). A caller that keeps the results
// of thousands of replies (replay) then holds a report's worth of
// each, not every version of every file.
func (r *ReplyResult) Compact(contents bool) {
	if contents {
		r.stats = r.FileStats()
		r.Patch = nil
		for i, c := range r.Changes {
			r.Changes[i] = patch.FileChange{OldPath: c.OldPath, NewPath: c.NewPath, OldMode: c.OldMode, NewMode: c.NewMode}
		}
	}
	for i := range r.Outcomes {
		if o := &r.Outcomes[i]; o.Status != Failed {
			o.Op = compactOp(o.Op)
		}
	}
}

// compactOp is op without its texts, but for what OpName and Excerpt
// read of them.
func compactOp(op translate.Operation) translate.Operation {
	c := translate.Operation{Kind: op.Kind, Format: op.Format, Path: op.Path, Root: op.Root,
		Call: op.Call, Line: op.Line, Comment: op.Comment, FileOp: op.FileOp, TextEdit: translate.TextEdit{InsertAfter: op.InsertAfter}}
	// One line of each, copied: a line of New may be a slice of the
	// whole content of the file the reply wrote, which it would keep.
	c.Old, c.New = firstOnly(op.Old), firstOnly(op.New)
	c.OldText = op.OldText
	if len(c.OldText) > 256 {
		// firstLineOf quotes no more than 60 bytes of the first line,
		// and says when there is more.
		cut := 256
		for cut > 0 && !utf8.RuneStart(c.OldText[cut]) {
			cut--
		}
		c.OldText = c.OldText[:cut] + "\n..."
	}
	c.OldText = strings.Clone(c.OldText)
	return c
}

// firstOnly is a copy of the first of lines (nil for none), for what
// OpName reads of them: whether there are any.
func firstOnly(lines []string) []string {
	if len(lines) == 0 {
		return nil
	}
	return []string{strings.Clone(lines[0])}
}
