package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/report"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// statusOf is the exit status a run's replies earn: 2 when a reply
// held no edit, was malformed JSON or was over a limit, else 1 when an
// edit failed.
func statusOf(results []*engine.ReplyResult) error {
	var st runStatus
	for _, r := range results {
		st.add(r)
	}
	return st.err()
}

// runStatus is statusOf gathered a reply at a time, for a report
// written as the replies end (replay).
type runStatus struct {
	first  error // the first reply's that holds no edit, is malformed or over a limit
	failed bool  // an edit failed
}

func (st *runStatus) add(r *engine.ReplyResult) {
	switch {
	case st.first != nil:
	case errors.Is(r.Err, translate.ErrNoEdits):
		st.first = errNoEdit
	case malformedReply(r.Err):
		st.first = errMalformed
	case errors.Is(r.Err, engine.ErrTooLarge):
		st.first = errOverLimit
	case r.Failed():
		st.failed = true
	}
}

func (st *runStatus) err() error {
	if st.first != nil {
		return st.first
	}
	if st.failed {
		return errEditsFailed
	}
	return nil
}

// outputs is what a run wrote besides its report: the branch it
// recorded on, whether the JSON report holds the diffs (translate), the
// patch files -o wrote (each by result index).
type outputs struct {
	branch  string
	diffs   bool
	patches map[int]string
	// stopped: an interrupt ended the run, cutting short the reply
	// cut ("" when it came between two) before the replies in unread.
	stopped bool
	cut     string
	unread  []string
	// fatal is what stopped the run before it could record (a base
	// that cannot be read, the branch moved).
	fatal error
	// signed: the commits recorded are signed (SPEC section 3).
	signed bool
}

// printReport prints the run's account: JSON on stdout with --json, and the
// human form on stderr (errors even with -q).
func printReport(s streams, o commonOptions, results []*engine.ReplyResult, out outputs) {
	branch := out.branch
	if o.JSON {
		doc := report.New(results, report.Options{Branch: branch, Patches: out.patches, Diffs: out.diffs, Signed: out.signed})
		doc.OK = statusOf(results) == nil && !out.stopped && out.fatal == nil
		doc.Interrupted, doc.Cut, doc.Unread = out.stopped, out.cut, out.unread
		if out.fatal != nil {
			doc.Error = out.fatal.Error()
		}
		writeJSON(s.out, doc)
		if s.jsonDone != nil {
			*s.jsonDone = true
		}
	}
	p := s.reportPainter()
	if out.signed {
		branch += ", signed" // the headline's "[abc1234 on llm/x, signed]"
	}
	for i, r := range results {
		printReply(p, o, r, branch, out.patches[i], s.at, lineWord(nil))
	}
}

// writeJSON writes v as indented JSON escaping only what JSON needs
// (encoding/json's default also escapes <, > and & for HTML), and C1
// and DEL (see jsonSafe).
func writeJSON(w io.Writer, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if enc.Encode(v) == nil {
		w.Write(jsonSafe(b.Bytes()))
	}
}

// lineWord names the lines an edit's Line counts: those of the log for
// a turn of a session log (replay), else those of the reply.
func lineWord(t *report.Turn) string {
	if t != nil && t.Line != 0 {
		return "log line"
	}
	return "reply line"
}

// printReply writes the human report of r; lines names what its edits'
// line numbers count (see lineWord).
func printReply(w *painter, o commonOptions, r *engine.ReplyResult, branch, patch string, at place, lines string) {
	if r.Status == noEdits {
		return // a turn of a session that edited nothing (see printTurn)
	}
	if r.Err != nil {
		fmt.Fprintf(w, "%s: ", r.Source)
		w.paint(slotError, "error:")
		fmt.Fprintf(w, " %s\n", r.Err.Error())
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
		for _, f := range r.FileStats() {
			switch f.Status {
			case "R":
				fmt.Fprintf(w, "  R %s -> %s (", displayPath(f.OldPath), displayPath(f.Path))
				printCounts(w, f.Added, f.Deleted)
			case "M":
				fmt.Fprintf(w, "  M %s (", displayPath(f.Path))
				printCounts(w, f.Added, f.Deleted)
			default:
				fmt.Fprint(w, "  ")
				w.paint(statusSlots[f.Status], "%s", f.Status)
				fmt.Fprintf(w, " %s\n", displayPath(f.Path))
			}
		}
		if patch != "" {
			fmt.Fprintf(w, "  patch: %s\n", patch)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
		for _, x := range r.Warnings {
			fmt.Fprint(w, "  ")
			w.paint(slotWarning, "warning:")
			fmt.Fprintf(w, " %s %d: %s\n", lines, x.Line, relined(x.Msg, lines))
		}
		for _, sh := range r.Shell {
			fmt.Fprintf(w, "  shell block at %s %d (suggested, not run):\n%s", lines, sh.Line, indent(sh.Text, "    $ "))
		}
	}
	for _, e := range r.Outcomes {
		if !o.Quiet {
			for _, x := range e.Warnings {
				fmt.Fprint(w, "  ")
				w.paint(slotWarning, "warning:")
				fmt.Fprintf(w, " edit %d (%s): %s\n", e.N, displayPath(e.Path), relined(x, lines))
			}
		}
		// -q leaves only errors: it wins over -v (-qv, given together)
		if o.Verbose && !o.Quiet && e.Status != engine.Failed {
			target := displayPath(e.Path)
			if e.Op.Kind == translate.Rename {
				target += " -> " + displayPath(e.Op.NewPath)
			}
			if x := engine.Excerpt(e.Op); x != "" {
				target += " " + x
			}
			fmt.Fprintf(w, "  edit %d: %s %s%s: %s%s\n", e.N, engine.OpName(e.Op), target, lineRange(e), e.Status, rungNote(e))
			if e.Op.Comment != "" {
				fmt.Fprintf(w, "    comment: %s\n", e.Op.Comment)
			}
		}
		if e.Status == engine.Failed {
			printFailure(w, r, e, at, lines)
		}
	}
}

// statusSlots colour a file's status letter, as git status --short
// colours an added and a deleted file.
var statusSlots = map[string]slot{"A": slotNew, "D": slotOld}

// printCounts ends a file's line with its counts, "+a -b)", green and
// red as in git's diffstat (a zero plain: git's shows no sign for it).
func printCounts(w *painter, added, deleted int) {
	add, del := slotNew, slotOld
	if added == 0 {
		add = slotPlain
	}
	if deleted == 0 {
		del = slotPlain
	}
	w.paint(add, "+%d", added)
	fmt.Fprint(w, " ")
	w.paint(del, "-%d", deleted)
	fmt.Fprint(w, ")\n")
}

func headline(r *engine.ReplyResult, branch string, failed int) string {
	subject := r.Subject
	if subject == "" {
		subject = "(no description)"
	}
	short := r.ShortCommit
	switch r.Status {
	case engine.Recorded:
		return fmt.Sprintf("%s [%s on %s]", subject, short, branch)
	case engine.Partial:
		return fmt.Sprintf("%s [%s on %s; %d of %s failed and %s left out]", subject, short, branch, failed, plural(len(r.Outcomes), "edit", "edits"), wasWere(failed))
	case engine.Unchanged:
		if r.RecordedAs != "" {
			return fmt.Sprintf("%s [nothing to record: already recorded as %s]", subject, r.ShortRecordedAs)
		}
		return fmt.Sprintf("%s [nothing to record: every edit is already applied]", subject)
	case engine.Checked:
		if failed > 0 {
			return fmt.Sprintf("%s [%d of %s failed]", subject, failed, plural(len(r.Outcomes), "edit", "edits"))
		}
		skipped := 0
		for _, e := range r.Outcomes {
			if e.Status == engine.Skipped {
				skipped++
			}
		}
		if skipped > 0 {
			as := "snippets"
			if skipped == 1 {
				as = "a snippet"
			}
			return fmt.Sprintf("%s [ok, %s; %s skipped as %s]", subject, plural(len(r.Outcomes)-skipped, "edit", "edits"), plural(skipped, "block", "blocks"), as)
		}
		return fmt.Sprintf("%s [ok, %s]", subject, plural(len(r.Outcomes), "edit", "edits"))
	}
	return fmt.Sprintf("%s [%d of %s failed; nothing recorded]", subject, failed, plural(len(r.Outcomes), "edit", "edits"))
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
func printFailure(w *painter, r *engine.ReplyResult, e engine.Outcome, at place, lines string) {
	path := e.Path
	if path == "" {
		path = e.Op.Path
	}
	what := engine.OpName(e.Op)
	if path != "" {
		what += " " + displayPath(path)
	}
	w.paint(slotError, "error:")
	fmt.Fprintf(w, " edit %d (%s, %s %d) failed: %s.\n", e.N, what, lines, e.Op.Line, strings.TrimSuffix(relined(e.Err.Msg, lines), "."))
	if c := e.Err.Closest; c != nil {
		// An edit the other base takes as it stands is not to be
		// loosened onto these lines: their difference is the change
		// the user has not staged (or staged), which the advice names.
		looser := elsewhereAdvice(e, [2]string{}, at) == ""
		printClosest(w, e, path, c, looser)
	}
	if hint := advice(r, e, at); hint != "" {
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
	"tool-calls":  {"the old text", "write it with the tool that creates files"},
}

// advice is the one thing to do about a failed edit, its git commands
// written to be run where the command was typed (at).
func advice(r *engine.ReplyResult, e engine.Outcome, at place) string {
	w, ok := words[e.Op.Format]
	if !ok {
		w = [2]string{"the lines to find", "create it with the format's create operation"}
	}
	if hint := elsewhereAdvice(e, w, at); hint != "" {
		return hint
	}
	switch {
	case errors.Is(e.Err, engine.ErrNotFound) && e.Op.AtEOF && e.Err.Closest != nil && len(e.Err.Closest.Differ) == 0:
		// The lines stand as given, only not at the end: copying them
		// again changes nothing.
		return "Give the lines that end the file, or leave out *** End of File."
	case errors.Is(e.Err, engine.ErrNotFound) && e.Err.Closest != nil:
		return fmt.Sprintf("Send this edit again with %s copied exactly from those lines.", w[0])
	case errors.Is(e.Err, engine.ErrNotFound):
		return fmt.Sprintf("Read the file again and copy %s exactly as it stands.", w[0])
	case errors.Is(e.Err, engine.ErrAmbiguous) && e.Op.Kind == translate.Insert:
		return "" // the reason says what to do: an insert by number has no lines to add
	case errors.Is(e.Err, engine.ErrAmbiguous):
		return fmt.Sprintf("Add lines to %s so that it matches one place only.", w[0])
	case errors.Is(e.Err, engine.ErrNoFile) && len(e.Err.Suggestions) > 0:
		return suggestAdvice(e, w)
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

// relined is msg, in which the engine counts "reply line"s, with the
// lines named lines instead.
func relined(msg, lines string) string {
	if lines == "reply line" {
		return msg
	}
	return strings.ReplaceAll(msg, "reply line ", lines+" ")
}
