package translate

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Format describes one supported format.
type Format struct {
	Name string
	// Markers says how auto-detection recognises the format.
	Markers string
	// Seed names the specification the format follows.
	Seed   string
	detect func(*markIndex) int // offset of the first marker, -1 when none
	read   reader
}

// Formats lists the formats the readers understand.
func Formats() []Format {
	return []Format{
		{Name: "diff", Markers: "<<<<<<< SEARCH / ======= / >>>>>>> REPLACE, file name on the line before the fence",
			Seed: "aider's diff format: Aider-AI/aider, aider/coders/editblock_prompts.py; docs/formats.md#diff", detect: srAt, read: readSearchReplace},
		{Name: "diff-fenced", Markers: "the same blocks, file name on the first line inside the fence",
			Seed: "aider's diff-fenced format: Aider-AI/aider, aider/coders/editblock_fenced_prompts.py; docs/formats.md#diff", detect: srAt, read: readSearchReplace},
		{Name: "fiup", Markers: "<<<FIUP>>> ... <<<END>>> with [FILE]: [OP]: [ANCHOR] [CONTENT]",
			Seed: "FIUP v3.0, the File Incremental Update Protocol: docs/formats.md#fiup", detect: markerLineAt(resembles(mkFiupStart)), read: readFIUP},
		{Name: "chunk", Markers: "a YAML document with an operations: list (op:, path:, marker:, payload:)",
			Seed: "the CHUNK YAML patch format: docs/formats.md#chunk", detect: chunkAt, read: readChunk},
		{Name: "edit-v2", Markers: "<<<<<<< EDIT / ------- / ======= / ------- / >>>>>>>",
			Seed: "Edit Format V2, symbol-anchored edit blocks: docs/formats.md#edit-v2", detect: markerLineAt(resembles(mkEditStart)), read: readEditV2},
		{Name: "udiffx", Markers: "<FILE_CHANGES> envelope with FILE_NEW, FILE_PATCH, FILE_APPEND, FILE_RENAME, FILE_DELETE",
			Seed: "the udiffx crate's envelope: jeremychone/rust-udiffx, README.md; docs/formats.md#udiffx", detect: udiffxAt, read: readUdiffx},
		{Name: "apply-patch", Markers: "*** Begin Patch / *** Update File: / *** Add File: / *** Delete File: / *** End Patch",
			Seed: "Codex CLI's apply_patch: openai/codex, codex-rs/apply-patch/apply_patch_tool_instructions.md; docs/formats.md#apply-patch", detect: applyPatchIn, read: readApplyPatch},
		{Name: FormatCline, Markers: "<replace_in_file> with <path> and a <diff> of ------- SEARCH / ======= / +++++++ REPLACE blocks (or <<<<<<< SEARCH / >>>>>>> REPLACE); <write_to_file> with <path> and <content>",
			Seed: "Cline: cline/cline, src/core/assistant-message/diff.ts and src/core/prompts/system-prompt/tools/; docs/agents.md#cline", detect: callsAt(FormatCline), read: readCline},
		{Name: FormatRoo, Markers: "<apply_diff> with <path> and a <diff> of <<<<<<< SEARCH / :start_line:N / ------- / ======= / >>>>>>> REPLACE blocks; <write_to_file> with <line_count>",
			Seed: "Roo Code: RooCodeInc/Roo-Code, src/core/diff/strategies/multi-search-replace.ts; docs/agents.md#roo-code", detect: callsAt(FormatRoo), read: readRoo},
		{Name: "udiff", Markers: "a fenced unified diff: --- a/P / +++ b/P / @@ lines (numbers optional), or a pasted git diff",
			Seed: "unified diffs as models write them (aider's udiff format: Aider-AI/aider, aider/coders/udiff_prompts.py); docs/formats.md#udiff", detect: udiffIn, read: readUdiff},
		{Name: FormatToolCalls, Markers: "JSON tool calls of the agents' edit tools: a call, an array, JSON Lines, OpenAI tool_calls, Anthropic tool_use content, Gemini functionCall parts and stream-json events, or a ```json fence of them",
			Seed: "Claude Code's Edit, MultiEdit and Write; Anthropic's text editor: anthropics/anthropic-quickstarts, computer-use-demo/computer_use_demo/tools/edit.py; " +
				"Gemini CLI: google-gemini/gemini-cli, packages/core/src/tools/edit.ts and write-file.ts; OpenHands: OpenHands/OpenHands, openhands/agenthub/codeact_agent/tools/str_replace_editor.py; " +
				"Codex: openai/codex, apply_patch; Cline: cline/cline, src/core/prompts/system-prompt/tools/replace_in_file.ts and write_to_file.ts; " +
				"Roo Code: RooCodeInc/Roo-Code, src/core/prompts/tools/native-tools/; docs/agents.md", detect: detectIn(toolCallsAt), read: readToolCalls},
		{Name: FormatLazy, Markers: "a file name, then a fence holding only the changed parts of the file, a marker comment (// ... existing code ...) for every unchanged span; in tool-calls, edit_file (target_file or target_filepath or path, instructions, code_edit); never detected: under auto a whole-file fence holding markers is merged as one",
			Seed: "Cursor's, Windsurf's and Morph's edit_file (target_file or target_filepath, instructions, code_edit); Continue's apply: continuedev/continue, core/edit/lazy/; docs/formats.md#lazy", detect: detectIn(neverDetected), read: readLazy},
		{Name: "whole", Markers: "a file name, then a fence holding the whole new file (only when no line resembles any format's markers)",
			Seed: "aider's whole format: Aider-AI/aider, aider/coders/wholefile_prompts.py; docs/formats.md#whole", detect: detectIn(wholeAt), read: readWhole},
	}
}

// resembles returns a line test for lineAt: the line is the marker
// kind, or any near miss of it (see markerAt). A format whose start
// marker a line resembles is read by its reader, which reads a near
// miss as the marker, with a warning, or fails naming the line.
func resembles(kind markerKind) func(string) bool {
	return func(t string) bool { return markerAt(t).kind == kind }
}

// chunkAt detects a CHUNK document the way its reader finds one. A
// document starts at a line opening with its operations key: a reply
// with none is not cut into documents to find that out (nor searched
// for the word, whose "o" a long file has on most lines).
func chunkAt(x *markIndex) int {
	if len(x.text) > MaxChunkReply || !x.anyLineStarts("o", func(l string) bool { return strings.HasPrefix(l, "operations") }) {
		return -1
	}
	text := x.text
	if !detectChunk(text) {
		return -1
	}
	return max(0, strings.Index(text, "operations:"))
}

// FormatNames lists the names --format accepts besides "auto".
func FormatNames() []string {
	var names []string
	for _, f := range Formats() {
		names = append(names, f.Name)
	}
	return names
}

func lookup(name string) *Format {
	for _, f := range Formats() {
		if f.Name == name {
			return &f
		}
	}
	return nil
}

// Detect names the formats whose markers a reply holds, in the order
// their first marker appears ("diff" stands for the SEARCH/REPLACE
// family; its reader tells diff from diff-fenced). A near miss of a
// format's start marker counts as the marker. "whole" counts only when
// nothing else does and no line of the reply resembles any format's
// marker, start or end (see markerAt): a misspelt block under a file
// name must never be written as that file.
func Detect(text string) []string {
	d := detect(text)
	return d.names
}

// detection is what detect found: the names, and what parseFormat
// looks at again without another pass over the reply: the indexes of
// the marker lines of the reply without its agent tool calls (others)
// and of the reply (all), and whole's scan up to its first block.
type detection struct {
	names       []string
	others, all *markIndex
	whole       *wholeReader
}

// detect is Detect.
func detect(text string) (d detection) {
	type hit struct {
		name string
		at   int
	}
	var hits []hit
	// The blocks inside an agent's tool calls are the agent format's:
	// the other formats look at the reply without them.
	all := newMarkIndex(text)
	masked := text
	if all.hasAgentCall() {
		masked = maskCalls(text, func(agentCall) bool { return false })
	}
	others := all
	if masked != text {
		others = newMarkIndex(masked)
	}
	d.others, d.all = others, all
	for _, f := range Formats() {
		if f.Name == "diff-fenced" || f.Name == "whole" {
			continue
		}
		in := others
		if f.Name == FormatCline || f.Name == FormatRoo {
			in = all
		}
		if at := f.detect(in); at >= 0 {
			hits = append(hits, hit{f.Name, at})
		}
	}
	// Any fenced block after a file name looks like a whole file, the
	// blocks of the other formats included: whole is what a reply is
	// only when it holds no other format's markers.
	if len(hits) == 0 {
		// wholeAt, its scan kept for the reader.
		if s := scanWholeLines(text, all.lineSplit(), all.firstBytes(), true); len(s.blocks) > 0 {
			if line, _, _ := all.firstMarker(); line == 0 {
				d.names, d.whole = []string{"whole"}, s
				return d
			}
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].at < hits[j].at })
	d.names = make([]string, len(hits))
	for i, h := range hits {
		d.names[i] = h.name
	}
	return d
}

// ParseOptions says how to read a reply.
type ParseOptions struct {
	// Format is "auto" (or "") to detect, or a format name.
	Format string
	// ShellOps turns the file commands of fenced shell blocks (git rm,
	// git mv, rm, mv) into Delete and Rename operations. Nothing is
	// ever executed.
	ShellOps bool
	// Partial skips, each with a warning, the tool calls that look like
	// edits but cannot be read (Reply.Unread); without it the first
	// fails the reply (SPEC section 2).
	Partial bool
}

// Parse reads a reply in the format o.Format names ("auto" or ""
// detects it; a reply holding blocks of several formats is read by
// each of their readers and its operations merged in reply order). It
// returns ErrNoEdits (wrapped, with the reason) when the reply holds no
// edit, ErrUnknownFormat for a format no reader has, and a reader's
// *ParseError for a malformed reply, together with what was parsed
// before it. Every operation carries its format; blocks a reader could
// not read become Invalid operations in their place. With o.ShellOps, a
// reply whose only edits are file commands in shell blocks is a reply
// too; its format is "shell". A tool call that looks like an edit but
// cannot be read is a *ParseError naming its line, unless o.Partial.
func Parse(text string, o ParseOptions) (*Reply, error) {
	r, err := parseFormat(text, o.Format)
	if r != nil && (err == nil || isNoEdits(err)) {
		if e := unreadCalls(r, o.Partial); e != nil {
			return r, e
		}
	}
	if !o.ShellOps || (err != nil && !isNoEdits(err)) {
		return r, err
	}
	if r == nil {
		shell, prose := shellBlocks(text)
		r = &Reply{Format: "shell", Shell: shell, Prose: prose}
	}
	ops, warns := ShellOps(r.Shell)
	for i := range ops {
		ops[i].Format = r.Format
	}
	r.Ops = append(r.Ops, ops...)
	r.Warnings = append(r.Warnings, warns...)
	sort.SliceStable(r.Ops, func(i, j int) bool { return r.Ops[i].Line < r.Ops[j].Line })
	sortWarnings(r.Warnings)
	if len(r.Ops) == 0 {
		if err == nil {
			err = fmt.Errorf("%w: the reply has no edit block and its shell blocks no file command", ErrNoEdits)
		}
		return r, err
	}
	return r, nil
}

// parseFormat reads a reply in the named format ("auto" or "" detects
// it; a reply holding blocks of several formats is read by each of
// their readers and its operations merged in reply order). It returns
// ErrNoEdits (wrapped, with the reason) when the reply holds no edit,
// and a reader's *ParseError for a malformed one, together with what
// was parsed before it. Every operation carries its format; blocks a
// reader could not read become Invalid operations in their place.
func parseFormat(text, format string) (*Reply, error) {
	if strings.TrimSpace(text) == "" {
		return nil, fmt.Errorf("%w: the reply is empty", ErrNoEdits)
	}
	names := []string{format}
	var d detection
	if format == "" || format == "auto" {
		if d = detect(text); len(d.names) == 0 {
			if line, t, m := d.all.firstMarker(); line > 0 {
				// An edit the reply meant but that no reader can take.
				return nil, &ParseError{Format: m.format(), Line: line, Msg: strayMarkerMsg(t, m, wholeAt(text) >= 0)}
			}
			return nil, fmt.Errorf("%w: no edit block of any supported format (%s)", ErrNoEdits, strings.Join(FormatNames(), ", "))
		}
		names = d.names
	}
	var replies []*Reply
	for _, name := range names {
		f := lookup(name)
		if f == nil {
			return nil, fmt.Errorf("%w %q (supported: auto, %s)", ErrUnknownFormat, name, strings.Join(FormatNames(), ", "))
		}
		in := text // what readerText gives when the reply holds no agent tool call
		if d.all == nil || d.all.hasAgentCall() {
			in = readerText(text, name, format == "" || format == "auto")
		}
		var r *Reply
		var err error
		if name == FormatWhole && d.whole != nil && d.whole.text == in {
			r, err = d.whole.reply() // goes on from detection's scan
		} else {
			r, err = f.read(in)
		}
		if r != nil {
			if format != "" && format != "auto" {
				r.Format = format // the user said which of the family
			}
			normalize(r)
			replies = append(replies, r)
		}
		if err != nil && !(errors.Is(err, ErrNoEdits) && len(names) > 1) {
			return merge(replies), markerHint(err, text, names)
		}
	}
	r := merge(replies)
	if len(r.Ops) == 0 {
		return r, markerHint(fmt.Errorf("%w: the reply has no %s edit block", ErrNoEdits, strings.Join(names, " or ")), text, names)
	}
	if format == "" || format == "auto" {
		strayMarkers(d.others, names, r)
	}
	return r, nil
}

// readerText is the reply as the reader of format reads it: the agent
// tool calls another reader reads are blank lines to it (the reply
// keeps its line numbers), so that no block is read twice and the
// SEARCH/REPLACE blocks inside an <apply_diff> are not the diff
// format's. By detection (auto) a <write_to_file> goes to one of cline
// and roo (see callOwners); named with --format, each of them reads
// every <write_to_file>.
func readerText(text, format string, auto bool) string {
	switch format {
	case FormatCline, FormatRoo:
		if !auto {
			return text
		}
		return maskCalls(text, func(c agentCall) bool { return c.owner == format })
	}
	return maskCalls(text, func(agentCall) bool { return false })
}

// callsAt detects the agent tool calls format reads by detection: the
// offset of the first line of its first call.
func callsAt(format string) func(*markIndex) int {
	return func(x *markIndex) int {
		if !x.hasAgentCall() {
			return -1
		}
		text := x.text
		lines := splitLines(text)
		calls := agentCalls(lines)
		callOwners(lines, calls)
		for _, c := range calls {
			if c.owner == format {
				return lineOffset(text, c.open)
			}
		}
		return -1
	}
}

// lineOffset is the byte offset of the 0-based line n of text.
func lineOffset(text string, n int) int {
	at := 0
	for ; n > 0; n-- {
		i := strings.IndexByte(text[at:], '\n')
		if i < 0 {
			return len(text)
		}
		at += i + 1
	}
	return at
}

// strayMarkers adds to r an Invalid operation for the first line of
// each format no reader of names read that resembles one of its
// markers and that no operation holds as content: the end of a block
// whose start the model left out ("*** Update File:" without "***
// Begin Patch", a <FILE_NEW> without its envelope) beside blocks of
// another format. Read alone, such a reply fails naming the line (see
// parseFormat); beside other blocks it must not vanish while they apply.
func strayMarkers(text *markIndex, names []string, r *Reply) {
	read := func(f string) bool {
		for _, n := range names {
			if n == f || f == FormatDiff && n == FormatDiffFenced {
				return true
			}
		}
		return false
	}
	type stray struct {
		line int
		t    string
		m    markerLike
	}
	var found []stray
	text.markerLines(func(n int, t string, m markerLike) bool {
		if !read(m.format()) {
			found = append(found, stray{n, t, m})
		}
		return true
	})
	if len(found) == 0 {
		return
	}
	content := map[string]bool{}
	for _, s := range found {
		content[s.t] = false
	}
	for i := range r.Ops {
		op := &r.Ops[i]
		for _, lines := range [][]string{op.Scope, op.Before, op.Old, op.After, op.NewLines()} {
			for _, l := range lines {
				if _, ok := content[strings.TrimSpace(l)]; ok {
					content[strings.TrimSpace(l)] = true
				}
			}
		}
	}
	// The first stray of each format that no operation holds: a marker
	// written as content must not hide a later one that is not.
	seen := map[string]bool{}
	for _, s := range found {
		if !content[s.t] && !seen[s.m.format()] {
			seen[s.m.format()] = true
			r.Ops = append(r.Ops, Operation{Kind: Invalid, Format: s.m.format(), Line: s.line, Comment: strayMarkerMsg(s.t, s.m, false)})
		}
	}
	sort.SliceStable(r.Ops, func(i, j int) bool { return r.Ops[i].Line < r.Ops[j].Line })
}

// markerHint adds to err, when it is ErrNoEdits, the first line of
// text that resembles a marker of another format than those read
// (names): the edit the reply meant, which --format kept from being
// read. A reader that found no edit of its own format says why itself.
func markerHint(err error, text string, names []string) error {
	if !errors.Is(err, ErrNoEdits) {
		return err
	}
	line, t, m := firstMarker(text)
	if line == 0 {
		return err
	}
	for _, n := range names {
		if n == m.format() || n == FormatDiffFenced && m.format() == FormatDiff {
			return err
		}
	}
	return fmt.Errorf("%w; reply line %d holds %s", err, line, m.describe(t))
}

// strayMarkerMsg says why a reply whose only marker is the trimmed
// line t, resembling m, is not read: no block of that format starts
// before it, and (whole says the reply has a fence under a file name)
// it keeps the reply from being read as whole files.
func strayMarkerMsg(t string, m markerLike, whole bool) string {
	msg := fmt.Sprintf("%s stands outside any %s block", m.describe(t), m.format())
	if whole {
		msg += ", and a reply holding a format's markers is never read as whole files"
	}
	return msg + fmt.Sprintf(": write each %s block whole, with its markers as the format spells them", m.format())
}

// normalize stamps every operation with the reply's format and turns
// the blocks the reader could not read into Invalid operations, in
// reply order.
func normalize(r *Reply) {
	for _, f := range r.Failed {
		r.Ops = append(r.Ops, Operation{Kind: Invalid, Path: f.Path, Line: f.Line, Comment: f.Msg})
	}
	r.Failed = nil
	if r.Description == "" && blank(r.Prose) {
		// edit_file's instructions say what the edit does, when the
		// reply says nothing else.
		for _, op := range r.Ops {
			if op.Kind == Lazy && op.Comment != "" {
				r.Description = op.Comment
				break
			}
		}
	}
	for i := range r.Ops {
		if r.Ops[i].Format == "" {
			r.Ops[i].Format = r.Format
		}
	}
	sort.SliceStable(r.Ops, func(i, j int) bool { return r.Ops[i].Line < r.Ops[j].Line })
}

// merge joins what the readers of a mixed reply found. Its description
// is the first reader's subject alone: the rest of that reader's prose
// holds the other formats' blocks.
func merge(replies []*Reply) *Reply {
	if len(replies) == 1 {
		return replies[0]
	}
	out := &Reply{}
	var formats []string
	shells := map[int]bool{} // several readers may report one shell block
	for _, r := range replies {
		formats = append(formats, r.Format)
		out.Ops = append(out.Ops, r.Ops...)
		for _, sh := range r.Shell {
			if !shells[sh.Line] {
				shells[sh.Line] = true
				out.Shell = append(out.Shell, sh)
			}
		}
		out.Warnings = append(out.Warnings, r.Warnings...)
		out.Unread = append(out.Unread, r.Unread...)
		if out.Description == "" {
			out.Description = r.Description
		}
	}
	if len(replies) > 0 && out.Description == "" {
		subject, whole, _ := describe(describedText(replies[0]))
		out.Description = subject
		if whole != "" {
			out.Description = whole // shortened again, and given whole in the body
		}
	}
	out.Format = strings.Join(formats, "+")
	sort.SliceStable(out.Ops, func(i, j int) bool { return out.Ops[i].Line < out.Ops[j].Line })
	return out
}
