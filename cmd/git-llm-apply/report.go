package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/engine"
	"github.com/git-llm-apply/git-llm-apply/translate"
)

// statusOf is the exit status a run's replies earn: 2 when a reply
// held no edit or was over a limit, else 1 when an edit failed.
func statusOf(results []*engine.ReplyResult) error {
	var err error
	for _, r := range results {
		if errors.Is(r.Err, translate.ErrNoEdits) {
			return &exitError{exitUsage, errors.New("no edit found")}
		}
		if errors.Is(r.Err, engine.ErrTooLarge) {
			return &exitError{exitUsage, errors.New("a reply is over a limit (see the flags --max-*)")}
		}
		if r.Failed() {
			err = errEditsFailed
		}
	}
	return err
}

// jsonReply adds translate's diff text to a reply's report.
type jsonReply struct {
	engine.ReplyReport
	Diff *string `json:"diff,omitempty"`
}

// outputs is what a run wrote besides its report: the branch it
// recorded on, the diffs translate prints inside the JSON report, the
// patch files -o wrote (each by result index).
type outputs struct {
	branch  string
	diffs   map[int]string
	patches map[int]string
	// stopped: an interrupt ended the run, cutting short the reply
	// cut ("" when it came between two) before the replies in unread.
	stopped bool
	cut     string
	unread  []string
	// fatal is what stopped the run before it could record (a base
	// that cannot be read, the branch moved).
	fatal error
}

// report prints the run's account: JSON on stdout with --json, and the
// human form on stderr (errors even with -q).
func report(s streams, o commonOptions, results []*engine.ReplyResult, out outputs) {
	branch := out.branch
	if o.JSON {
		doc := struct {
			Replies     []jsonReply `json:"replies"`
			OK          bool        `json:"ok"`
			Interrupted bool        `json:"interrupted,omitempty"`
			Cut         string      `json:"cut,omitempty"`
			Unread      []string    `json:"unread,omitempty"`
			Error       string      `json:"error,omitempty"`
		}{Replies: []jsonReply{}, OK: statusOf(results) == nil && !out.stopped && out.fatal == nil, Interrupted: out.stopped, Cut: out.cut, Unread: out.unread}
		if out.fatal != nil {
			doc.Error = trimPkgPrefix(out.fatal)
		}
		for i, r := range results {
			b := ""
			if r.Commit != "" {
				b = branch
			}
			jr := jsonReply{ReplyReport: engine.NewReplyReport(r, b, out.patches[i])}
			if d, ok := out.diffs[i]; ok {
				jr.Diff = &d
			}
			doc.Replies = append(doc.Replies, jr)
		}
		if b, err := json.MarshalIndent(doc, "", "  "); err == nil {
			s.out.Write(append(jsonSafe(b), '\n'))
		}
	}
	for i, r := range results {
		printReply(s.err, o, r, branch, out.patches[i])
	}
}

func printReply(w io.Writer, o commonOptions, r *engine.ReplyResult, branch, patch string) {
	if r.Err != nil {
		fmt.Fprintf(w, "%s: error: %s\n", r.Source, trimPkgPrefix(r.Err))
		return
	}
	failed := 0
	for _, e := range r.Outcomes {
		if e.Status == engine.Failed {
			failed++
		}
	}
	if !o.Quiet || failed > 0 {
		fmt.Fprintf(w, "%s (%s): %s\n", r.Source, r.Format, headline(r, branch, failed))
	}
	if !o.Quiet {
		for _, f := range engine.Stats(r.Changes, r.Patch) {
			switch f.Status {
			case "R":
				fmt.Fprintf(w, "  R %s -> %s (+%d -%d)\n", displayPath(f.OldPath), displayPath(f.Path), f.Added, f.Deleted)
			case "M":
				fmt.Fprintf(w, "  M %s (+%d -%d)\n", displayPath(f.Path), f.Added, f.Deleted)
			default:
				fmt.Fprintf(w, "  %s %s\n", f.Status, displayPath(f.Path))
			}
		}
		if patch != "" {
			fmt.Fprintf(w, "  patch: %s\n", patch)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
		for _, x := range r.Warnings {
			fmt.Fprintf(w, "  warning: reply line %d: %s\n", x.Line, x.Msg)
		}
		for _, sh := range r.Shell {
			fmt.Fprintf(w, "  shell block at reply line %d (suggested, not run):\n%s", sh.Line, indent(sh.Text, "    $ "))
		}
	}
	for _, e := range r.Outcomes {
		if !o.Quiet {
			for _, x := range e.Warnings {
				fmt.Fprintf(w, "  warning: edit %d (%s): %s\n", e.N, displayPath(e.Path), x)
			}
		}
		if o.Verbose && e.Status != engine.Failed {
			target := displayPath(e.Path)
			if e.Op.Kind == translate.Rename {
				target += " -> " + displayPath(e.Op.NewPath)
			}
			fmt.Fprintf(w, "  edit %d: %s %s%s: %s%s\n", e.N, engine.OpName(e.Op), target, lineRange(e), e.Status, rungNote(e))
			if e.Op.Comment != "" {
				fmt.Fprintf(w, "    comment: %s\n", e.Op.Comment)
			}
		}
		if e.Status == engine.Failed {
			printFailure(w, r, e)
		}
	}
}

func headline(r *engine.ReplyResult, branch string, failed int) string {
	subject := r.Subject
	if subject == "" {
		subject = "(no description)"
	}
	short := r.Commit
	if len(short) > 7 {
		short = short[:7]
	}
	switch r.Status {
	case engine.Recorded:
		return fmt.Sprintf("%s [%s on %s]", subject, short, branch)
	case engine.Partial:
		return fmt.Sprintf("%s [%s on %s; %d of %d edits failed and were left out]", subject, short, branch, failed, len(r.Outcomes))
	case engine.Unchanged:
		return fmt.Sprintf("%s [nothing to record: every edit is already applied]", subject)
	case engine.Checked:
		if failed > 0 {
			return fmt.Sprintf("%s [%d of %d edits failed]", subject, failed, len(r.Outcomes))
		}
		skipped := 0
		for _, e := range r.Outcomes {
			if e.Status == engine.Skipped {
				skipped++
			}
		}
		if skipped > 0 {
			return fmt.Sprintf("%s [ok, %d edits; %d blocks skipped as snippets]", subject, len(r.Outcomes)-skipped, skipped)
		}
		return fmt.Sprintf("%s [ok, %d edits]", subject, len(r.Outcomes))
	}
	return fmt.Sprintf("%s [%d of %d edits failed; nothing recorded]", subject, failed, len(r.Outcomes))
}

func lineRange(e engine.Outcome) string {
	switch {
	case e.Start == 0 && e.End == 0:
		return ""
	case e.End < e.Start:
		return fmt.Sprintf(" after line %d", e.Start-1)
	case e.End == e.Start:
		return fmt.Sprintf(" line %d", e.Start)
	}
	return fmt.Sprintf(" lines %d-%d", e.Start, e.End)
}

func rungNote(e engine.Outcome) string {
	if e.Rung == 0 {
		return ""
	}
	return " (" + e.Rung.String() + ")"
}

// printFailure writes a failed edit so that it can be pasted back to
// the model as it is: what, where, why, the closest lines, what to do.
func printFailure(w io.Writer, r *engine.ReplyResult, e engine.Outcome) {
	path := e.Path
	if path == "" {
		path = e.Op.Path
	}
	what := engine.OpName(e.Op)
	if path != "" {
		what += " " + displayPath(path)
	}
	fmt.Fprintf(w, "error: edit %d (%s, reply line %d) failed: %s.\n", e.N, what, e.Op.Line, strings.TrimSuffix(e.Err.Msg, "."))
	if c := e.Err.Closest; c != nil {
		printClosest(w, e, path, c)
	}
	if hint := advice(r, e); hint != "" {
		fmt.Fprintf(w, "  %s\n", hint)
	}
}

// words names, in a format's own terms, the lines an edit looks for
// and how a file is created.
var words = map[string][2]string{
	"diff":        {"the SEARCH section", "give the new path with an empty SEARCH section"},
	"diff-fenced": {"the SEARCH section", "give the new path with an empty SEARCH section"},
	"edit-v2":     {"the anchors and old lines", "leave the anchors and old lines empty"},
	"fiup":        {"the [ANCHOR] section", "use [OP]: CREATE"},
	"chunk":       {"the marker (and before/after)", "use op: create_file"},
	"udiffx":      {"the hunk's context and removed lines", "use FILE_NEW"},
}

// advice is the one thing to do about a failed edit.
func advice(r *engine.ReplyResult, e engine.Outcome) string {
	w, ok := words[e.Op.Format]
	if !ok {
		w = [2]string{"the lines to find", "create it with the format's create operation"}
	}
	switch {
	case errors.Is(e.Err, engine.ErrNotFound) && e.Err.Closest != nil:
		return fmt.Sprintf("Send this edit again with %s copied exactly from those lines.", w[0])
	case errors.Is(e.Err, engine.ErrNotFound):
		return fmt.Sprintf("Read the file again and copy %s exactly as it stands.", w[0])
	case errors.Is(e.Err, engine.ErrAmbiguous):
		return fmt.Sprintf("Add lines to %s so that it matches one place only.", w[0])
	case errors.Is(e.Err, engine.ErrNoFile):
		return fmt.Sprintf("Check the file name; to create a file, %s.", w[1])
	case errors.Is(e.Err, engine.ErrOverlap):
		return "Merge the overlapping edits into one."
	}
	return ""
}

func indent(text, prefix string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		b.WriteString(prefix + l)
		if !strings.HasSuffix(l, "\n") {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
