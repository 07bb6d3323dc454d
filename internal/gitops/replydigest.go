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
	id := tip
	for n := 0; n < ReplyHistory && id != ""; n++ {
		c, err := r.historyOf(oid.FromHex(id))
		if n > 0 && (errors.Is(err, odb.ErrNotFound) || errors.Is(err, ErrMissingObject)) {
			break // a shallow or partial clone's edge
		}
		if err != nil {
			return nil, err
		}
		for _, v := range trailerValues(c.trailers, key) {
			if _, ok := found[v]; !ok {
				found[v] = id
			}
		}
		id = c.parent
	}
	return found, nil
}

// trailerValues are the values of key's lines ("Key: value") in
// trailers, a message's last paragraph (lastParagraph).
func trailerValues(trailers, key string) []string {
	var out []string
	for _, l := range strings.Split(trailers, "\n") {
		if v, ok := strings.CutPrefix(l, key+":"); ok {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
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
