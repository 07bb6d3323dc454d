package translate

import (
	"fmt"
	"strings"
)

// FormatEditV2 is the anchored edit block format ("Edit Format V2").
const FormatEditV2 = "edit-v2"

// The edit-v2 markers. Each stands alone at the start of its line,
// spelled exactly as here (seven characters), trailing white space
// allowed. Unlike the SEARCH/REPLACE family, five to nine characters
// are not accepted for the separators and the end marker, nor is
// leading white space: lines of dashes and equals signs are common
// content (Markdown and reStructuredText rules, numpy docstrings'
// "-------" under "Returns", usually indented), and a separator read
// in the wrong place silently moves lines between the anchors and the
// edit. The start marker names its format and is no content: its near
// misses (another case, the space missing, five to nine '<', indented)
// start a block too, with a warning, and a run of '<' outside five to
// nine before "EDIT" fails the reply naming its line (see markerAt).
const (
	ev2Start = "<<<<<<< EDIT"
	ev2Sep   = "-------"
	ev2Mid   = "======="
	ev2End   = ">>>>>>>"
)

// readEditV2 reads a reply in the edit-v2 format: blocks of a path
// line, "<<<<<<< EDIT", leading anchor lines, "-------", old lines,
// "=======", new lines, "-------", trailing anchor lines and ">>>>>>>",
// inside or outside fences (one fence may wrap several blocks). It
// returns what it parsed so far together with any error.
//
// The path is the line right before "<<<<<<< EDIT", cleaned like the
// SEARCH/REPLACE family's file names; when that line opens a fence,
// the fence's info string (```` ```src/a.py ````) or the line above the
// fence. Every block needs its own path line.
//
// A block becomes an Edit (Before: leading anchor, Old: old lines, New:
// new lines, After: trailing anchor), or, when all but its new lines
// are empty, a Create of the new lines (neither Append nor Overwrite:
// on an existing file that is an error unless the file already holds
// them). Each operation carries Format "edit-v2" and the reply line of
// its "<<<<<<< EDIT". Shell fences are returned in Reply.Shell; the
// lines outside blocks, shell fences, fences that wrap blocks and path
// lines in Reply.Prose.
//
// A block without a path line, without its three separators in order,
// or without ">>>>>>>" before the reply ends or the next block starts,
// or one with nothing in any section, is a *ParseError naming the
// block's "<<<<<<< EDIT" line (the message names the line at fault);
// so is a ">>>>>>>" outside any block, naming it (the end of a block
// whose start marker is missing), unless it follows the end of the
// block above it, blank lines aside. A reply without any block returns
// ErrNoEdits (wrapped).
func readEditV2(text string) (*Reply, error) {
	p := &editV2Reader{replyLines: newReplyLines(text), r: &Reply{Format: FormatEditV2}}
	p.fenceOf = make([]int, len(p.lines))
	err := p.run()
	p.collectProse()
	if w := p.near.warnings(); len(w) > 0 {
		p.r.Warnings = append(p.r.Warnings, w...)
		sortWarnings(p.r.Warnings)
	}
	if err == nil && len(p.r.Ops) == 0 {
		err = fmt.Errorf("%w: the reply has no %q block", ErrNoEdits, ev2Start)
	}
	return p.r, err
}

// ev2Fence is a fence of the reply: the line (0-based) that opens it,
// and whether it wraps a block.
type ev2Fence struct {
	open  int
	wraps bool
}

// editV2Reader reads a reply line by line.
type editV2Reader struct {
	replyLines
	fenceOf []int // for kFence and kFenced lines: the index in fences
	fences  []ev2Fence
	open    fence // the fence open at the current line, if inFence
	inFence bool
	r       *Reply
	near    nearMisses
}

func (p *editV2Reader) run() error {
	for i := 0; i < len(p.lines); {
		line := p.lines[i]
		t := strings.TrimSpace(line)
		switch m := ev2StartOf(line); {
		case m.fit == fitFar:
			return p.fail(i, "%s, alone at the start of the line", m.farMsg(t))
		case m.kind == mkEditStart:
			p.near.add(i+1, strings.TrimRight(line, " \t\f\v"), m)
			next, err := p.block(i)
			if err != nil {
				return err
			}
			i = next
			continue
		}
		switch {
		case p.inFence:
			p.fenceOf[i] = len(p.fences) - 1
			p.kind[i] = kFenced
			if p.open.closes(t) {
				p.inFence = false
				p.kind[i] = kFence
			}
		default:
			if f, ok := openFence(t); ok {
				if f.ticks > 0 && f.isShell() && !p.wrapsBlock(i, f) {
					var sh Shell
					sh, i = readShell(p.lines, p.kind, i, f, f.closes)
					p.r.Shell = append(p.r.Shell, sh)
					continue
				}
				p.open, p.inFence = f, true
				p.fences = append(p.fences, ev2Fence{open: i})
				p.fenceOf[i] = len(p.fences) - 1
				p.kind[i] = kFence
			}
		}
		if ev2Is(line, ev2End) {
			if !followsBlock(p.lines, p.kind, i) {
				// The end of a block whose start marker the model left
				// out: the edit it meant must not vanish.
				return p.fail(i, "%s", strayMarkerMsg(ev2End, markerLike{kind: mkEditStart, fit: fitExact}, false))
			}
			p.kind[i] = kMarker
			p.r.warnf(i+1, "%q stands outside any block; ignored", ev2End)
		}
		i++
	}
	return nil
}

// wrapsBlock reports whether the fence f opening at line i holds a
// "<<<<<<< EDIT" line before it closes.
func (p *editV2Reader) wrapsBlock(i int, f fence) bool {
	for j := i + 1; j < len(p.lines); j++ {
		if ev2IsStart(p.lines[j]) {
			return true
		}
		if f.closes(strings.TrimSpace(p.lines[j])) {
			return false
		}
	}
	return false
}

// block reads the block whose "<<<<<<< EDIT" is at line i and returns
// the line after its ">>>>>>>".
func (p *editV2Reader) block(i int) (int, error) {
	if p.inFence {
		p.fences[len(p.fences)-1].wraps = true
	}
	path, err := p.path(i)
	if err != nil {
		return i, err
	}
	end, seps, err := p.body(i)
	if err != nil {
		return i, err
	}
	for k := i; k <= end; k++ {
		p.kind[k] = kBlock
	}
	section := func(from, to int) []string {
		if from >= to {
			return nil
		}
		return p.lines[from:to:to]
	}
	op := Operation{
		Kind:   Edit,
		Format: FormatEditV2,
		Path:   path,
		LineEdit: LineEdit{
			Before: section(i+1, seps[0]),
			Old:    section(seps[0]+1, seps[1]),
			New:    section(seps[1]+1, seps[2]),
			After:  section(seps[2]+1, end),
		},
		Line: i + 1,
	}
	if len(op.Before)+len(op.Old)+len(op.After) == 0 {
		if len(op.New) == 0 {
			return i, p.fail(i, "the block changes nothing: its anchors, old lines and new lines are all empty")
		}
		op.Kind = Create
	}
	p.r.Ops = append(p.r.Ops, op)
	return end + 1, nil
}

// path finds the path of the block at line i: the line right before
// it or, when that line opens the fence the block stands in, the
// fence's info string or the line above the fence. It marks the line
// it took as a name.
func (p *editV2Reader) path(i int) (string, error) {
	j := i - 1
	if j >= 0 && p.inFence && p.kind[j] == kFence && p.fences[p.fenceOf[j]].open == j {
		if name := fenceName(p.open); name != "" {
			return name, nil
		}
		if k := j - 1; k >= 0 && p.kind[k] == kProse {
			if name, ok := cleanFileName(p.lines[k]); ok {
				p.kind[k] = kName
				return name, nil
			}
		}
	} else if j >= 0 && (p.kind[j] == kProse || p.kind[j] == kFenced) {
		if name, ok := cleanFileName(p.lines[j]); ok {
			p.kind[j] = kName
			return name, nil
		}
	}
	msg := fmt.Sprintf("missing file path: write the file's path alone on the line right before %q", ev2Start)
	switch {
	case j < 0:
		msg += "; the block starts the reply"
	case p.kind[j] == kBlock:
		msg += fmt.Sprintf("; line %d ends the block before (each block needs its own path line)", j+1)
	case strings.TrimSpace(p.lines[j]) == "":
		msg += fmt.Sprintf("; line %d is blank", j+1)
	case p.kind[j] == kFence && p.inFence:
		if k := j - 1; k >= 0 && strings.TrimSpace(p.lines[k]) != "" && p.kind[k] == kProse {
			msg += fmt.Sprintf("; line %d opens a fence, and line %d above it, %q, is not a file path", j+1, k+1, strings.TrimSpace(p.lines[k]))
		} else {
			msg += fmt.Sprintf("; line %d opens a fence and names no file", j+1)
		}
	case p.kind[j] == kFence:
		msg += fmt.Sprintf("; line %d closes a fence", j+1)
	default:
		msg += fmt.Sprintf("; line %d, %q, is not a file path", j+1, strings.TrimSpace(p.lines[j]))
	}
	return "", p.fail(i, "%s", msg)
}

// body finds the block's three separators and its end marker; the
// block starts at line i. It returns their 0-based lines.
func (p *editV2Reader) body(i int) (end int, seps []int, err error) {
	want := [...]string{ev2Sep, ev2Mid, ev2Sep}
	what := [...]string{"first " + ev2Sep + " (after the leading anchor)", ev2Mid + " (after the old lines)", "second " + ev2Sep + " (after the new lines)"}
	for k := i + 1; k < len(p.lines); k++ {
		l := p.lines[k]
		switch {
		case ev2IsStart(l):
			return 0, nil, p.fail(i, "the block has no %q end marker: the next %q comes first, at line %d%s", ev2End, ev2Start, k+1, p.nearMiss(i, k, '>'))
		case ev2Is(l, ev2End):
			if len(seps) < len(want) {
				return 0, nil, p.fail(i, "the block has no %s line: %q comes first, at line %d%s", what[len(seps)], ev2End, k+1, p.nearMiss(i, k, want[len(seps)][0]))
			}
			return k, seps, nil
		case ev2Is(l, ev2Sep), ev2Is(l, ev2Mid):
			t := strings.TrimSpace(l)
			n := len(seps)
			if n == len(want) {
				return 0, nil, p.fail(i, "line %d, %q, is a fourth separator: a block holds exactly %q, %q, %q in that order, so a file line of exactly seven '-' or '=' cannot stand inside a block; choose anchor lines that leave it out, or split the edit in two", k+1, t, ev2Sep, ev2Mid, ev2Sep)
			}
			if t != want[n] {
				return 0, nil, p.fail(i, "line %d is %q where the block needs its %s line; a block holds %q, %q, %q in that order%s", k+1, t, what[n], ev2Sep, ev2Mid, ev2Sep, p.nearMiss(i, k, want[n][0]))
			}
			seps = append(seps, k)
		}
	}
	n := len(p.lines)
	return 0, nil, p.fail(i, "the block has no %q end marker: the reply ends first, at line %d%s", ev2End, n, p.nearMiss(i, n, '>'))
}

// nearMiss names the first line of the block at i, before line stop,
// that looks like a marker of character c but is not one (wrong length
// or leading white space), as a hint for the error message.
func (p *editV2Reader) nearMiss(i, stop int, c byte) string {
	for k := i + 1; k < stop; k++ {
		t := strings.TrimSpace(p.lines[k])
		n := countPrefix(t, c)
		if n < 5 || n > 9 || ev2Is(p.lines[k], strings.Repeat(string(c), 7)) {
			continue
		}
		rest := strings.ToUpper(strings.TrimSpace(t[n:]))
		if rest == "" || (c == '>' && (rest == "EDIT" || rest == "REPLACE")) {
			return fmt.Sprintf(" (line %d, %q, is not read as a marker: markers have exactly seven characters and start the line)", k+1, t)
		}
	}
	return ""
}

// fail records where reading stopped and returns the *ParseError for
// the block at line i (0-based).
func (p *editV2Reader) fail(i int, msg string, args ...any) error {
	p.unread = i
	return parseErr(FormatEditV2, i+1, msg, args...)
}

// collectProse gathers the lines read before any error that are prose:
// outside blocks, shell fences and path lines; of a fence that wraps a
// block, neither its fence lines nor its blank lines, which are the
// block's wrapper. Fence lines and fenced lines are kinds the reader
// needs while it reads; the wrapper is known only once a block is
// found inside the fence, so its lines are marked here.
func (p *editV2Reader) collectProse() {
	for i, k := range p.kind[:p.unread] {
		if (k == kFence || k == kFenced) && p.fences[p.fenceOf[i]].wraps && (k == kFence || strings.TrimSpace(p.lines[i]) == "") {
			p.kind[i] = kWrapper
		}
	}
	p.r.Prose = collapseProse(p.lines, p.kind, p.unread, proseKinds|1<<kFence|1<<kFenced)
}

// ev2Is reports whether line is the marker m: m at the start of the
// line, followed by nothing but white space.
func ev2Is(line, m string) bool {
	return strings.HasPrefix(line, m) && strings.TrimRight(line[len(m):], " \t\f\v") == ""
}

// ev2StartOf says how closely line resembles "<<<<<<< EDIT" (see
// markerAt): indented, the exact marker is a near miss. Near misses
// start a block like the marker, with a warning; a line too far from
// it to be read fails the reply.
func ev2StartOf(line string) markerLike {
	m := markerAt(strings.TrimSpace(line))
	if m.kind != mkEditStart {
		return markerLike{}
	}
	if m.fit == fitExact && !ev2Is(line, ev2Start) {
		m.fit = fitNear
	}
	return m
}

// ev2IsStart reports whether line starts a block: the marker or a near
// miss of it.
func ev2IsStart(line string) bool {
	m := ev2StartOf(line)
	return m.kind == mkEditStart && m.fit != fitFar
}
