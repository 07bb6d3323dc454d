package translate

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestUnquoteAsUnmarshal: a JSON string unquote reads is the string
// json.Unmarshal reads, escapes, surrogates (paired, lone, cut) and
// bytes that are no UTF-8 included; what it does not read is no JSON
// string.
func TestUnquoteAsUnmarshal(t *testing.T) {
	cases := []string{
		`""`, `"plain"`, `"a\nb\tc\\d\"e\/f\bg\fh\ri"`, `"\u00e9\u4e16"`, `"\ud83d\ude00"`,
		`"\ud83d"`, `"\ud83dx"`, `"\ude00\ud83d"`, `"\ud83d\u0041"`, `"\u12"`, `"\x"`, `"a` + "\xff" + `b"`,
		`"` + "\xe2\x82" + `"`, `"` + "\t" + `"`, `"a"b"`, `"\"`, `x`, `"`, `"é世界"`,
	}
	rng := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"a", "\\n", "\\u00e9", "\\ud83d", "\\ude00", "\\uD83D", "\\\\", "\\\"", "\xff", "\xc3", "\xa9", "é", "\\", "\"", "\n", "/", "\\/", "\\u0"}
	for range 20000 {
		s := `"`
		for range rng.IntN(8) {
			s += alphabet[rng.IntN(len(alphabet))]
		}
		cases = append(cases, s+`"`)
	}
	for _, c := range cases {
		got, ok := unquote([]byte(c))
		var want string
		err := json.Unmarshal([]byte(c), &want)
		if ok && (err != nil || got != want) {
			t.Fatalf("unquote(%q) = %q, json.Unmarshal %q (%v)", c, got, want, err)
		}
		if !ok && err == nil {
			t.Fatalf("unquote(%q) refused a string json.Unmarshal reads as %q", c, want)
		}
	}
}

// TestCallArgsAsUnmarshal: the arguments of a call are what
// json.Unmarshal reads of them: every key, escaped or not, the last of
// two equal ones, and each value's bytes as written.
func TestCallArgsAsUnmarshal(t *testing.T) {
	for _, in := range []string{
		`{}`, `{"a":1}`, ` {"file_path": "x.go" , "old_string":"a\nb", "n": [1, {"k": "}"}], "t": true, "z": null}`,
		`{"a":1,"a":"two"}`, `{"file_path":"a","old_string":"x","file_path":"b"}`, `{"file_\u0070ath":"a"}`, `{"k\u00e9y":"v","e\"q":{"x":"]"}}`, "{\"\xff\":1}", `{"a":"\ud83d\ude00"}`,
	} {
		got, err := callArgs("Edit", []byte(in))
		if err != nil {
			t.Fatalf("callArgs(%s): %v", in, err)
		}
		var want args
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("callArgs(%s) = %q, json.Unmarshal %q", in, got, want)
		}
	}
	for _, in := range []string{``, `[]`, `{`, `{"a":}`, `{"a":1}x`, `"s"`} {
		if _, err := callArgs("Edit", []byte(in)); err == nil {
			t.Errorf("callArgs(%q) read arguments", in)
		}
	}
}
