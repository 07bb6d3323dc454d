package session

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// TestClaudeLine: a record read in one pass is the record read level by
// level, and a record of another shape is read level by level, with
// the level that is wrong named.
func TestClaudeLine(t *testing.T) {
	for _, line := range []string{
		`{"type":"assistant","cwd":"/p","isSidechain":true,"message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"/p/a"}}]}}`,
		`{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"no"}]}}`,
		`{"type":"user","message":{"role":"user","content":"a request"}}`,
		`{"type":"summary","message":null}`,
		`{"type":"system"}`,
		`{"type":"user","isMeta":true,"message":{"content":null}}`,
	} {
		rec, items, text, err := claudeLine([]byte(line))
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		var slow claudeRecord
		var msg anthropicMessage
		if err := json.Unmarshal([]byte(line), &slow); err != nil {
			t.Fatal(err)
		}
		if len(slow.Message) > 0 && string(slow.Message) != "null" {
			if err := json.Unmarshal(slow.Message, &msg); err != nil {
				t.Fatal(err)
			}
		}
		wantItems, wantText, _ := contentItems(msg.Content)
		rec.Message, slow.Message = nil, nil
		if !reflect.DeepEqual(rec, slow) || !reflect.DeepEqual(items, wantItems) || text != wantText {
			t.Errorf("%s: read %+v %+v %q, level by level %+v %+v %q", line, rec, items, text, slow, wantItems, wantText)
		}
	}
	for line, want := range map[string]string{
		`[1]`:                            "not a JSON record: ",
		`{"type":"user","message":"hi"}`: "message: ",
		`{"type":"user","message":{"content":5}}`: "message content: ",
		`{"type":3}`: "not a JSON record: ",
	} {
		if _, _, _, err := claudeLine([]byte(line)); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want one starting %q", line, err, want)
		}
	}
}
