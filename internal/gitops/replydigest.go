package gitops

import (
	"errors"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/odb"
	"github.com/git-llm-apply/git-llm-apply/internal/gitops/internal/oid"
	"github.com/git-llm-apply/git-llm-apply/internal/message"
)

// ReplyHistory is how many commits of a branch, following first
// parents from its tip, are searched for a reply recorded before (SPEC
// section 3): a retry follows its first attempt closely, and a bound
// keeps a run on a branch of a long history as quick as on a new one.
const ReplyHistory = 100

// RecordedTrailers returns, for the trailer key, the value of each of
// the last ReplyHistory first-parent commits from tip that carry it in
// their message's last paragraph (git's trailers), mapped to the
// newest such commit. A history shorter than the bound, or cut by a
// shallow or partial clone, is searched as far as it goes.
func (r *Repo) RecordedTrailers(tip, key string) (map[string]string, error) {
	found := map[string]string{}
	err := r.walkHistory(tip, func(c historyEntry) {
		for _, l := range c.trailers {
			if v, ok := trailerValue(l, key); ok {
				if _, ok := found[v]; !ok {
					found[v] = c.hex
				}
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return found, nil
}

// walkHistory calls fn with the last ReplyHistory first-parent commits
// from tip, newest first, as far as the history goes: a shallow or
// partial clone's edge ends it as a root commit does.
func (r *Repo) walkHistory(tip string, fn func(historyEntry)) error {
	if tip == "" {
		return nil
	}
	id := oid.FromHex(tip)
	for n := 0; n < ReplyHistory; n++ {
		c, err := r.historyOf(id)
		if err != nil {
			if n > 0 && (errors.Is(err, odb.ErrNotFound) || errors.Is(err, ErrMissingObject)) {
				return nil
			}
			return err
		}
		fn(c)
		if c.parentHex == "" {
			return nil
		}
		id = c.parent
	}
	return nil
}

// trailerValue is the value of line when it is key's trailer ("Key:
// value") with a value that is not blank.
func trailerValue(line, key string) (string, bool) {
	if len(line) <= len(key) || line[len(key)] != ':' || line[:len(key)] != key {
		return "", false
	}
	v := strings.TrimSpace(line[len(key)+1:])
	return v, v != ""
}

// trailerValues are the values of key's lines in trailers, the lines
// of a message's last paragraph (trailerLines).
func trailerValues(trailers []string, key string) []string {
	var out []string
	for _, l := range trailers {
		if v, ok := trailerValue(l, key); ok {
			out = append(out, v)
		}
	}
	return out
}

// RecordedReplies is engine.RunOptions.Recorded for a branch whose tip
// was tip when the run started: the commits recorded during the run do
// not count, so that a session whose later turn makes the very edits
// of an earlier one is replayed whole. It reads the history at its
// first call.
func (r *Repo) RecordedReplies(tip string) func(digest string) (string, error) {
	var found map[string]string
	return func(digest string) (string, error) {
		if found == nil {
			f, err := r.RecordedTrailers(tip, message.ReplyTrailer)
			if err != nil {
				return "", err
			}
			found = f
		}
		return found[digest], nil
	}
}
