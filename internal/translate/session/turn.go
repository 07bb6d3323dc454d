package session

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// builder gathers one turn while a reader reads it.
type builder struct {
	t       Turn
	started bool // a request opened the turn
	ops     []translate.Operation
	shell   []translate.Shell
	warns   []translate.Warning
	failed  []translate.Failure
	prose   []string // Reply.Prose: every prose line of the turn
}

// open starts turn n at a request.
func (b *builder) open(n, line int, request string) {
	*b = builder{t: Turn{N: n, Line: line, Request: request}, started: true}
}

// say adds one assistant message's prose.
func (b *builder) say(text string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	b.t.Prose = append(b.t.Prose, text)
	if len(b.prose) > 0 {
		b.prose = append(b.prose, "")
	}
	b.prose = append(b.prose, strings.Split(text, "\n")...)
}

func (b *builder) skip(line int, path, why string) {
	b.t.Skipped = append(b.t.Skipped, Skip{Line: line, Path: path, Why: why})
}

func (b *builder) warn(line int, msg string) {
	b.warns = append(b.warns, translate.Warning{Line: line, Msg: msg})
}

// empty reports whether the turn holds nothing worth returning.
func (b *builder) empty() bool {
	return !b.started && len(b.ops) == 0 && len(b.t.Skipped) == 0 && len(b.failed) == 0
}

// finish returns the turn gathered, with a Reply when it edits, and
// the calls it could not read in Unread.
func (b *builder) finish() *Turn {
	kept := b.ops[:0]
	for _, op := range b.ops {
		if op.Kind == translate.Invalid && op.Format == unreadFormat {
			b.t.Unread = append(b.t.Unread, Skip{Line: op.Line, Path: op.Path, Why: op.Comment})
			continue
		}
		kept = append(kept, op)
	}
	b.ops = kept
	t := b.t
	if len(b.ops) > 0 || len(b.failed) > 0 {
		t.Reply = &translate.Reply{
			Format:   replyFormat(b.ops),
			Prose:    b.prose,
			Ops:      b.ops,
			Shell:    b.shell,
			Warnings: b.warns,
			Failed:   b.failed,
		}
	}
	*b = builder{}
	return &t
}

// replyFormat names the format of a turn's edits: the one format they
// share, or the formats in the order they first appear, joined by "+"
// (an aider turn may hold a diff reply and a whole-file retry). Each
// operation keeps its own format for matching.
func replyFormat(ops []translate.Operation) string {
	var names []string
	for _, op := range ops {
		f := op.Format
		if f == "" {
			continue
		}
		seen := false
		for _, n := range names {
			seen = seen || n == f
		}
		if !seen {
			names = append(names, f)
		}
	}
	return strings.Join(names, "+")
}

// invalid is the operation standing for an edit the log shows was made
// but that could not be read: it fails as an edit of its own.
func invalid(format, path string, line int, why string) translate.Operation {
	return translate.Operation{Kind: translate.Invalid, Format: format, Path: path, Line: line, Comment: why}
}

// unreadFormat marks the operation toolOps gives for a call that looks
// like an edit but cannot be read; finish moves it to Turn.Unread, so
// no reader's loop needs to know of it.
const unreadFormat = "(unread)"

// toolOps reads one tool call with translate.ToolCall. A call that
// looks like an edit (translate.LooksLikeEdit) and that ToolCall
// refuses becomes an Invalid operation naming the file its input names
// (inputPath); one of a tool it
// does not know becomes a Turn.Unread entry (SPEC section 2); any
// other refused call is only a warning, since it edited nothing. The
// warning returned also carries what ToolCallWarnings noted of a call
// it read.
func toolOps(name string, input []byte, root string, line int) ([]translate.Operation, string) {
	ops, warns, err := translate.ToolCallWarnings(name, input, root, line)
	if err != nil {
		path := inputPath(input)
		if errors.Is(err, translate.ErrNotRead) {
			why := strings.TrimPrefix(err.Error(), translate.ErrNotRead.Error()+": ")
			return []translate.Operation{invalid(unreadFormat, path, line, why)}, ""
		}
		if translate.LooksLikeEdit(name, input) {
			// The error names the tool already.
			return []translate.Operation{invalid(translate.FormatToolCalls, path, line, err.Error())}, ""
		}
		return nil, name + " call not read: " + err.Error()
	}
	var notes []string
	for _, w := range warns {
		notes = append(notes, w.Msg)
	}
	for i := range ops {
		if ops[i].Format == "" {
			ops[i].Format = translate.FormatToolCalls
		}
		if ops[i].Line == 0 {
			ops[i].Line = line
		}
	}
	return ops, strings.Join(notes, "; ")
}

// lines reads a log line by line, counting them. A line costs its own
// length; no line is cut.
type lines struct {
	r    *bufio.Reader
	n    int // lines read
	done bool
	err  error
	// reuse makes a line good until the next only, read into buf: a
	// reader that copies what it keeps of a line then allocates no
	// line.
	reuse bool
	buf   []byte
}

// next returns the next line without its terminator ("\n" or "\r\n").
func (l *lines) next() ([]byte, bool) {
	if l.done {
		return nil, false
	}
	var b []byte
	var err error
	if l.reuse {
		b, err = l.readReused()
	} else {
		b, err = l.r.ReadBytes('\n')
	}
	if err != nil {
		l.done = true
		if err != io.EOF {
			l.err = err
			return nil, false
		}
		if len(b) == 0 {
			return nil, false
		}
	}
	l.n++
	b = bytes.TrimSuffix(b, []byte("\n"))
	b = bytes.TrimSuffix(b, []byte("\r"))
	if l.n == 1 {
		b = bytes.TrimPrefix(b, []byte("\uFEFF"))
	}
	return b, true
}

// readReused is ReadBytes into l.buf.
func (l *lines) readReused() ([]byte, error) {
	l.buf = l.buf[:0]
	for {
		frag, err := l.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			l.buf = append(l.buf, frag...)
			continue
		}
		if len(l.buf) == 0 {
			// The whole line stands in the reader's buffer: good until
			// the next read, which is all a reused line promises.
			return frag, err
		}
		l.buf = append(l.buf, frag...)
		return l.buf, err
	}
}
