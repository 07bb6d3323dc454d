package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestTermText(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain\ttext\nnext line":      "plain\ttext\nnext line",
		"\x1b[2J\x07\r\x00\x7f":       `\x1b[2J\x07\x0d\x00\x7f`,
		"csi\u009b\u0080 kept é € 日本": `csi\u009b\u0080 kept é € 日本`,
		"caf\xe9 \x9b[2J":             `caf\xe9 \x9b[2J`,
		`C:\path\x1b`:                 `C:\path\x1b`, // backslashes stay
	} {
		if got := termText(in); got != want {
			t.Errorf("termText(%q) = %q, want %q", in, got, want)
		}
	}
	var b bytes.Buffer
	if n, err := (termWriter{&b}).Write([]byte("a\x1bb\n")); n != 4 || err != nil || b.String() != `a\x1bb`+"\n" {
		t.Errorf("termWriter: %d, %v, %q", n, err, b.String())
	}
}

func TestDisplayPath(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"src/app.py":   "src/app.py",
		"dir/é.txt":    "dir/é.txt",
		"a\nb":         `"a\nb"`,
		"a\u009bb":     `"a\u009bb"`,
		"caf\xe9.txt":  `"caf\xe9.txt"`,
		"tab\there.py": `"tab\there.py"`,
	} {
		if got := displayPath(in); got != want {
			t.Errorf("displayPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJSONSafe(t *testing.T) {
	t.Parallel()
	in := map[string]string{"d": "csi\u009b del\x7f esc\x1b é"}
	b, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := jsonSafe(b)
	if want := `{"d":"csi\u009b del\u007f esc\u001b é"}`; string(got) != want {
		t.Errorf("jsonSafe = %s, want %s", got, want)
	}
	var back map[string]string
	if err := json.Unmarshal(got, &back); err != nil || back["d"] != in["d"] {
		t.Errorf("decoded: %q, %v", back["d"], err)
	}
}
