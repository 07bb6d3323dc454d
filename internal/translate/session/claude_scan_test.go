package session

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestClaudeScanAsUnmarshal: a record claudeScan reads is the record
// encoding/json reads (claudeLineJSON), field by field, and a line
// encoding/json refuses the scan refuses too. The lines: the records of
// the logs in testdata, those records cut and with bytes changed, and
// random records built of the keys the reader wants (in other cases,
// twice, escaped), values of every type, escapes, surrogates and bytes
// that are no UTF-8.
func TestClaudeScanAsUnmarshal(t *testing.T) {
	var real, claude []string
	files, _ := filepath.Glob("testdata/*.jsonl")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for l := range strings.SplitSeq(string(b), "\n") {
			if strings.TrimSpace(l) != "" {
				real = append(real, l)
				if strings.HasPrefix(filepath.Base(f), "claude") {
					claude = append(claude, l)
				}
			}
		}
	}
	if len(claude) < 10 {
		t.Fatalf("%d Claude Code records in testdata", len(claude))
	}
	cases := append([]string{}, real...)
	cases = append(cases,
		`{"type":"user","message":{"role":"user","content":"a\u00e9\ud83d\ude00 \ud83d x"}}`,
		`{"type":"user","message":{"role":5,"content":"a"}}`,
		`{"type":"user","message":{"role":5,"content":[]}}`,
		`{"type":"user","message":{"content":[null,{"type":"text","text":null}]}}`,
		`{"Type":"user"}`, `{"type":"user","type":"assistant"}`, `{"typ\u0065":"user"}`, `{"cwd":"/a","CWD":"/b"}`,
		`{"isMeta":null,"isSidechain":1}`, `{"message":{"content":{}}}`, `{"message":"hi"}`, `{"message":[]}`,
		`{"x":[1,-0.5e+3,true,false,null,{"a":[]}],"type":"user"}`, `{"x":01}`, `{"x":1.}`, `{"x":-}`, `{"x":"\x"}`,
		`{"x":"`+"\t"+`"}`, `{"x":"`+"\xff"+`"}`, `{"`+"\xff"+`":1}`, `{"ſ":1}`, `{"isſidechain":true}`, `null`, `[1]`, `{} x`, ` {} `,
		`{"message":{"content":[{"type":"tool_use","id":"t","input":{"a":"b"},"input":null}]}}`,
		`{"message":{"content":[{"type":"tool_result","is_error":"yes"}]}}`, `{"message":{"content":[5]}}`,
		`{"message":{"content":[{"input":nul}]}}`, `{"message":{"content":[{"content":[{"type":"text","text":"x"}]}]}}`,
	)
	rng := rand.New(rand.NewPCG(30, 2))
	for range 20000 {
		cases = append(cases, randomRecord(rng, 0))
	}
	for range 20000 {
		cases = append(cases, mutate(rng, real[rng.IntN(len(real))]))
	}
	read := 0
	var buf []anthropicItem
	var strs strTable
	for _, c := range cases {
		if scanAsJSON(t, c, &buf, &strs) {
			read++
		}
	}
	// The scan is what reads real logs: it must read every record of
	// them, and a fair share of the random ones, or this test says
	// nothing.
	for _, c := range claude {
		if _, _, _, ok := claudeScan([]byte(c), nil, nil); !ok {
			t.Errorf("claudeScan refuses a record of testdata: %s", c)
		}
	}
	t.Logf("claudeScan read %d of %d records", read, len(cases))
	if read < len(cases)/4 {
		t.Errorf("claudeScan read %d of %d records", read, len(cases))
	}
}

// scanAsJSON fails t unless claudeScan reads c as claudeLineJSON does,
// or refuses it; it reports whether the scan read it.
func scanAsJSON(t *testing.T, c string, buf *[]anthropicItem, strs *strTable) bool {
	rec, items, text, ok := claudeScan([]byte(c), *buf, strs)
	*buf = items
	if !ok {
		return false
	}
	wrec, witems, wtext, err := claudeLineJSON([]byte(c))
	if err != nil {
		t.Fatalf("claudeScan read %q, which encoding/json refuses: %v", c, err)
	}
	wrec.Message = nil
	if !reflect.DeepEqual(rec, wrec) || !reflect.DeepEqual(items, witems) || text != wtext {
		t.Fatalf("claudeScan(%q) = %+v %+v %q, encoding/json %+v %+v %q", c, rec, items, text, wrec, witems, wtext)
	}
	return true
}

// FuzzClaudeScan: any line claudeScan reads, it reads as encoding/json
// does.
func FuzzClaudeScan(f *testing.F) {
	b, err := os.ReadFile("testdata/claude-code.jsonl")
	if err != nil {
		f.Fatal(err)
	}
	for l := range strings.SplitSeq(string(b), "\n") {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line string) {
		var buf []anthropicItem
		scanAsJSON(t, line, &buf, &strTable{})
	})
}

// randomRecord is a JSON object, often close to a Claude Code record.
func randomRecord(rng *rand.Rand, depth int) string {
	keys := []string{"type", "isSidechain", "isMeta", "isCompactSummary", "cwd", "message", "content", "role",
		"text", "id", "name", "tool_use_id", "is_error", "input", "uuid", "Type", "CWD", "isMETA", "typ\\u0065", "other"}
	var b strings.Builder
	b.WriteString("{")
	n := rng.IntN(6)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		k := keys[rng.IntN(len(keys))]
		if rng.IntN(40) == 0 {
			k = keys[rng.IntN(len(keys)-5)] // known keys more often
		}
		b.WriteString(`"` + k + `":`)
		switch k {
		case "message":
			if rng.IntN(3) > 0 {
				b.WriteString(`{"role":"user","content":` + randomContent(rng, depth) + `}`)
				continue
			}
		case "content":
			b.WriteString(randomContent(rng, depth))
			continue
		}
		b.WriteString(randomValue(rng, depth))
	}
	b.WriteString("}")
	return b.String()
}

func randomContent(rng *rand.Rand, depth int) string {
	switch rng.IntN(4) {
	case 0:
		return randomValue(rng, depth)
	case 1:
		return randomString(rng)
	}
	var b strings.Builder
	b.WriteString("[")
	for i := range rng.IntN(4) {
		if i > 0 {
			b.WriteString(", ")
		}
		if rng.IntN(8) == 0 {
			b.WriteString(randomValue(rng, depth+1))
		} else {
			b.WriteString(randomRecord(rng, depth+1))
		}
	}
	b.WriteString("]")
	return b.String()
}

func randomValue(rng *rand.Rand, depth int) string {
	if depth > 3 {
		return "null"
	}
	switch rng.IntN(10) {
	case 0:
		return "null"
	case 1:
		return "true"
	case 2:
		return "false"
	case 3:
		return []string{"0", "-1", "2.5e3", "1E-2", "-0.0", "01", "1.", "-", "1e"}[rng.IntN(9)]
	case 4:
		return randomRecord(rng, depth+1)
	case 5:
		return "[" + randomValue(rng, depth+1) + "," + randomValue(rng, depth+1) + "]"
	}
	return randomString(rng)
}

func randomString(rng *rand.Rand) string {
	alphabet := []string{"a", "/p/x.go", "\\n", "\\u00e9", "\\ud83d", "\\ude00", "\\\\", "\\\"", "\xff", "é", "\\/", "\\u0", "\\x", "\t", " "}
	var b strings.Builder
	b.WriteString(`"`)
	for range rng.IntN(6) {
		b.WriteString(alphabet[rng.IntN(len(alphabet))])
	}
	b.WriteString(`"`)
	return b.String()
}

// mutate changes a few bytes of s: cut, doubled, replaced, removed.
func mutate(rng *rand.Rand, s string) string {
	b := []byte(s)
	for range 1 + rng.IntN(3) {
		if len(b) == 0 {
			break
		}
		i := rng.IntN(len(b))
		switch rng.IntN(4) {
		case 0:
			b = b[:i]
		case 1:
			b = append(b[:i:i], append([]byte{b[i]}, b[i:]...)...)
		case 2:
			chars := `{}[]":,\ 0ntfK`
			b[i] = chars[rng.IntN(len(chars))]
		default:
			b = append(b[:i:i], b[i+1:]...)
		}
	}
	return string(bytes.Clone(b))
}
