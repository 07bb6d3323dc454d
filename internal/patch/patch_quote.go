package patch

// quotePath quotes name as git's quote_c_style does with
// core.quotePath=true: in double quotes, with C escapes, when it holds
// a control character, '"', '\\', DEL or any byte >= 0x80. Spaces do
// not cause quoting.
func quotePath(name string) string {
	if !needsQuote(name) {
		return name
	}
	return `"` + escapePath(name) + `"`
}

// quotePrefixed is git's quote_two: prefix and name quoted as one
// string, so the prefix ends up inside the quotes.
func quotePrefixed(prefix, name string) string {
	if !needsQuote(name) {
		return prefix + name
	}
	return `"` + prefix + escapePath(name) + `"`
}

func needsQuote(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x7f {
			return true
		}
	}
	return false
}

// cEscapes are the letter escapes of quote.c's cq_lookup.
var cEscapes = [256]byte{'\a': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r', '"': '"', '\\': '\\'}

func escapePath(s string) string {
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case cEscapes[c] != 0:
			b = append(b, '\\', cEscapes[c])
		case c < 0x20 || c >= 0x7f:
			b = append(b, '\\', '0'+c>>6, '0'+c>>3&7, '0'+c&7)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}
