package wildmatch

import "strings"

// Match matches text against a glob pattern the way git's
// wildmatch does with WM_PATHNAME (used by includeIf): "*" and "?" do
// not cross "/", "**" between slashes (or at either end) crosses any
// number of directories, "[...]" is a character class ("!" or "^"
// negates), "\" escapes. fold makes the match case-insensitive.
func Match(pattern, text string, fold bool) bool {
	if fold {
		pattern, text = strings.ToLower(pattern), strings.ToLower(text)
	}
	return wm(pattern, 0, text)
}

func wm(p string, pi int, s string) bool {
	for pi < len(p) {
		switch c := p[pi]; c {
		case '?':
			if s == "" || s[0] == '/' {
				return false
			}
			pi, s = pi+1, s[1:]
		case '*':
			start := pi
			for pi < len(p) && p[pi] == '*' {
				pi++
			}
			rest := p[pi:]
			atDirStart := start == 0 || p[start-1] == '/'
			if pi-start >= 2 && atDirStart && (rest == "" || rest[0] == '/') {
				if rest == "" {
					return true
				}
				// "**/" matches zero or more whole directories.
				if wm(p, pi+1, s) {
					return true
				}
				for i := 0; i < len(s); i++ {
					if s[i] == '/' && wm(p, pi+1, s[i+1:]) {
						return true
					}
				}
				return false
			}
			for i := 0; i <= len(s); i++ {
				if wm(p, pi, s[i:]) {
					return true
				}
				if i < len(s) && s[i] == '/' {
					break
				}
			}
			return false
		case '[':
			if s == "" || s[0] == '/' {
				return false
			}
			next, ok := matchClass(p, pi, s[0])
			if !ok {
				return false
			}
			pi, s = next, s[1:]
		case '\\':
			if pi+1 < len(p) {
				pi++
			}
			fallthrough
		default:
			if s == "" || s[0] != p[pi] {
				return false
			}
			pi, s = pi+1, s[1:]
		}
	}
	return s == ""
}

// matchClass matches ch against the class starting at p[pi] == '[' and
// returns the index after the class. A class without its closing "]"
// matches a literal "[".
func matchClass(p string, pi int, ch byte) (int, bool) {
	i := pi + 1
	negate := false
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		negate, i = true, i+1
	}
	matched := false
	for first := true; i < len(p); first = false {
		c := p[i]
		if c == ']' && !first {
			return i + 1, matched != negate
		}
		if c == '\\' && i+1 < len(p) {
			i++
			c = p[i]
		}
		if i+2 < len(p) && p[i+1] == '-' && p[i+2] != ']' {
			if c <= ch && ch <= p[i+2] {
				matched = true
			}
			i += 3
			continue
		}
		if c == ch {
			matched = true
		}
		i++
	}
	return pi + 1, ch == '['
}
