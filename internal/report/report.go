package report

import (
	"fmt"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Document is the machine-readable account of a run (SPEC section 8),
// the document --json prints (docs/usage.md, --json): New makes
// its replies, the caller says how the run ended. The fields of a reply
// that do not apply are null rather than missing, so that consumers can
// rely on the shape; those of a run that ended early are left out when
// it did not.
type Document struct {
	Replies []Reply `json:"replies"`
	OK      bool    `json:"ok"`
	// Interrupted: a signal stopped the run, cutting short the reply
	// Cut ("" when it came between two) before the replies Unread.
	Interrupted bool     `json:"interrupted,omitempty"`
	Cut         string   `json:"cut,omitempty"`
	Unread      []string `json:"unread,omitempty"`
	// Error is what stopped the run before it could report its replies
	// or record them.
	Error string `json:"error,omitempty"`
}

// Options are what a report says of the replies besides their
// results.
type Options struct {
	Branch  string         // where the replies with a commit were recorded
	Patches map[int]string // the patch file written of each result, by index
	Turns   map[int]*Turn  // replay: the session turn each result is, by index
	Diffs   bool           // each reply's diff in its "diff" (translate)
	Signed  bool           // the commits are signed
}

// New is the report of a run's results; OK and how the run
// ended are the caller's to set.
func New(results []*engine.ReplyResult, o Options) Document {
	rep := Document{Replies: []Reply{}}
	for i, r := range results {
		branch := ""
		if r.Commit != "" {
			branch = o.Branch
		}
		rr := NewReply(r, branch, o.Patches[i])
		rr.Signed = o.Signed && r.Commit != ""
		rr.Turn = o.Turns[i]
		if o.Diffs && len(r.Patch) > 0 {
			d := string(r.Patch)
			rr.Diff = &d
		}
		rep.Replies = append(rep.Replies, rr)
	}
	return rep
}

// Reply is one reply's part of a Document.
type Reply struct {
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
	RecordedAs *string  `json:"recorded_as,omitempty"`
	Edits      []Edit   `json:"edits"`
	Files      []File   `json:"files"`
	Shell      []Shell  `json:"shell"`
	Notes      []string `json:"notes"`
	Warnings   []string `json:"warnings"`
	*Turn               // replay: the turn of a session log the reply is
	Diff       *string  `json:"diff,omitempty"` // translate: the reply's diff
}

// Turn is what a reply that is a turn of a session (replay) adds
// to its report: the session and turn, the log line of its request (0
// for a directory of replies) and the edits the session saw fail.
type Turn struct {
	Session string `json:"session"`
	Turn    int    `json:"turn"`
	Line    int    `json:"session_line,omitempty"`
	Skipped []Skip `json:"skipped,omitempty"`
}

// Skip is an edit of a session log that is not replayed, having
// failed in the session or being one that cannot be read.
type Skip struct {
	Line int    `json:"line"`
	Path string `json:"path,omitempty"`
	Why  string `json:"why"`
	// Unread: the call looks like an edit but cannot be read, and
	// --partial skipped it (SPEC section 2).
	Unread bool `json:"unread,omitempty"`
}

// Edit is one edit's part of a Reply. Lines are 1-based and
// inclusive in the file as it stood when the edit applied; for an
// insertion both are the line the new lines follow (0: the top).
type Edit struct {
	N         int      `json:"n"`
	Path      string   `json:"path"`
	Op        string   `json:"op"`
	Status    string   `json:"status"`
	Rung      *string  `json:"rung"`
	Lines     *[2]int  `json:"lines"`
	Reason    *string  `json:"reason"`
	Closest   *Closest `json:"closest"`
	ReplyLine int      `json:"reply_line"`
	Comment   *string  `json:"comment,omitempty"`
	Places    []int    `json:"places,omitempty"`
	Warnings  []string `json:"warnings,omitempty"`
	// Suggestions are the closest existing paths to a path that names
	// no file; Elsewhere is what the edit does in the other base.
	Suggestions []string   `json:"suggestions,omitempty"`
	Elsewhere   *Elsewhere `json:"elsewhere,omitempty"`
}

// Elsewhere says that a failed edit resolves in the other base
// ("worktree" or "index"; status "applied" or "already-applied"), or
// that only there is its file (status "failed"). OnlyThere: the file is
// in that base and not in the one edits resolved against (untracked,
// or deleted from the working tree).
type Elsewhere struct {
	Base      string `json:"base"`
	Status    string `json:"status"`
	OnlyThere bool   `json:"only_there,omitempty"`
}

// Closest is where a failed edit's text most nearly stands:
// differ lists the lines that do not read as the edit's; rung and fuzz
// are the rung above the edit's own at which they match it and the
// --fuzz level that climbs to it (null when none does).
type Closest struct {
	Lines      [2]int  `json:"lines"`
	Similarity float64 `json:"similarity"`
	Text       string  `json:"text"`
	Differ     []int   `json:"differ"`
	// Missing is the edit's lines that none of these lines reads as
	// (see Closest.Missing).
	Missing []Missing `json:"missing,omitempty"`
	Rung    *string   `json:"rung"`
	Fuzz    *string   `json:"fuzz"`
}

// Missing is a line of the edit that none of the closest lines
// reads as: its number among the edit's lines to find, the closest line
// it stands after, and its text.
type Missing struct {
	Line  int    `json:"line"`
	After int    `json:"after"`
	Text  string `json:"text"`
}

// File is one changed file: status A, M, D or R, and the lines
// the diff adds and removes.
type File struct {
	Status  string `json:"status"`
	Path    string `json:"path"`
	OldPath string `json:"old_path,omitempty"`
	Added   int    `json:"added"`
	Deleted int    `json:"deleted"`
}

// Shell is a shell block the reply suggests; it is never run.
type Shell struct {
	Line int    `json:"line"`
	Lang string `json:"lang"`
	Text string `json:"text"`
}

// NewReply describes one reply. branch and patchFile are where its
// commit and patch file went ("" for none).
func NewReply(r *engine.ReplyResult, branch, patchFile string) Reply {
	rr := Reply{
		Source: r.Source, Format: r.Format, Status: string(r.Status),
		Description: r.Subject, Commit: opt(r.Commit), Branch: opt(branch), Patch: opt(patchFile),
		Edits: []Edit{}, Files: files(r.FileStats()), Shell: []Shell{},
		Notes: append([]string{}, r.Notes...), Warnings: []string{},
	}
	if r.Err != nil {
		rr.Error = opt(r.Err.Error())
	}
	rr.RecordedAs = opt(r.RecordedAs)
	for _, s := range r.Shell {
		rr.Shell = append(rr.Shell, Shell{Line: s.Line, Lang: s.Lang, Text: s.Text})
	}
	for _, w := range r.Warnings {
		rr.Warnings = append(rr.Warnings, fmt.Sprintf("reply line %d: %s", w.Line, w.Msg))
	}
	for _, o := range r.Outcomes {
		e := Edit{N: o.N, Path: o.Path, Op: engine.OpName(o.Op), Status: string(o.Status), ReplyLine: o.Op.Line, Warnings: o.Warnings}
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
				e.Elsewhere = &Elsewhere{Base: w.Base, Status: string(w.Status), OnlyThere: w.OnlyThere}
			}
			if c := o.Err.Closest; c != nil {
				e.Closest = &Closest{Lines: [2]int{c.Start, c.End}, Similarity: c.Similarity, Text: c.Text, Differ: append([]int{}, c.Differ...)}
				for _, l := range c.Missing {
					e.Closest.Missing = append(e.Closest.Missing, Missing{Line: l.Line, After: l.After, Text: l.Text})
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

// files is the report's list of the changed files: never null.
func files(stats []patch.FileStat) []File {
	out := make([]File, 0, len(stats))
	for _, f := range stats {
		out = append(out, File{Status: f.Status, Path: f.Path, OldPath: f.OldPath, Added: f.Added, Deleted: f.Deleted})
	}
	return out
}
