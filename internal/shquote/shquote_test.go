package shquote

import (
	"os/exec"
	"testing"
)

var hostile = []string{
	"", "plain", "with space", "it's", "''", `back\slash`, "two\nlines", "$HOME", "${x}", "`id`",
	"$(id)", "!event", "-n", "--version", "a;b", "a|b", "a&b", "*", "?", "[ab]", "~", "~root",
	"HEAD~1", "HEAD^", "a=b", "tab\there", "\"dq\"", "#hash", "é ü", "a'b'c", "\\", "'",
}

// Every word survives sh: printf %s of the quoted word prints it back,
// for spaces, quotes, newlines, expansions, globs, a leading "-" or
// "~" and the empty word.
func TestRoundTripThroughSh(t *testing.T) {
	for _, quote := range []struct {
		name string
		fn   func(string) string
	}{{"Quote", Quote}, {"Word", Word}} {
		for _, s := range hostile {
			out, err := exec.Command("sh", "-c", "printf %s "+quote.fn(s)).Output()
			if err != nil || string(out) != s {
				t.Errorf("%s(%q) = %s: sh prints %q (%v)", quote.name, s, quote.fn(s), out, err)
			}
		}
	}
}

// Word leaves git's plain words bare and quotes the rest; Quote always
// quotes.
func TestWordBare(t *testing.T) {
	for s, want := range map[string]string{
		"plain":            "plain",
		"src/main.go":      "src/main.go",
		"HEAD~1":           "HEAD~1",
		"HEAD^":            "HEAD^",
		"a,b+c=d@e:f_g-h":  "a,b+c=d@e:f_g-h",
		"~":                `'~'`,
		"~/x":              `'~/x'`,
		"":                 `''`,
		"it's":             `'it'\''s'`,
		"with space":       `'with space'`,
		"$x":               `'$x'`,
		".git/refs/x.lock": ".git/refs/x.lock",
		"refs/heads/a b":   `'refs/heads/a b'`,
	} {
		if got := Word(s); got != want {
			t.Errorf("Word(%q) = %s, want %s", s, got, want)
		}
	}
	if got := Quote("plain"); got != "'plain'" {
		t.Errorf("Quote(plain) = %s", got)
	}
}
