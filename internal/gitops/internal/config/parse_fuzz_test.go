package config

import (
	"strings"
	"testing"
)

// FuzzParseFile: any bytes parse without a panic, twice alike, and an
// error names its line; every variable read has a section-less or a
// lower-case section name and a key of git's letters.
func FuzzParseFile(f *testing.F) {
	for _, s := range []string{
		"[core]\n\tbare = false\n",
		"[remote \"origin\"]\n\turl = x\\\n y # c\n",
		"[a.b]\nk\nv = \"q\\\"q\" ; c\n",
		"\xef\xbb\xbf[x]k=1\n[",
		"[s \"sub\\\\\"]\n key = a\\tb\\nc\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		type kv struct{ sect, sub, key, value string }
		read := func() ([]kv, error) {
			var got []kv
			err := parseFile(data, func(sect, sub, key, value string, _ bool) error {
				got = append(got, kv{sect, sub, key, value})
				return nil
			})
			return got, err
		}
		a, errA := read()
		b, errB := read()
		if (errA == nil) != (errB == nil) || len(a) != len(b) {
			t.Fatalf("two parses differ: %v %v", errA, errB)
		}
		if errA != nil && !strings.HasPrefix(errA.Error(), "line ") {
			t.Fatalf("error names no line: %v", errA)
		}
		for _, v := range a {
			if v.key == "" {
				t.Fatalf("a variable with no name: %+v", v)
			}
			for _, c := range []byte(v.key) {
				if !isAlnum(c) && c != '-' {
					t.Fatalf("key %q has %q", v.key, c)
				}
			}
		}
	})
}
