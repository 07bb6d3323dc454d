// Package session reads the logs coding agents keep of whole sessions
// (aider's chat history, Claude Code's and Codex CLI's JSONL, a generic
// messages array) as a sequence of turns: a user's request and the
// edits the agent made up to the next request. It knows nothing of git
// or of resolving edits: a turn's edits are translate operations.
package session

import (
	"errors"
	"io"

	"github.com/git-llm-apply/git-llm-apply/translate"
)

// Kind names a kind of session log.
type Kind string

// The kinds of log Open recognises.
const (
	Aider      Kind = "aider"       // .aider.chat.history.md
	ClaudeCode Kind = "claude-code" // ~/.claude/projects/*/<session>.jsonl
	Codex      Kind = "codex"       // ~/.codex/sessions/.../rollout-*.jsonl
	Messages   Kind = "messages"    // an OpenAI or Anthropic messages array
)

// ErrNotSession is the error of Open for input that is no session log
// of any kind it knows (wrapped, with the reason).
var ErrNotSession = errors.New("not a session log")

// Turn is one turn of a session: a user's request and everything the
// agent did up to the next request, retries included.
type Turn struct {
	N    int // 1-based, counting every request of the session
	Line int // the log line (1-based) where the request stands
	// Request is the user's request, the commit's subject.
	Request string
	// Prose is what the assistant said in the turn, in order, the
	// commit's body.
	Prose []string
	// Reply holds the turn's edits in the order the agent made them,
	// with their format; nil when the turn edited nothing.
	Reply *translate.Reply
	// Skipped are the edits the session saw fail (a tool result that
	// is an error, a block aider reported as not matching): the agent
	// went on without them, so they are not replayed, only reported.
	Skipped []Skip
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

// Open detects the kind of log r holds from its content (name is for
// messages only) and returns a Reader of its turns, or an error
// wrapping ErrNotSession.
func Open(r io.Reader, name string) (*Reader, error) {
	return nil, errors.New("session: logs are not read yet")
}

// Kind is the kind of log the Reader reads.
func (r *Reader) Kind() Kind { return r.kind }

// Next returns the next turn, or io.EOF after the last. Errors name
// the log line.
func (r *Reader) Next() (*Turn, error) { return r.next() }
