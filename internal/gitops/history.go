package gitops

import (
	"strings"
	"sync"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
)

// historyEntry is what the walks over a branch's last commits
// (RecordedTrailers, CommitsWithTrailer) read of a commit: its id and
// first parent, in both spellings, its subject and the lines of the
// last paragraph of its message, where the trailers are. Everything a
// step of a walk needs is here, ready: a walk steps over ReplyHistory
// commits at every call of an MCP session, so a step that parsed an id
// or split a message would cost a session of 100 commits 100 times
// what it costs a session of one.
type historyEntry struct {
	hex       string
	parent    oid.ID // valid when parentHex is set
	parentHex string // "" for a root commit
	subject   string
	trailers  []string
}

// historyCacheMax bounds the commits a Repo remembers: several walks
// of ReplyHistory commits, on a few branches.
const historyCacheMax = 8 * ReplyHistory

// historyCache remembers the commits the walks read. A commit never
// changes under its id, so an entry is never stale; it is what keeps a
// long-lived Repo's walk of a growing branch (an MCP session's apply,
// SPEC section 2, mcp) at the cost of its new commits instead of
// ReplyHistory object reads per call. It has two generations of at
// most historyCacheMax/2 commits: a commit looked up in the older one
// moves to the newer, and when the newer is full the older is
// dropped. The commits a walk goes over again and again stay, so a
// long session never reads a whole walk's commits again, as it would
// if a full cache were simply emptied.
type historyCache struct {
	mu            sync.Mutex
	recent, older map[oid.ID]historyEntry
	reads         int // commits read from the object store, for tests
}

func (h *historyCache) get(id oid.ID) (historyEntry, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if e, ok := h.recent[id]; ok {
		return e, true
	}
	e, ok := h.older[id]
	if ok {
		h.put(id, e)
	}
	return e, ok
}

// put adds an entry to the newer generation; h.mu is held.
func (h *historyCache) put(id oid.ID, e historyEntry) {
	if h.recent == nil || len(h.recent) >= historyCacheMax/2 {
		h.older, h.recent = h.recent, make(map[oid.ID]historyEntry, ReplyHistory)
	}
	h.recent[id] = e
}

// historyOf returns the history entry of commit id, reading the commit
// only the first time.
func (r *Repo) historyOf(id oid.ID) (historyEntry, error) {
	if e, ok := r.history.get(id); ok {
		return e, nil
	}
	c, err := r.readCommit(id)
	if err != nil {
		return historyEntry{}, err
	}
	e := historyEntry{hex: id.String()}
	if len(c.Parents) > 0 {
		e.parent, e.parentHex = c.Parents[0], c.Parents[0].String()
	}
	msg := strings.TrimLeft(c.Message, "\n")
	subject, _, _ := strings.Cut(msg, "\n")
	e.subject = strings.Clone(subject)
	e.trailers = trailerLines(c.Message)
	h := &r.history
	h.mu.Lock()
	h.reads++
	h.put(id, e)
	h.mu.Unlock()
	return e, nil
}

// trailerLines are the lines of the last paragraph of message, where
// git looks for trailers.
func trailerLines(message string) []string {
	message = strings.TrimRight(message, "\n")
	if i := strings.LastIndex(message, "\n\n"); i >= 0 {
		message = message[i+2:]
	}
	return strings.Split(strings.Clone(message), "\n")
}
