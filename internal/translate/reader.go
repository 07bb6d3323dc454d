package translate

import "strings"

// reader reads a reply in one format: read<Format> is each format's
// (the read field of its Formats entry), and Parse calls those the
// reply's markers name; a read<Format> walks the reply with its
// <format>Reader. Every reader keeps one contract, so that Parse can
// merge what several read:
//
//   - it returns the reply in every case, holding what it read before
//     any error, with every operation, failure and warning naming the
//     reply line it came from;
//   - the error is ErrNoEdits (wrapped, with the reason) when the reply
//     holds no block of its format, or a *ParseError naming the reply
//     line where reading stopped. A reader whose markers delimit each
//     block fails that block instead (Reply.failf), and the blocks
//     after it still count;
//   - the lines no block took are the reply's prose (see
//     keepProse); every reader but fiup's also returns the
//     reply's fenced shell blocks as Reply.Shell;
//   - a near miss of one of its markers (see markerAt) is read as the
//     marker, with a warning naming the line.
type reader func(text string) (*Reply, error)

// lineKind says what a reply line was read as. Every reader sorts the
// reply's lines into these kinds first, so that what no block took is
// prose by the same rule in every format.
type lineKind uint8

const (
	kProse   lineKind = iota // prose outside any fence
	kFence                   // a line opening or closing a fence
	kFenced                  // inside a fenced block that is not an edit
	kBlock                   // part of an edit block, its markers included
	kShell                   // part of a shell block, fences included
	kName                    // a file name line
	kMarker                  // a stray end marker
	kWrapper                 // around a block: a heredoc line, a line of a fence that wraps it
)

// The prose of a reply is gathered line by line: one blank line stands
// for each run of them, and none is kept at either end, so that the
// description reads the same whatever the spacing around blocks.
// keepProse holds the rule; each caller appends to a local slice and
// trims its end itself, because a slice passed to a function that
// returns it, or held in a collector, is grown on the heap and costs
// one allocation more per reply.

// keepProse reports whether line joins prose: a blank line does not at
// the start, nor after another blank line.
func keepProse(prose []string, line string) bool {
	return strings.TrimSpace(line) != "" || len(prose) > 0 && strings.TrimSpace(prose[len(prose)-1]) != ""
}

// collapseProse gathers the prose among the first n lines: those whose
// kind is in kinds (a set of 1<<kind bits), the lines a reader read
// before it stopped.
func collapseProse(lines []string, kind []lineKind, n int, kinds uint) []string {
	var prose []string
	for i, k := range kind[:n] {
		if kinds&(1<<k) != 0 && keepProse(prose, lines[i]) {
			prose = append(prose, lines[i])
		}
	}
	for len(prose) > 0 && strings.TrimSpace(prose[len(prose)-1]) == "" {
		prose = prose[:len(prose)-1]
	}
	return prose
}

// proseKinds is the usual kinds set of collapseProse: prose lines only.
const proseKinds = 1 << kProse

// replyLines is the reply as a line-based reader walks it: its lines
// and what each was read as. unread is the first line (0-based) not
// read: a reader that stops at an error sets it, and the lines after
// it are no prose, since nothing there was read.
type replyLines struct {
	lines  []string
	kind   []lineKind
	unread int
}

func newReplyLines(text string) replyLines { return replyLinesOf(splitLines(text)) }

// replyLinesOf is newReplyLines of a reply cut into its lines already.
func replyLinesOf(lines []string) replyLines {
	return replyLines{lines: lines, kind: make([]lineKind, len(lines)), unread: len(lines)}
}

// prose returns the prose read before unread.
func (l *replyLines) prose() []string { return collapseProse(l.lines, l.kind, l.unread, proseKinds) }
