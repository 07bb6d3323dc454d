package wildmatch

// Match matches text against a glob pattern the way git's wildmatch
// does with WM_PATHNAME (includeIf, and gitattributes patterns with a
// slash): "*" and "?" do not cross "/", "**" between slashes (or at
// either end) crosses any number of directories, "[...]" is a
// character class ("!" or "^" negates, POSIX classes such as
// "[:digit:]" inside), "\" escapes. fold makes the match
// case-insensitive for ASCII letters only, as git's WM_CASEFOLD.
func Match(pattern, text string, fold bool) bool {
	f := pathname
	if fold {
		f |= casefold
	}
	return match(cString(pattern), cString(text), f, nil) == matched
}

// cString is s up to its first NUL, where git's C string ends.
func cString(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return s[:i]
		}
	}
	return s
}

// flags are git's WM_PATHNAME and WM_CASEFOLD.
type flags uint8

const (
	pathname flags = 1 << iota
	casefold
)

// result is git's: a failed star match tells the stars above it
// whether a longer text can still match (noMatch), whether only a "**"
// further up could (abortToStarStar), or whether nothing can
// (abortAll). The aborts are what keep a pattern of many stars linear
// where plain backtracking is exponential.
type result uint8

const (
	matched result = iota
	noMatch
	abortAll
	abortToStarStar
)

// budget, in tests, counts match's calls and ends the match once they
// pass limit, so that a test bounds the work without timing it and a
// runaway match fails the test instead of hanging it.
type budget struct{ calls, limit int }

// match is git's dowild over p and t.
func match(p, t string, f flags, steps *budget) result {
	if steps != nil {
		if steps.calls++; steps.calls > steps.limit {
			return abortAll
		}
	}
	ti := 0
	for pi := 0; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(t) && pc != '*' {
			return abortAll
		}
		var tc byte
		if ti < len(t) {
			tc = t[ti]
		}
		if f&casefold != 0 {
			tc, pc = lower(tc), lower(pc)
		}
		switch pc {
		case '\\':
			// A trailing backslash compares with the text's next byte
			// as git compares with the pattern's terminating NUL: it
			// never matches.
			pi++
			if pi >= len(p) {
				return noMatch
			}
			// The escaped byte is not folded: git compares it as
			// written, so that "\A" never matches under case folding.
			if pc = p[pi]; tc != pc {
				return noMatch
			}
		case '?':
			if f&pathname != 0 && tc == '/' {
				return noMatch
			}
		case '*':
			r, np, nt, done := star(p, pi, t, ti, f, steps)
			if done {
				return r
			}
			// One star before a slash: the text's next directory is
			// taken, and the loop consumes the slash of both.
			pi, ti = np, nt
		case '[':
			r, next := class(p, pi, tc, f)
			if r != matched {
				return r
			}
			pi = next
		default:
			if tc != pc {
				return noMatch
			}
		}
	}
	if ti < len(t) {
		return noMatch
	}
	return matched
}

// star matches the star (or stars) at p[pi] against t[ti:]. done is
// false only for stars that cannot cross a slash standing before one,
// where the caller goes on with the pattern's slash at np and the
// text's next slash at nt.
func star(p string, pi int, t string, ti int, f flags, steps *budget) (r result, np, nt int, done bool) {
	// Without WM_PATHNAME, "*" is "**".
	matchSlash := f&pathname == 0
	pi++
	if pi < len(p) && p[pi] == '*' {
		prev := pi - 2
		for pi < len(p) && p[pi] == '*' {
			pi++
		}
		rest := p[pi:]
		switch {
		case f&pathname == 0:
		case (prev < 0 || p[prev] == '/') &&
			(rest == "" || rest[0] == '/' || len(rest) > 1 && rest[0] == '\\' && rest[1] == '/'):
			// "**/" may stand for no directory at all: foo/**/bar
			// matches foo/bar.
			if rest != "" && rest[0] == '/' && match(p[pi+1:], t[ti:], f, steps) == matched {
				return matched, 0, 0, true
			}
			matchSlash = true
		default:
			// "**" inside a name is "*".
			matchSlash = false
		}
	}
	if pi == len(p) {
		// A trailing "**" matches everything, a trailing "*" only the
		// rest of one name.
		if !matchSlash && indexSlash(t, ti) >= 0 {
			return noMatch, 0, 0, true
		}
		return matched, 0, 0, true
	}
	if !matchSlash && p[pi] == '/' {
		s := indexSlash(t, ti)
		if s < 0 {
			return noMatch, 0, 0, true
		}
		return 0, pi, s, false
	}
	for ti < len(t) {
		tc := t[ti]
		// A literal after the star: skip to where it stands, since
		// what comes before it must all be the star's.
		if !special(p[pi]) {
			pc := p[pi]
			if f&casefold != 0 {
				pc = lower(pc)
			}
			for ti < len(t) {
				tc = t[ti]
				if !matchSlash && tc == '/' {
					break
				}
				if f&casefold != 0 {
					tc = lower(tc)
				}
				if tc == pc {
					break
				}
				ti++
			}
			if ti == len(t) || tc != pc {
				if matchSlash {
					return abortAll, 0, 0, true
				}
				return abortToStarStar, 0, 0, true
			}
		}
		if r := match(p[pi:], t[ti:], f, steps); r != noMatch {
			if !matchSlash || r != abortToStarStar {
				return r, 0, 0, true
			}
		} else if !matchSlash && t[ti] == '/' {
			return abortToStarStar, 0, 0, true
		}
		ti++
	}
	return abortAll, 0, 0, true
}

// class matches tc against the bracket expression at p[pi] == '[' and
// returns the index of its closing "]". A class that never closes, or
// names an unknown POSIX class, matches nothing (git's abort).
func class(p string, pi int, tc byte, f flags) (result, int) {
	at := func(i int) byte {
		if i < len(p) {
			return p[i]
		}
		return 0
	}
	pi++
	pc := at(pi)
	if pc == '^' {
		pc = '!'
	}
	negated := pc == '!'
	if negated {
		pi++
		pc = at(pi)
	}
	var prev byte
	hit := false
	for {
		if pc == 0 {
			return abortAll, pi
		}
		switch {
		case pc == '\\':
			pi++
			pc = at(pi)
			if pc == 0 {
				return abortAll, pi
			}
			if tc == pc {
				hit = true
			}
		case pc == '-' && prev != 0 && at(pi+1) != 0 && at(pi+1) != ']':
			pi++
			pc = at(pi)
			if pc == '\\' {
				pi++
				pc = at(pi)
				if pc == 0 {
					return abortAll, pi
				}
			}
			if prev <= tc && tc <= pc {
				hit = true
			} else if f&casefold != 0 && isLower(tc) {
				if up := tc - 'a' + 'A'; prev <= up && up <= pc {
					hit = true
				}
			}
			pc = 0 // a range is no start of the next one
		case pc == '[' && at(pi+1) == ':':
			start := pi + 2
			end := start
			for end < len(p) && p[end] != ']' {
				end++
			}
			if end == len(p) {
				return abortAll, end
			}
			if end-start < 1 || p[end-1] != ':' {
				// No ":]": the "[" is an ordinary member.
				pc = '['
				if tc == pc {
					hit = true
				}
				break
			}
			ok, known := posixClass(p[start:end-1], tc, f)
			if !known {
				return abortAll, end
			}
			if ok {
				hit = true
			}
			pi = end
			pc = 0
		default:
			if tc == pc {
				hit = true
			}
		}
		prev = pc
		pi++
		pc = at(pi)
		if pc == ']' {
			break
		}
	}
	if hit == negated || f&pathname != 0 && tc == '/' {
		return noMatch, pi
	}
	return matched, pi
}

// posixClass reports whether c is in the named class, and whether the
// name is one git knows. The classes are ASCII's, as git's sane_ctype.
func posixClass(name string, c byte, f flags) (in, known bool) {
	switch name {
	case "alnum":
		return isAlpha(c) || isDigit(c), true
	case "alpha":
		return isAlpha(c), true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit(c), true
	case "graph":
		return c > ' ' && c < 0x7f, true
	case "lower":
		return isLower(c), true // the text is folded already
	case "print":
		return c >= ' ' && c < 0x7f, true
	case "punct":
		return c > ' ' && c < 0x7f && !isAlpha(c) && !isDigit(c), true
	case "space":
		return c == ' ' || c == '\t' || c == '\n' || c == '\r', true // git's isspace
	case "upper":
		return isUpper(c) || f&casefold != 0 && isLower(c), true
	case "xdigit":
		return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F', true
	}
	return false, false
}

func special(c byte) bool { return c == '*' || c == '?' || c == '[' || c == '\\' }

func indexSlash(t string, from int) int {
	for i := from; i < len(t); i++ {
		if t[i] == '/' {
			return i
		}
	}
	return -1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isLower(c byte) bool { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }
func isAlpha(c byte) bool { return isLower(c) || isUpper(c) }

func lower(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}
