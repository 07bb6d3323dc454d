package engine

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Report is the machine-readable account of a run (SPEC section 8),
// the document --json prints (README, "The document"): NewReport makes
// its replies, the caller says how the run ended. The fields of a reply
// that do not apply are null rather than missing, so that consumers can
// rely on the shape; those of a run that ended early are left out when
// it did not.
type Report struct {
	Replies []ReplyReport `json:"replies"`
	OK      bool          `json:"ok"`
	// Interrupted: a signal stopped the run, cutting short the reply
	// Cut ("" when it came between two) before the replies Unread.
	Interrupted bool     `json:"interrupted,omitempty"`
	Cut         string   `json:"cut,omitempty"`
	Unread      []string `json:"unread,omitempty"`
	// Error is what stopped the run before it could report its replies
	// or record them.
	Error string `json:"error,omitempty"`
}

// ReportOptions are what a report says of the replies besides their
// results.
type ReportOptions struct {
	Branch  string              // where the replies with a commit were recorded
	Patches map[int]string      // the patch file written of each result, by index
	Turns   map[int]*TurnReport // replay: the session turn each result is, by index
	Diffs   bool                // each reply's diff in its "diff" (translate)
	Signed  bool                // the commits are signed
}

// NewReport is the report of a run's results; OK and how the run
// ended are the caller's to set.
func NewReport(results []*ReplyResult, o ReportOptions) Report {
	rep := Report{Replies: []ReplyReport{}}
	for i, r := range results {
		branch := ""
		if r.Commit != "" {
			branch = o.Branch
		}
		rr := NewReplyReport(r, branch, o.Patches[i])
		rr.Signed = o.Signed && r.Commit != ""
		rr.TurnReport = o.Turns[i]
		if o.Diffs && len(r.Patch) > 0 {
			d := string(r.Patch)
			rr.Diff = &d
		}
		rep.Replies = append(rep.Replies, rr)
	}
	return rep
}

// ReplyReport is one reply's part of a Report.
type ReplyReport struct {
	Source      string  `json:"source"`
	Format      string  `json:"format"`
	Description string  `json:"description"`
	Status      string  `json:"status"`
	Commit      *string `json:"commit"`
	Signed      bool    `json:"signed,omitempty"` // the commit is signed (SPEC section 3)
	Branch      *string `json:"branch"`
	Patch       *string `json:"patch"`
	Error       *string `json:"error"`
	// RecordedAs is the commit that recorded this very reply before
	// (status unchanged): nothing was applied again.
	RecordedAs  *string       `json:"recorded_as,omitempty"`
	Edits       []EditReport  `json:"edits"`
	Files       []FileReport  `json:"files"`
	Shell       []ShellReport `json:"shell"`
	Notes       []string      `json:"notes"`
	Warnings    []string      `json:"warnings"`
	*TurnReport               // replay: the turn of a session log the reply is
	Diff        *string       `json:"diff,omitempty"` // translate: the reply's diff
}

// TurnReport is what a reply that is a turn of a session (replay) adds
// to its report: the session and turn, the log line of its request (0
// for a directory of replies) and the edits the session saw fail.
type TurnReport struct {
	Session string       `json:"session"`
	Turn    int          `json:"turn"`
	Line    int          `json:"session_line,omitempty"`
	Skipped []SkipReport `json:"skipped,omitempty"`
}

// SkipReport is an edit of a session log that is not replayed, having
// failed in the session or being one that cannot be read.
type SkipReport struct {
	Line int    `json:"line"`
	Path string `json:"path,omitempty"`
	Why  string `json:"why"`
	// Unread: the call looks like an edit but cannot be read, and
	// --partial skipped it (SPEC section 2).
	Unread bool `json:"unread,omitempty"`
}

// EditReport is one edit's part of a ReplyReport. Lines are 1-based and
// inclusive in the file as it stood when the edit applied; for an
// insertion both are the line the new lines follow (0: the top).
type EditReport struct {
	N         int            `json:"n"`
	Path      string         `json:"path"`
	Op        string         `json:"op"`
	Status    string         `json:"status"`
	Rung      *string        `json:"rung"`
	Lines     *[2]int        `json:"lines"`
	Reason    *string        `json:"reason"`
	Closest   *ClosestReport `json:"closest"`
	ReplyLine int            `json:"reply_line"`
	Comment   *string        `json:"comment,omitempty"`
	Places    []int          `json:"places,omitempty"`
	Warnings  []string       `json:"warnings,omitempty"`
	// Suggestions are the closest existing paths to a path that names
	// no file; Elsewhere is what the edit does in the other base.
	Suggestions []string         `json:"suggestions,omitempty"`
	Elsewhere   *ElsewhereReport `json:"elsewhere,omitempty"`
}

// ElsewhereReport says that a failed edit resolves in the other base
// ("worktree" or "index"; status "applied" or "already-applied"), or
// that only there is its file (status "failed"). OnlyThere: the file is
// in that base and not in the one edits resolved against (untracked,
// or deleted from the working tree).
type ElsewhereReport struct {
	Base      string `json:"base"`
	Status    string `json:"status"`
	OnlyThere bool   `json:"only_there,omitempty"`
}

// ClosestReport is where a failed edit's text most nearly stands:
// differ lists the lines that do not read as the edit's; rung and fuzz
// are the rung above the edit's own at which they match it and the
// --fuzz level that climbs to it (null when none does).
type ClosestReport struct {
	Lines      [2]int  `json:"lines"`
	Similarity float64 `json:"similarity"`
	Text       string  `json:"text"`
	Differ     []int   `json:"differ"`
	// Missing is the edit's lines that none of these lines reads as
	// (see Closest.Missing).
	Missing []MissingReport `json:"missing,omitempty"`
	Rung    *string         `json:"rung"`
	Fuzz    *string         `json:"fuzz"`
}

// MissingReport is a line of the edit that none of the closest lines
// reads as: its number among the edit's lines to find, the closest line
// it stands after, and its text.
type MissingReport struct {
	Line  int    `json:"line"`
	After int    `json:"after"`
	Text  string `json:"text"`
}

// FileReport is one changed file: status A, M, D or R, and the lines
// the diff adds and removes.
type FileReport struct {
	Status  string `json:"status"`
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
}

// ShellReport is a shell block the reply suggests; it is never run.
type ShellReport struct {
	Line int    `json:"line"`
	Lang string `json:"lang"`
	Text string `json:"text"`
}

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

// NewReplyReport describes one reply. branch and patch are where its
// commit and patch file went ("" for none).
func NewReplyReport(r *ReplyResult, branch, patch string) ReplyReport {
	rr := ReplyReport{
		Source: r.Source, Format: r.Format, Status: string(r.Status),
		Description: r.Subject, Commit: opt(r.Commit), Branch: opt(branch), Patch: opt(patch),
		Edits: []EditReport{}, Files: r.FileStats(), Shell: []ShellReport{},
		Notes: append([]string{}, r.Notes...), Warnings: []string{},
	}
	if r.Err != nil {
		rr.Error = opt(r.Err.Error())
	}
	rr.RecordedAs = opt(r.RecordedAs)
	for _, s := range r.Shell {
		rr.Shell = append(rr.Shell, ShellReport{Line: s.Line, Lang: s.Lang, Text: s.Text})
	}
	for _, w := range r.Warnings {
		rr.Warnings = append(rr.Warnings, fmt.Sprintf("reply line %d: %s", w.Line, w.Msg))
	}
	for _, o := range r.Outcomes {
		e := EditReport{N: o.N, Path: o.Path, Op: OpName(o.Op), Status: string(o.Status), ReplyLine: o.Op.Line, Warnings: o.Warnings}
		if e.Path == "" {
			e.Path = o.Op.Path
		}
		if o.Rung != 0 {
			e.Rung = opt(o.Rung.String())
		}
		if o.Op.Kind != translate.Invalid {
			e.Comment = opt(o.Op.Comment)
		}
		if o.Start > 0 || o.End > 0 {
			l := [2]int{o.Start, o.End}
			if o.End < o.Start {
				l = [2]int{o.Start - 1, o.Start - 1}
			}
			e.Lines = &l
		}
		if o.Err != nil {
			e.Reason = opt(o.Err.Msg)
			e.Places = o.Err.Places
			e.Suggestions = o.Err.Suggestions
			if w := o.Err.Elsewhere; w != nil {
				e.Elsewhere = &ElsewhereReport{Base: w.Base, Status: string(w.Status), OnlyThere: w.OnlyThere}
			}
			if c := o.Err.Closest; c != nil {
				e.Closest = &ClosestReport{Lines: [2]int{c.Start, c.End}, Similarity: c.Similarity, Text: c.Text, Differ: append([]int{}, c.Differ...)}
				for _, l := range c.Missing {
					e.Closest.Missing = append(e.Closest.Missing, MissingReport{Line: l.Line, After: l.After, Text: l.Text})
				}
				if c.Rung != 0 {
					e.Closest.Rung, e.Closest.Fuzz = opt(c.Rung.String()), opt(c.Fuzz.String())
				}
			}
		}
		rr.Edits = append(rr.Edits, e)
	}
	return rr
}

func opt(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Stats counts the lines each file's part of patch adds and removes.
// patch holds one section per change, in the order of changes.
func Stats(changes []patch.FileChange, patch []byte) []FileReport {
	out := []FileReport{}
	sections := bytes.Split(patch, []byte("\ndiff --git "))
	for i, c := range changes {
		f := FileReport{Status: "M", Path: c.Path()}
		switch {
		case c.IsCreate():
			f.Status = "A"
		case c.IsDelete():
			f.Status = "D"
		case c.IsRename():
			f.Status, f.OldPath = "R", c.OldPath
		}
		if i < len(sections) {
			f.Added, f.Deleted = countLines(sections[i])
		}
		out = append(out, f)
	}
	return out
}

// countLines counts + and - lines after a section's first hunk header,
// in one pass (a created file may have millions of lines).
func countLines(section []byte) (add, del int) {
	inHunks := false
	for rest := section; len(rest) > 0; {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		switch {
		case bytes.HasPrefix(l, []byte("@@")):
			inHunks = true
		case !inHunks:
		case bytes.HasPrefix(l, []byte("+")):
			add++
		case bytes.HasPrefix(l, []byte("-")):
			del++
		}
	}
	return add, del
}

// FileStats is Stats of the reply's changes, also once Compact dropped
// the diff they are counted from.
func (r *ReplyResult) FileStats() []FileReport {
	if r.stats != nil {
		return r.stats
	}
	return Stats(r.Changes, r.Patch)
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
	c := translate.Operation{Kind: op.Kind, Format: op.Format, Path: op.Path, NewPath: op.NewPath, Root: op.Root,
		Call: op.Call, Line: op.Line, Comment: op.Comment, Executable: op.Executable, Recursive: op.Recursive, InsertAfter: op.InsertAfter}
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
