package llmapply

import (
	"fmt"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/report"
)

// Result is what became of one reply.
type Result struct {
	// Files are the changed files in their new state, in the order of
	// the diff. Empty when the reply failed (unless Partial).
	Files []File
	// Diff is the canonical git diff of Files against the source,
	// verified to reproduce them; git apply takes it.
	Diff string
	// Report is the account of every edit.
	Report Report
	// Commit is the full id of the commit Record made, and Branch the
	// branch it is on; both empty when nothing was recorded.
	Commit, Branch string
}

// OK reports whether every edit resolved (or was already applied) and
// the reply was read.
func (r *Result) OK() bool { return r.Report.OK() }

// File is one changed file. A deleted file has Deleted set and no
// Content; a renamed one has OldPath.
type File struct {
	Path    string
	OldPath string // set for a rename
	Content []byte
	Mode    Mode
	Deleted bool
}

// Report is the account of one reply, shaped as git llm-apply's JSON
// report.
type Report struct {
	Format      string `json:"format" jsonschema:"the format the reply was read as"`
	Description string `json:"description" jsonschema:"the reply's description, which becomes the commit subject"`
	// Status is checked (resolved, nothing recorded), recorded,
	// partial (recorded with failed edits left out), unchanged (every
	// edit already applied) or failed.
	Status string `json:"status" jsonschema:"checked, recorded, partial, unchanged or failed"`
	// Error says why the reply could not be read at all (no edit in
	// it, over a limit).
	Error string `json:"error,omitempty" jsonschema:"why the reply could not be read at all"`
	// RecordedAs is the commit that recorded this very reply before on
	// the branch (status unchanged): nothing was applied again.
	RecordedAs string       `json:"recorded_as,omitempty" jsonschema:"the commit that recorded this same reply before; nothing was applied again"`
	Edits      []EditReport `json:"edits" jsonschema:"every edit of the reply, in reply order"`
	Files      []FileStat   `json:"files" jsonschema:"the changed files: status A, M, D or R and the lines added and deleted"`
	Shell      []ShellBlock `json:"shell,omitempty" jsonschema:"shell blocks the reply suggests; they are never run"`
	Notes      []string     `json:"notes,omitempty" jsonschema:"things worth knowing about the result"`
	Warnings   []string     `json:"warnings,omitempty" jsonschema:"things in the reply worth a second look"`
}

// OK reports whether the reply was read and no edit failed.
func (r Report) OK() bool {
	if r.Error != "" || r.Status == "failed" {
		return false
	}
	for _, e := range r.Edits {
		if e.Status == "failed" {
			return false
		}
	}
	return true
}

// EditReport is one edit. Lines are 1-based and inclusive, in the file
// as it stood when the edit applied; for an insertion both are the
// line the new lines follow (0: the top).
type EditReport struct {
	N         int    `json:"n" jsonschema:"the edit's number in the reply, from 1"`
	Path      string `json:"path" jsonschema:"the file the edit changes"`
	Op        string `json:"op" jsonschema:"replace, insert, delete, create, write, rename and the like"`
	Status    string `json:"status" jsonschema:"applied, already-applied, failed or skipped"`
	Rung      string `json:"rung,omitempty" jsonschema:"how the edit matched: exact, trailing, indent, whitespace, comments, typography, similarity and the like"`
	Lines     []int  `json:"lines,omitempty" jsonschema:"first and last line the edit replaced"`
	ReplyLine int    `json:"reply_line" jsonschema:"the reply line the edit starts on"`
	// Reason says why the edit failed; Closest is where its text most
	// nearly stands.
	Reason      string         `json:"reason,omitempty" jsonschema:"why the edit failed"`
	Closest     *ClosestReport `json:"closest,omitempty" jsonschema:"where a failed edit's lines most nearly stand"`
	Suggestions []string       `json:"suggestions,omitempty" jsonschema:"existing paths close to a path that names no file"`
	Warnings    []string       `json:"warnings,omitempty" jsonschema:"things about this edit worth a second look"`
}

// ClosestReport is where a failed edit's lines most nearly stand:
// Text holds the file's lines Lines[0] to Lines[1], of which those
// numbered in Differ do not read as the edit's. Fuzz, when set, is the
// fuzz level at which the edit would match there.
type ClosestReport struct {
	Lines      []int   `json:"lines" jsonschema:"first and last line of the closest place"`
	Similarity float64 `json:"similarity" jsonschema:"how alike, from 0 to 1"`
	Text       string  `json:"text" jsonschema:"the file's lines there, as they are"`
	Differ     []int   `json:"differ" jsonschema:"the numbers of the lines that differ from the edit's"`
	Fuzz       string  `json:"fuzz,omitempty" jsonschema:"the fuzz level at which the edit would match there"`
}

// FileStat is one changed file of a report: status A, M, D or R and
// the lines the diff adds and deletes.
type FileStat struct {
	Status  string `json:"status" jsonschema:"A, M, D or R"`
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty" jsonschema:"the path before a rename"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
}

// ShellBlock is a shell block of the reply; it is never run.
type ShellBlock struct {
	ReplyLine int    `json:"reply_line"`
	Text      string `json:"text"`
}

// newResult describes r.
func newResult(r *engine.ReplyResult, branch string) *Result {
	out := &Result{Diff: string(r.Patch), Commit: r.Commit}
	if r.Commit != "" {
		out.Branch = branch
	}
	if r.Status != engine.ReplyFailed {
		for _, c := range r.Changes {
			f := File{Path: c.Path(), Content: c.New, Mode: Mode(c.NewMode), Deleted: c.IsDelete()}
			if c.IsRename() {
				f.OldPath = c.OldPath
			}
			if f.Deleted {
				f.Mode = 0
			} else if f.Mode == 0 {
				f.Mode = Mode(c.OldMode)
				if f.Mode == 0 {
					f.Mode = ModeRegular
				}
			}
			out.Files = append(out.Files, f)
		}
	} else {
		out.Diff = ""
	}
	rr := report.NewReply(r, branch, "")
	rep := Report{Format: rr.Format, Description: rr.Description, Status: rr.Status, Edits: []EditReport{}, Files: []FileStat{},
		Notes: rr.Notes, Warnings: rr.Warnings, RecordedAs: r.RecordedAs}
	if r.Err != nil {
		rep.Error = r.Err.Error()
	}
	for _, e := range rr.Edits {
		er := EditReport{N: e.N, Path: e.Path, Op: e.Op, Status: e.Status, ReplyLine: e.ReplyLine,
			Suggestions: e.Suggestions, Warnings: e.Warnings}
		if e.Rung != nil {
			er.Rung = *e.Rung
		}
		if e.Lines != nil {
			er.Lines = []int{e.Lines[0], e.Lines[1]}
		}
		if e.Reason != nil {
			er.Reason = *e.Reason
		}
		if c := e.Closest; c != nil {
			er.Closest = &ClosestReport{Lines: []int{c.Lines[0], c.Lines[1]}, Similarity: c.Similarity, Text: c.Text, Differ: c.Differ}
			if c.Fuzz != nil {
				er.Closest.Fuzz = *c.Fuzz
			}
		}
		rep.Edits = append(rep.Edits, er)
	}
	for _, f := range rr.Files {
		rep.Files = append(rep.Files, FileStat{Status: f.Status, Path: f.Path, OldPath: f.OldPath, Added: f.Added, Deleted: f.Deleted})
	}
	for _, s := range rr.Shell {
		rep.Shell = append(rep.Shell, ShellBlock{ReplyLine: s.Line, Text: s.Text})
	}
	out.Report = rep
	return out
}

// String is the report as a person (or a model) reads it: a headline,
// the changed files, and for each failed edit what, where and why, with
// the closest lines marked "|" where they read as the edit's and "!"
// where they differ. It is meant to be sent back to the model as it
// is.
func (r Report) String() string {
	var b strings.Builder
	desc := r.Description
	if desc == "" {
		desc = "(no description)"
	}
	if r.Error != "" {
		fmt.Fprintf(&b, "error: %s\n", r.Error)
		return b.String()
	}
	failed := 0
	for _, e := range r.Edits {
		if e.Status == "failed" {
			failed++
		}
	}
	fmt.Fprintf(&b, "%s (%s): %s\n", desc, r.Format, r.headline(failed))
	for _, f := range r.Files {
		switch f.Status {
		case "R":
			fmt.Fprintf(&b, "  R %s -> %s (+%d -%d)\n", f.OldPath, f.Path, f.Added, f.Deleted)
		case "M":
			fmt.Fprintf(&b, "  M %s (+%d -%d)\n", f.Path, f.Added, f.Deleted)
		default:
			fmt.Fprintf(&b, "  %s %s\n", f.Status, f.Path)
		}
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "  warning: %s\n", w)
	}
	for _, s := range r.Shell {
		fmt.Fprintf(&b, "  shell block at reply line %d (suggested, not run):\n", s.ReplyLine)
		for _, l := range strings.Split(strings.TrimSuffix(s.Text, "\n"), "\n") {
			fmt.Fprintf(&b, "    $ %s\n", l)
		}
	}
	for _, e := range r.Edits {
		for _, w := range e.Warnings {
			fmt.Fprintf(&b, "  warning: edit %d (%s): %s\n", e.N, e.Path, w)
		}
		if e.Status == "failed" {
			e.writeFailure(&b)
		}
	}
	return b.String()
}

func (r Report) headline(failed int) string {
	n := len(r.Edits)
	switch r.Status {
	case "recorded":
		return fmt.Sprintf("[recorded, %s]", plural(n, "edit"))
	case "partial":
		return fmt.Sprintf("[recorded; %d of %s failed and left out]", failed, plural(n, "edit"))
	case "unchanged":
		if r.RecordedAs != "" {
			return "[nothing to record: this reply is already recorded]"
		}
		return "[nothing to record: every edit is already applied]"
	case "checked":
		if failed > 0 {
			return fmt.Sprintf("[%d of %s failed]", failed, plural(n, "edit"))
		}
		return fmt.Sprintf("[ok, %s]", plural(n, "edit"))
	}
	return fmt.Sprintf("[%d of %s failed; nothing recorded]", failed, plural(n, "edit"))
}

func (e EditReport) writeFailure(b *strings.Builder) {
	what := e.Op
	if e.Path != "" {
		what += " " + e.Path
	}
	fmt.Fprintf(b, "error: edit %d (%s, reply line %d) failed: %s.\n", e.N, what, e.ReplyLine, strings.TrimSuffix(e.Reason, "."))
	c := e.Closest
	if c == nil {
		if len(e.Suggestions) > 0 {
			fmt.Fprintf(b, "  Did you mean %s?\n", strings.Join(e.Suggestions, " or "))
		}
		return
	}
	if c.Lines[0] == c.Lines[1] {
		fmt.Fprintf(b, "  The closest line is line %d of %s (similarity %.2f); \"!\" marks a line that differs from the edit's, \"|\" one that matches:\n", c.Lines[0], e.Path, c.Similarity)
	} else {
		fmt.Fprintf(b, "  The closest lines are %d-%d of %s (similarity %.2f); \"!\" marks a line that differs from the edit's, \"|\" one that matches:\n", c.Lines[0], c.Lines[1], e.Path, c.Similarity)
	}
	differ := map[int]bool{}
	for _, n := range c.Differ {
		differ[n] = true
	}
	for i, l := range strings.Split(c.Text, "\n") {
		mark := "|"
		if differ[c.Lines[0]+i] {
			mark = "!"
		}
		fmt.Fprintf(b, "    %s %s\n", mark, l)
	}
	if c.Fuzz != "" {
		fmt.Fprintf(b, "  With fuzz %s this edit matches there.\n", c.Fuzz)
	}
	b.WriteString("  Send this edit again with the lines to find copied exactly from those lines.\n")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
