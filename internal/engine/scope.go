package engine

import (
	"sort"
	"strings"
)

// Scope lines ("@@ def handler(request):" in an apply-patch hunk) say
// below which lines of the file a hunk stands: the first line, from the
// top, that reads as the first scope line, then the first below it that
// reads as the next, and so on (SPEC section 5). A reply puts one on
// every hunk, and each hunk asks for its scope several times (to choose
// among places, to refuse a place above it, to tell an applied edit),
// so the scope lines are found through an index of the file's lines by
// scope key, built once per file and following its edits, never by a
// scan of the file per question.

// scopeKey is what a line is compared by as a scope line: white space
// around it and typographic look-alikes aside.
func scopeKey(s string) string { return strings.TrimSpace(foldTypography(s)) }

// scopeView is the index of the file's lines by scope key, built at its
// first use; like the rungs' views it holds only the lines whose keys
// the reply looks for as scope lines, when the matcher knows them (a
// reply of 10,000 hunks looks for 80,000 lines and 10,000 scopes).
func (m *matcher) scopeView() *view {
	if m.scopes == nil {
		// The typography rung never finds by scanning (view.scannable),
		// so the view always answers from its index.
		m.scopes = &view{key: scopeKey, rung: RungTypography, skip: true, want: m.wantScopes}
	}
	return m.scopes
}

// scopeEnd returns the line after the last scope line, the scope lines
// standing in order (white space around them and typographic
// look-alikes aside); ok is false when they do not.
func (m *matcher) scopeEnd(scope []string) (int, bool) {
	at := 0
	for _, s := range scope {
		k := scopeKey(s)
		if k == "" {
			// A blank scope line (no reader makes one) is the next blank
			// line; the index leaves blank lines out.
			found := false
			m.d.each(at, func(i int, l string) bool {
				if scopeKey(trimEOL(l)) == "" {
					at, found = i+1, true
					return false
				}
				return true
			})
			if !found {
				return 0, false
			}
			continue
		}
		lines := m.scopeView().where(m.d, k)
		i := sort.SearchInts(lines, at)
		if i == len(lines) {
			return 0, false
		}
		at = lines[i] + 1
	}
	return at, true
}

// belowScope keeps the places that stand below every scope line, the
// scope lines themselves standing in order.
func (m *matcher) belowScope(places []place, scope []string) []place {
	at, ok := m.scopeEnd(scope)
	if !ok {
		return nil
	}
	var out []place
	for _, p := range places {
		if p.first() >= at {
			out = append(out, p)
		}
	}
	return out
}
