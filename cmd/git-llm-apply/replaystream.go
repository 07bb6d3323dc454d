package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/report"
)

// turnReport writes replay's report a turn at a time, as each turn ends
// (SPEC section 8): the turn's lines of the human report, its element of
// the --json document, its patch of -o. A replay of thousands of turns
// then holds none of them (issue 30, item 5); what the end adds (the
// document's last fields, the patch files) it keeps as counts and on
// disk.
type turnReport struct {
	s      streams
	o      commonOptions
	m      *meter
	branch string // where the commits go
	signed bool   // and they are signed
	spool  *patchSpool
	status runStatus // the exit status the turns so far earn
	n      int       // the elements of the JSON document written
	named  bool      // a turn's part named a commit
}

func newTurnReport(s streams, o applyOptions, m *meter, branch string, w *gitops.BranchWriter) *turnReport {
	tr := &turnReport{s: s, o: o.commonOptions, m: m, branch: branch, signed: w.Signed()}
	if o.PatchDir != "" {
		tr.spool = &patchSpool{at: o.Dir, dir: o.PatchDir, author: w.Author()}
	}
	return tr
}

// turn writes the part of the report of the turn t, whose result is r.
func (tr *turnReport) turn(r *engine.ReplyResult, t *report.Turn) {
	tr.status.add(r)
	if r.Commit != "" {
		tr.named = true
	}
	path := tr.spool.add(r)
	if tr.o.JSON {
		tr.element(r, t, path)
	}
	var b bytes.Buffer
	p := &painter{text: termWriter{&b}, raw: &b, on: tr.s.errColor}
	branch := tr.branch
	if tr.signed {
		branch += ", signed" // the headline's "[abc1234 on llm/x, signed]"
	}
	printReply(p, tr.o, r, branch, path, tr.s.at, lineWord(t))
	printTurn(p, tr.o, r, t)
	if b.Len() > 0 {
		tr.m.clear() // the meter draws its line again at its next turn
		tr.s.rawErr.Write(b.Bytes())
	}
}

// jsonHead is how the document (writeJSON's indented form) starts
// when it holds no reply; the elements go between its brackets.
const jsonHead = "{\n  \"replies\": ["

// element writes r's element of the --json document, with the
// document's head before the first: the bytes writeJSON writes for
// them inside the whole document.
func (tr *turnReport) element(r *engine.ReplyResult, t *report.Turn, path string) {
	o := report.Options{Branch: tr.branch, Turns: map[int]*report.Turn{0: t}, Signed: tr.signed}
	if path != "" {
		o.Patches = map[int]string{0: path}
	}
	var b bytes.Buffer
	if tr.n == 0 {
		b.WriteString(jsonHead)
		if tr.s.jsonDone != nil {
			*tr.s.jsonDone = true // the document is begun, and close ends it
		}
	} else {
		b.WriteByte(',')
	}
	b.WriteString("\n    ")
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	if enc.Encode(report.New([]*engine.ReplyResult{r}, o).Replies[0]) != nil {
		return // not reached: a reply's element always encodes
	}
	b.Truncate(b.Len() - 1) // Encode's newline
	tr.s.out.Write(jsonSafe(b.Bytes()))
	tr.n++
}

// close ends the report: with --json, the document's replies and the
// fields that say how the run ended (out's); the human report has no
// end of its own.
func (tr *turnReport) close(out outputs) {
	if !tr.o.JSON {
		return
	}
	doc := report.Document{Replies: []report.Reply{}, OK: tr.status.err() == nil && !out.stopped && out.fatal == nil,
		Interrupted: out.stopped, Cut: out.cut, Unread: out.unread}
	if out.fatal != nil {
		doc.Error = out.fatal.Error()
	}
	var whole bytes.Buffer
	writeJSON(&whole, doc)
	empty := jsonHead + "]"
	rest := bytes.TrimPrefix(whole.Bytes(), []byte(empty))
	if tr.n == 0 {
		tr.s.out.Write([]byte(empty))
	} else {
		tr.s.out.Write([]byte("\n  ]"))
	}
	tr.s.out.Write(rest)
	if tr.s.jsonDone != nil {
		*tr.s.jsonDone = true
	}
}

// patchSpool keeps the patch files of replay -o (SPEC section 9) until
// the branch has moved, in one temporary file, so that no turn's
// contents stay in memory: each patch's mail but its Subject header,
// whose "[PATCH n/m]" waits for the count m, known at the end. A
// nil spool (no -o) takes nothing.
type patchSpool struct {
	at, dir string // -C's directory and -o's, as given
	author  gitops.Ident
	f       *os.File
	w       *bufio.Writer
	n       int   // the patches spooled
	err     error // what stopped the spooling: the patches after it are not written
}

// add spools r's patch, if it has one, and returns the path its file
// will have.
func (sp *patchSpool) add(r *engine.ReplyResult) string {
	if sp == nil || sp.err != nil || len(r.Patch) == 0 ||
		r.Status != engine.Recorded && r.Status != engine.Partial && r.Status != engine.Checked {
		return ""
	}
	head, tail, err := patch.FormatMailParts(r.Patch, r.Changes, patch.MailOptions{
		Commit: r.Commit, Author: sp.author.Name + " <" + sp.author.Email + ">", Date: sp.author.When,
		Message: r.Message, Signature: "git-llm-apply",
	})
	if err == nil && sp.f == nil {
		if sp.f, err = os.CreateTemp("", "git-llm-apply-patches-"); err == nil {
			sp.w = bufio.NewWriter(sp.f)
		}
	}
	if err != nil {
		sp.err = fmt.Errorf("cannot write the patch file: %w", err)
		return ""
	}
	p := filepath.Join(sp.dir, patch.FileName(sp.n+1, r.Message))
	fmt.Fprintf(sp.w, "%d %d %d %d\n", len(p), len(r.Message), len(head), len(tail))
	sp.w.WriteString(p)
	sp.w.WriteString(r.Message)
	sp.w.Write(head)
	if _, err := sp.w.Write(tail); err != nil {
		sp.err = fmt.Errorf("cannot write the patch file: %w", err)
		return ""
	}
	sp.n++
	return p
}

// write writes the patch files spooled, numbered over all of them, as
// writePatches does, and removes the spool; its error is the first
// that stopped a patch being written.
func (sp *patchSpool) write() error {
	if sp == nil || sp.f == nil {
		return nil
	}
	defer sp.discard()
	if err := sp.w.Flush(); err != nil {
		return fmt.Errorf("cannot write the patch file: %w", err)
	}
	if _, err := sp.f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("cannot write the patch file: %w", err)
	}
	if sp.n > 0 {
		if err := os.MkdirAll(under(sp.at, sp.dir), 0o777); err != nil {
			return fmt.Errorf("cannot create the patch directory: %w", err)
		}
	}
	in := bufio.NewReader(sp.f)
	for k := 1; k <= sp.n; k++ {
		var np, nm, nh, nt int
		if _, err := fmt.Fscanf(in, "%d %d %d %d\n", &np, &nm, &nh, &nt); err != nil {
			return fmt.Errorf("cannot write the patch file: the spool: %w", err)
		}
		rec := make([]byte, np+nm+nh+nt)
		if _, err := io.ReadFull(in, rec); err != nil {
			return fmt.Errorf("cannot write the patch file: the spool: %w", err)
		}
		p, msg, head, tail := rec[:np], rec[np:np+nm], rec[np+nm:np+nm+nh], rec[np+nm+nh:]
		mail := slices.Concat(head, patch.SubjectHeader(string(msg), k, sp.n), tail)
		if err := writeWhole(under(sp.at, string(p)), mail); err != nil {
			return fmt.Errorf("cannot write the patch file: %w", err)
		}
	}
	return sp.err
}

// discard removes the spool: what write wrote, or what a run that
// records nothing spooled (its patch files are not written).
func (sp *patchSpool) discard() {
	if sp == nil || sp.f == nil {
		return
	}
	sp.f.Close()
	os.Remove(sp.f.Name())
	sp.f = nil
}
