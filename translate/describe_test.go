package translate

import "testing"

func TestDescribe(t *testing.T) {
	tests := []struct {
		name          string
		reply         Reply
		subject, body string
	}{
		{"first sentence", Reply{Prose: []string{"Use math.factorial. It is faster.", "", "More here."}},
			"Use math.factorial.", "It is faster.\n\nMore here."},
		{"filler skipped", Reply{Prose: []string{"Sure! I'll add the tests.", "Details."}},
			"I'll add the tests.", "Details."},
		{"filler alone on its line", Reply{Prose: []string{"Certainly!", "", "**Add a** `cache` [layer](http://x).", ""}},
			"Add a cache layer.", ""},
		{"markdown heading and colon", Reply{Prose: []string{"## To make this change we modify `app.py` to:", "", "1. Import math."}},
			"To make this change we modify app.py to", "1. Import math."},
		{"format field wins", Reply{Description: "Rename the flag\n\nBecause.", Prose: []string{"Ignored."}},
			"Rename the flag", "Because."},
		{"no prose", Reply{}, "", ""},
		{"blank runs squeezed", Reply{Prose: []string{"", "Fix.", "", "", "", "a", "b  ", ""}}, "Fix.", "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, b := Describe(&tt.reply)
			if s != tt.subject || b != tt.body {
				t.Errorf("got %q / %q, want %q / %q", s, b, tt.subject, tt.body)
			}
		})
	}
}
