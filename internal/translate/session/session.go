// Package session reads the logs coding agents keep of whole sessions
// (aider's chat history, Claude Code's and Codex CLI's JSONL, Gemini
// CLI's stream-json, a generic messages array, Cline's task history) as a sequence of turns: a user's request and the
// edits the agent made up to the next request. It knows nothing of git
// or of resolving edits: a turn's edits are translate operations.
//
// Every reader streams: it reads the log line by line (the messages
// array value by value) and keeps one turn at a time, so that a session
// of thousands of turns costs the memory of its largest turn.
//
// The edits a turn replays are the ones the session saw succeed. An
// edit the session reported as failed (a tool result that is an error,
// a user's rejection, a SEARCH block aider could not match, a Codex
// patch whose output reports failure) is listed in Turn.Skipped
// instead, since the agent went on without it.
package session

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Kind names a kind of session log.
type Kind string

// The kinds of log Open recognises.
const (
	Aider      Kind = "aider"       // .aider.chat.history.md
	ClaudeCode Kind = "claude-code" // ~/.claude/projects/*/<session>.jsonl
	Codex      Kind = "codex"       // ~/.codex/sessions/.../rollout-*.jsonl
	Messages   Kind = "messages"    // an OpenAI or Anthropic messages array
	Cline      Kind = "cline"       // Cline's tasks/<id>/api_conversation_history.json
	Gemini     Kind = "gemini"      // gemini -p ... --output-format stream-json
)

// ErrNotSession is the error of Open for input that is no session log
// of any kind it knows (wrapped, with the reason).
var ErrNotSession = errors.New("not a session log")

// Turn is one turn of a session: a user's request and everything the
// agent did up to the next request, retries included.
type Turn struct {
	// N is 1-based, counting every request of the session. It is 0 for
	// edits a log holds before its first request (a resumed session
	// whose request is in an earlier log); Request is then empty.
	N    int
	Line int // the log line (1-based) where the request stands
	// Request is the user's request, the commit's subject.
	Request string
	// Prose is what the assistant said in the turn, in order, the
	// commit's body: one element per assistant message, edit blocks
	// left out.
	Prose []string
	// Reply holds the turn's edits in the order the agent made them,
	// with their format; nil when the turn edited nothing. Every
	// operation's Line is a log line, and so are the lines of the
	// Reply's warnings, failures and shell blocks. An edit the log
	// shows succeeded but that could not be read is an Invalid
	// operation, so that it fails as an edit instead of vanishing.
	Reply *translate.Reply
	// Skipped are the edits the session saw fail (a tool result that
	// is an error, a block aider reported as not matching): the agent
	// went on without them, so they are not replayed, only reported.
	Skipped []Skip
	// Saved are the files as the agent saved them after the turn's
	// last edit of each, when the log carries them (Cline's
	// <final_file_content>): replay compares what it records with
	// them.
	Saved []Saved
	// Unread are calls the session made that look like edits but that
	// cannot be read (a tool no reader knows whose arguments name a
	// file and its text): replay stops at the first, or with --partial
	// skips and lists each (SPEC section 2).
	Unread []Skip
}

// Saved is a file's content as the session saved it.
type Saved struct {
	Line    int    // log line of the tool result carrying it
	Path    string // the path the turn's operations name the file by
	Name    string // the path the log names it by (Cline's relPath)
	Content string
}

// Skip is an edit of the log that is not replayed.
type Skip struct {
	Line int    // log line of the edit
	Path string // the file it named, when known
	Why  string // what the session reported
}

// Reader reads the turns of one log, one at a time, so that a session
// of thousands of turns costs the memory of its largest turn.
type Reader struct {
	kind Kind
	next func() (*Turn, error)
}

// peekSize is how much of a log Open looks at to tell its kind: enough
// for the first lines of any kind, Claude Code's long first lines
// included.
const peekSize = 256 << 10

// Open detects the kind of log r holds from its content and returns a
// Reader of its turns, or an error wrapping ErrNotSession. name is the
// log's name, used in errors only; the kind never depends on it.
func Open(r io.Reader, name string) (*Reader, error) {
	br := bufio.NewReaderSize(r, peekSize)
	head, err := br.Peek(peekSize)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	kind, why := detect(head, len(head) < peekSize)
	if kind == "" {
		if name != "" {
			return nil, fmt.Errorf("%s: %w: %s", name, ErrNotSession, why)
		}
		return nil, fmt.Errorf("%w: %s", ErrNotSession, why)
	}
	rd := &Reader{kind: kind}
	switch kind {
	case Aider:
		rd.next = newAiderReader(br).next
	case ClaudeCode:
		rd.next = newClaudeReader(br).next
	case Codex:
		rd.next = newCodexReader(br).next
	case Messages:
		rd.next = newMessagesReader(br).next
	case Cline:
		m := newMessagesReader(br)
		m.cline, m.kind = true, Cline
		rd.next = m.next
	case Gemini:
		rd.next = newGeminiReader(br).next
	}
	return rd, nil
}

// Kind is the kind of log the Reader reads.
func (r *Reader) Kind() Kind { return r.kind }

// Next returns the next turn, or io.EOF after the last. Errors name
// the log line.
func (r *Reader) Next() (*Turn, error) { return r.next() }

// LineError is an error of a log at one line.
type LineError struct {
	Kind Kind
	Line int
	Msg  string
}

func (e *LineError) Error() string {
	return fmt.Sprintf("%s log line %d: %s", e.Kind, e.Line, e.Msg)
}
