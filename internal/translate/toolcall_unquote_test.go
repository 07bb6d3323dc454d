package translate

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"strings"
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

// TestValidJSONAsValid: validJSON says what json.Valid says, on values
// built at random of every kind of JSON token and near-token, on those
// values with bytes changed, and on nesting deeper than it follows.
func TestValidJSONAsValid(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	tokens := []string{`{`, `}`, `[`, `]`, `,`, `:`, ` `, "\t", "\n", `"a"`, `"k"`, `"\u00e9"`, `"\ud83d"`, `"\x"`, `"\u12"`,
		"\"\x01\"", "\"\xff\"", `"\"`, `"\\"`, `0`, `-0`, `01`, `1.5`, `1.`, `.5`, `-`, `1e5`, `1E+2`, `1e`, `2.0e-3`,
		`true`, `false`, `null`, `nul`, `tru`, `x`}
	var cases []string
	for range 30000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(tokens[rng.IntN(len(tokens))])
		}
		cases = append(cases, b.String())
	}
	valid := []string{`{"file_path":"a.go","old_string":"x\ny","n":[1,-2.5e3,true,null,{"k":[]}]}`, `[]`, `{}`, ` "s" `, `0`}
	for range 20000 {
		b := []byte(valid[rng.IntN(len(valid))])
		i := rng.IntN(len(b))
		b[i] = `{}[]":,\ 0-.eEtfnu`[rng.IntN(18)]
		cases = append(cases, string(b))
	}
	cases = append(cases, valid...)
	cases = append(cases, strings.Repeat("[", 300)+strings.Repeat("]", 300), strings.Repeat("[", 300)+strings.Repeat("]", 299),
		`{"a":`+strings.Repeat(`{"b":`, 250)+"1"+strings.Repeat("}", 251), "", " ", `{"a":1} {}`)
	good := 0
	for _, c := range cases {
		got, want := validJSON([]byte(c)), json.Valid([]byte(c))
		if got != want {
			t.Fatalf("validJSON(%q) = %v, json.Valid %v", c, got, want)
		}
		if got {
			good++
		}
	}
	if good < 1000 {
		t.Errorf("only %d of %d cases valid", good, len(cases))
	}
}
