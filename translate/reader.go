package translate

import "strings"

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
	kWrapper                 // a heredoc line around a block
)

// proseCollector gathers a reply's prose line by line: one blank line
// stands for each run of them, and none is kept at either end, so that
// the description reads the same whatever the spacing around blocks.
type proseCollector struct {
	lines []string
}

// add appends line, unless it is blank and the prose so far is empty
// or ends with a blank line.
func (c *proseCollector) add(line string) {
	if strings.TrimSpace(line) == "" && (len(c.lines) == 0 || strings.TrimSpace(c.lines[len(c.lines)-1]) == "") {
		return
	}
	c.lines = append(c.lines, line)
}

// done returns the prose without its trailing blank line.
func (c *proseCollector) done() []string {
	for len(c.lines) > 0 && strings.TrimSpace(c.lines[len(c.lines)-1]) == "" {
		c.lines = c.lines[:len(c.lines)-1]
	}
	return c.lines
}

// collapseProse gathers the prose lines (kind kProse) among the first
// n: the lines a reader read before it stopped.
func collapseProse(lines []string, kind []lineKind, n int) []string {
	var c proseCollector
	for i, k := range kind[:n] {
		if k == kProse {
			c.add(lines[i])
		}
	}
	return c.done()
}

// replyLines is the reply as a line-based reader walks it: its lines
// and what each was read as. unread is the first line (0-based) not
// read: a reader that stops at an error sets it, and the lines after
// it are no prose, since nothing there was read.
type replyLines struct {
	lines  []string
	kind   []lineKind
	unread int
}

func newReplyLines(text string) replyLines {
	lines := splitLines(text)
	return replyLines{lines: lines, kind: make([]lineKind, len(lines)), unread: len(lines)}
}

// prose returns the prose read before unread.
func (l *replyLines) prose() []string { return collapseProse(l.lines, l.kind, l.unread) }
