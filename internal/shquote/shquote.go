// Package shquote quotes words for a POSIX shell, as git's quote.c
// does (sq_quote_buf, sq_quote_buf_pretty): the one quoter of the
// commands the reports suggest and of the hook script (SPEC section 8).
package shquote

import "strings"

// Quote quotes s as one word, always: in single quotes, where nothing
// else is special, each single quote of s closing them, escaped, and
// opening them again (git's sq_quote_buf, which also escapes "!" for
// csh; these words are for sh, where "!" in single quotes is plain).
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Word is s as it can be pasted into a shell: bare when every byte is
// a letter, a digit or one of git's plain punctuation "+,-./:=@_^" (or
// a "~" that does not lead, as in HEAD~1), else Quote(s); the empty
// word is ” (git's sq_quote_buf_pretty, with the "~").
func Word(s string) string {
	if s == "" || s[0] == '~' {
		return Quote(s)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("+,-./:=@_^~", c) >= 0 {
			continue
		}
		return Quote(s)
	}
	return s
}
