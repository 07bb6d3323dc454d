package session

import (
	"bytes"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// claudeScan reads a Claude Code record in one pass over its bytes,
// keeping only the fields the reader uses and validating the rest as
// it skips them. json.Unmarshal into the record's structs spent two
// thirds of the time of reading a long log: it validates the line,
// then decodes it through reflection, copying every string (thinking
// blocks, file contents of results) the reader never looks at.
//
// ok is false for any record whose reading by encoding/json this scan
// cannot vouch for: not an object, a key spelled in another case (which
// encoding/json would still match), escaped or not ASCII, a field that
// appears twice, a field of another type, nesting deeper than real
// records go. claudeLine then reads it with encoding/json, which also
// names what is wrong; what ok says is read is what encoding/json reads
// (TestClaudeScanAsUnmarshal).
//
// The items are appended to buf[:0], which the caller may reuse once it
// is done with them; the strings the reader keeps of a record (its
// type, its cwd, an item's type and a tool's name) are the ones it
// read last when equal, so that a log of thousands of records of a few
// kinds does not allocate each anew.
func claudeScan(raw []byte, buf []anthropicItem, seen *strTable) (rec claudeRecord, items []anthropicItem, text string, ok bool) {
	s := jscan{b: raw, seen: seen}
	s.space()
	if !s.object(claudeRecordKeys, func(k int) bool {
		switch k {
		case 0:
			return s.known(&rec.Type, 0)
		case 1:
			return s.boolean(&rec.IsSidechain)
		case 2:
			return s.boolean(&rec.IsMeta)
		case 3:
			return s.boolean(&rec.IsCompactSummary)
		case 4:
			return s.known(&rec.Cwd, 1)
		default:
			return s.message(&items, buf, &text)
		}
	}) {
		return rec, nil, "", false
	}
	s.space()
	return rec, items, text, s.i == len(s.b)
}

// The keys each level of a record is read for, in the order of the
// cases that read them.
var (
	claudeRecordKeys = []string{"type", "isSidechain", "isMeta", "isCompactSummary", "cwd", "message"}
	messageKeys      = []string{"content", "role"}
	itemKeys         = []string{"type", "text", "id", "name", "tool_use_id", "is_error", "input", "content"}
)

// jscan is a position in a line of JSON.
type jscan struct {
	b    []byte
	i    int
	seen *strTable
}

// strTable holds the strings a scan read last for the fields whose
// values repeat from record to record.
type strTable struct{ last [4]string }

func (s *jscan) space() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// eat consumes c, after white space.
func (s *jscan) eat(c byte) bool {
	s.space()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// null consumes a null literal if one stands here.
func (s *jscan) null() bool {
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		return true
	}
	return false
}

// object reads the object that stands here (after white space), calling
// field with the index in keys of each member whose key is one of
// keys, the scan then at its value; the values of other members are
// skipped. It refuses keys that encoding/json would match to one of keys
// though spelled otherwise, and a key of keys twice.
func (s *jscan) object(keys []string, field func(k int) bool) bool {
	if !s.eat('{') {
		return false
	}
	var seen uint32
	if s.eat('}') {
		return true
	}
	for {
		s.space()
		key, ok := s.plainKey()
		if !ok || !s.eat(':') {
			return false
		}
		s.space()
		k := -1
		for j, name := range keys {
			if string(key) == name {
				k = j
				break
			}
			if asciiEqualFold(key, name) {
				return false
			}
		}
		if k >= 0 {
			if seen&(1<<k) != 0 {
				return false
			}
			seen |= 1 << k
			if !field(k) {
				return false
			}
		} else if !s.skip() {
			return false
		}
		if s.eat(',') {
			continue
		}
		return s.eat('}')
	}
}

// plainKey reads a key of printable ASCII without escapes, the only
// kind whose matching by encoding/json is plain equality or ASCII case
// folding.
func (s *jscan) plainKey() ([]byte, bool) {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return nil, false
	}
	for j := s.i + 1; j < len(s.b); j++ {
		c := s.b[j]
		if c == '"' {
			key := s.b[s.i+1 : j]
			s.i = j + 1
			return key, true
		}
		if c < 0x20 || c >= 0x80 || c == '\\' {
			return nil, false
		}
	}
	return nil, false
}

// asciiEqualFold is strings.EqualFold of ASCII key and name, without
// making a string of key.
func asciiEqualFold(key []byte, name string) bool {
	if len(key) != len(name) {
		return false
	}
	for i, c := range key {
		d := name[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if 'A' <= d && d <= 'Z' {
			d += 'a' - 'A'
		}
		if c != d {
			return false
		}
	}
	return true
}

// str reads a string into v; null leaves v as it is, as encoding/json
// does.
func (s *jscan) str(v *string) bool {
	if s.null() {
		return true
	}
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return false
	}
	end, plain, ok := translate.JSONStringEnd(s.b, s.i)
	if !ok {
		return false
	}
	if plain {
		*v = string(s.b[s.i+1 : end-1])
	} else if *v, ok = translate.UnquoteJSON(s.b[s.i:end]); !ok {
		return false
	}
	s.i = end
	return true
}

// known reads a string into v as str does, reusing the string slot of
// the table last held when the bytes are the same.
func (s *jscan) known(v *string, slot int) bool {
	if s.seen != nil && s.i < len(s.b) && s.b[s.i] == '"' {
		if end, plain, ok := translate.JSONStringEnd(s.b, s.i); ok && plain {
			last := &s.seen.last[slot]
			if string(s.b[s.i+1:end-1]) != *last {
				*last = string(s.b[s.i+1 : end-1])
			}
			*v = *last
			s.i = end
			return true
		}
	}
	return s.str(v)
}

// boolean reads true or false into v; null leaves v as it is.
func (s *jscan) boolean(v *bool) bool {
	switch rest := s.b[s.i:]; {
	case bytes.HasPrefix(rest, []byte("true")):
		*v = true
		s.i += 4
	case bytes.HasPrefix(rest, []byte("false")):
		*v = false
		s.i += 5
	default:
		return s.null()
	}
	return true
}

// raw reads any value into v as json.RawMessage reads it: its bytes,
// copied so that a call kept to the end of its turn does not keep its
// whole line.
func (s *jscan) raw(v *[]byte) bool {
	start := s.i
	if !s.skip() {
		return false
	}
	*v = bytes.Clone(s.b[start:s.i])
	return true
}

// skip checks the value that stands here and moves past it
// (translate.JSONValueEnd: a value nested deeper than records go is
// not read, and the record is left to encoding/json).
func (s *jscan) skip() bool {
	end, ok, _ := translate.JSONValueEnd(s.b, s.i)
	s.i = end
	return ok
}

// message reads a record's message: null, or an object whose content
// is null, a string (text) or a list of items. A role that is no
// string is refused: encoding/json reads a message whose content is a
// string into a struct whose role is one.
func (s *jscan) message(items *[]anthropicItem, buf []anthropicItem, text *string) bool {
	if s.null() {
		return true
	}
	return s.object(messageKeys, func(k int) bool {
		if k == 1 {
			if s.i < len(s.b) && s.b[s.i] == '"' {
				return s.skip()
			}
			return s.null()
		}
		switch {
		case s.null():
			return true
		case s.i < len(s.b) && s.b[s.i] == '"':
			return s.str(text)
		}
		if !s.eat('[') {
			return false
		}
		*items = buf[:0]
		if *items == nil {
			*items = []anthropicItem{}
		}
		if s.eat(']') {
			return true
		}
		for {
			s.space()
			var it anthropicItem
			if !s.null() && !s.item(&it) {
				return false
			}
			*items = append(*items, it)
			if s.eat(',') {
				continue
			}
			return s.eat(']')
		}
	})
}

// item reads one item of a content list.
func (s *jscan) item(it *anthropicItem) bool {
	return s.object(itemKeys, func(k int) bool {
		switch k {
		case 0:
			return s.known(&it.Type, 2)
		case 1:
			return s.str(&it.Text)
		case 2:
			return s.str(&it.ID)
		case 3:
			return s.known(&it.Name, 3)
		case 4:
			return s.str(&it.ToolUseID)
		case 5:
			return s.boolean(&it.IsError)
		case 6:
			return s.raw((*[]byte)(&it.Input))
		default:
			return s.raw((*[]byte)(&it.Content))
		}
	})
}
