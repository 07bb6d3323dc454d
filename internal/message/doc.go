// Package message writes what a reply's commit says of it and what it
// is called: the commit message (the reply's subject and body, or -m,
// and its trailers), the digest of the reply's edits its LLM-Reply
// trailer carries (SPEC section 3), and the default branch name
// (SPEC section 2). It knows nothing of how edits are resolved.
package message
