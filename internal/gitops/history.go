package gitops

import (
	"strings"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// historyEntry is what the walks over a branch's last commits
// (RecordedTrailers, CommitsWithTrailer) read of a commit: its first
// parent, its subject and the last paragraph of its message, where the
// trailers are.
type historyEntry struct {
	parent   string // "" for a root commit
	subject  string
	trailers string
}

// historyCacheMax bounds the commits a Repo remembers: several walks
// of ReplyHistory commits, on a few branches.
const historyCacheMax = 8 * ReplyHistory

// historyCache remembers the commits the walks read. A commit never
// changes under its id, so an entry is never stale; it is what keeps a
// long-lived Repo's walk of a growing branch (an MCP session's apply,
// SPEC section 2, mcp) at the cost of its new commits instead of
// ReplyHistory object reads per call.
type historyCache struct {
	mu sync.Mutex
	m  map[oid.ID]historyEntry
}

// historyOf returns the history entry of commit id, reading the commit
// only the first time.
func (r *Repo) historyOf(id oid.ID) (historyEntry, error) {
	h := &r.history
	h.mu.Lock()
	e, ok := h.m[id]
	h.mu.Unlock()
	if ok {
		return e, nil
	}
	c, err := r.readCommit(id)
	if err != nil {
		return historyEntry{}, err
	}
	if len(c.Parents) > 0 {
		e.parent = c.Parents[0].String()
	}
	msg := strings.TrimLeft(c.Message, "\n")
	subject, _, _ := strings.Cut(msg, "\n")
	e.subject = strings.Clone(subject)
	e.trailers = lastParagraph(c.Message)
	h.mu.Lock()
	if h.m == nil || len(h.m) >= historyCacheMax {
		// Dropping everything is simpler than an LRU and costs one
		// walk's reads: the walks read the same recent commits again
		// and again, so the cache fills with them anew.
		h.m = make(map[oid.ID]historyEntry, ReplyHistory)
	}
	h.m[id] = e
	h.mu.Unlock()
	return e, nil
}

// lastParagraph is the last paragraph of message, where git looks for
// trailers.
func lastParagraph(message string) string {
	message = strings.TrimRight(message, "\n")
	if i := strings.LastIndex(message, "\n\n"); i >= 0 {
		message = message[i+2:]
	}
	return strings.Clone(message)
}
