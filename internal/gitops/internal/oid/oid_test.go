package oid

import (
	"os/exec"
	"strings"
	"testing"
)

// Sum and NewHasher name objects as git hash-object does, for every
// type and for contents empty, binary and longer than a hash block.
func TestSumIsGits(t *testing.T) {
	contents := []string{"", "hello\n", "\x00\xff\x00binary", strings.Repeat("long line\n", 1000)}
	for _, typ := range []Type{Blob, Commit, Tree, Tag} {
		for _, c := range contents {
			cmd := exec.Command("git", "hash-object", "--literally", "-t", typ.String(), "--stdin")
			cmd.Stdin = strings.NewReader(c)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("git hash-object -t %s: %v", typ, err)
			}
			want := strings.TrimSpace(string(out))
			if got := Sum(typ, []byte(c)); got.String() != want {
				t.Errorf("Sum(%s, %d bytes) = %s, git says %s", typ, len(c), got, want)
			}
			h := NewHasher(typ, int64(len(c)))
			h.Write([]byte(c[:len(c)/2]))
			h.Write([]byte(c[len(c)/2:]))
			if got := h.Sum(); got.String() != want {
				t.Errorf("NewHasher(%s) in two writes = %s, git says %s", typ, got, want)
			}
		}
	}
}

func TestParse(t *testing.T) {
	lower := "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{lower, true},
		{strings.ToUpper(lower), true}, // git's hexval takes either case
		{lower[:39], false},
		{lower + "0", false},
		{lower[:39] + "g", false},
		{"", false},
		{strings.Repeat("0", 40), true},
	} {
		id, ok := Parse(tc.in)
		if ok != tc.ok || ok && id.String() != strings.ToLower(tc.in) {
			t.Errorf("Parse(%q) = %s, %v; want ok %v", tc.in, id, ok, tc.ok)
		}
		if IsHex(tc.in) != tc.ok {
			t.Errorf("IsHex(%q) = %v", tc.in, !tc.ok)
		}
		if !ok && !FromHex(tc.in).IsZero() {
			t.Errorf("FromHex(%q) is not Zero", tc.in)
		}
	}
}

func TestTypes(t *testing.T) {
	for _, typ := range []Type{Commit, Tree, Blob, Tag, OFSDelta, REFDelta} {
		got, err := ParseType(typ.String())
		if err != nil || got != typ || !typ.Valid() {
			t.Errorf("ParseType(%q) = %v, %v; Valid %v", typ.String(), got, err, typ.Valid())
		}
	}
	for _, name := range []string{"", "unknown", "Blob", "blob ", "5"} {
		if _, err := ParseType(name); err == nil {
			t.Errorf("ParseType(%q) succeeded", name)
		}
	}
	if Invalid.Valid() || Type(8).Valid() || Type(5).String() != "unknown" {
		t.Error("Invalid or 8 is valid, or 5 has a name")
	}
}
