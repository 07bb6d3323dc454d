package translate

import (
	"strings"
	"testing"
)

func TestDescribe(t *testing.T) {
	tests := []struct {
		name          string
		reply         Reply
		subject, body string
	}{
		{"first sentence", Reply{Prose: []string{"Use math.factorial. It is faster.", "", "More here."}},
			"Use math.factorial.", "It is faster.\n\nMore here."},
		{"filler skipped", Reply{Prose: []string{"Sure! I'll add the tests.", "Details."}},
			"Add the tests.", "Details."},
		{"filler alone on its line", Reply{Prose: []string{"Certainly!", "", "**Add a** `cache` [layer](http://x).", ""}},
			"Add a cache layer.", ""},
		{"interjection dropped", Reply{Prose: []string{"Sure, I'll rename the flag."}},
			"Rename the flag.", ""},
		{"courtesy skipped", Reply{Prose: []string{"I apologize for the confusion. Thank you for your patience.", "", "Rename `Load` to `Read`."}},
			"Rename Load to Read.", ""},
		{"acknowledgement skipped", Reply{Prose: []string{"I understand the issue.", "The parser drops the last line; keep it."}},
			"The parser drops the last line; keep it.", ""},
		{"announcement skipped", Reply{Prose: []string{"Here are the *SEARCH/REPLACE* blocks:", "", "Cache the parsed config."}},
			"Cache the parsed config.", ""},
		{"announcement of changes to a file skipped", Reply{Prose: []string{"I'll make the following changes to `src/app.py`:", "", "1. Import `sys`.", "2. Exit with status 2."}},
			"Import sys.", "2. Exit with status 2."},
		{"purpose and action is no announcement", Reply{Prose: []string{"To fix the crash, we need to modify `parse` in parser.go:", "", "Here are the changes:"}},
			"To fix the crash, we need to modify parse in parser.go", ""},
		{"restated request kept in the body", Reply{Prose: []string{"I understand that you want the colours off in pipes. Check isatty before colouring.", "Details."}},
			"Check isatty before colouring.", "I understand that you want the colours off in pipes.\nDetails."},
		{"concern acknowledged kept in the body", Reply{Prose: []string{"You're right to worry about Windows. Use filepath.Join for the paths."}},
			"Use filepath.Join for the paths.", "You're right to worry about Windows."},
		{"announcement of a list kept", Reply{Prose: []string{"Rename the flag.", "", "These changes will:", "", "- rename it", "- keep an alias"}},
			"Rename the flag.", "These changes will:\n\n- rename it\n- keep an alias"},
		{"colon ending a list intro", Reply{Prose: []string{"We'll update the retry loop to:", "", "- wait longer", "- give up sooner"}},
			"Update the retry loop", "We'll update the retry loop to:\n\n- wait longer\n- give up sooner"},
		{"heading and code stripped", Reply{Prose: []string{"## Use `os.ReadFile` in *load*"}},
			"Use os.ReadFile in load", ""},
		{"wrapped sentence joined in the subject, kept wrapped in the body", Reply{Prose: []string{"Move the cache", "into its own file. It grew."}},
			"Move the cache into its own file.", "It grew."},
		{"abbreviation is no sentence end", Reply{Prose: []string{"Handle short flags, e.g. -v, in the parser. Then test."}},
			"Handle short flags, e.g. -v, in the parser.", "Then test."},
		{"emphasis closing after the stop", Reply{Prose: []string{"**Then use sys.** More words here."}},
			"Then use sys.", "More words here."},
		{"no trailing ellipsis", Reply{Prose: []string{"Let me tidy the parser... It works."}},
			"Tidy the parser", "Let me tidy the parser... It works."},
		{"period in a code span", Reply{Prose: []string{"Call `cfg.Load()` once. Cache it."}},
			"Call cfg.Load() once.", "Cache it."},
		{"underscores and stars in a code span kept", Reply{Prose: []string{"Check `__init__` and `**kwargs` in __setup__. Done."}},
			"Check __init__ and **kwargs in setup.", "Done."},
		{"a code span opening the sentence kept whole", Reply{Prose: []string{"`__init__` must call `super().__init__()`"}},
			"__init__ must call super().__init__()", ""},
		{"long sentence shortened, given once in full", Reply{Prose: []string{
			"I'll modify the `get_counts` function in `blame.py` to skip blank lines when counting, so that the totals match. Tested.",
			"", "More."}},
			"Modify the get_counts function in blame.py to skip blank lines",
			"I'll modify the `get_counts` function in `blame.py` to skip blank lines when counting, so that the totals match. Tested.\n\nMore."},
		{"long list item keeps its marker in the body", Reply{Prose: []string{"Here are the changes:", "", "1. Replace the hand-written factorial loop with math.factorial, which is faster and handles zero."}},
			"1. Replace the hand-written factorial loop with math.factorial"[3:],
			"1. Replace the hand-written factorial loop with math.factorial, which is faster and handles zero."},
		{"presented changes say what they do", Reply{Prose: []string{"Here are the necessary changes to make sure that the retry decorator is applied to every request:", "", "Done."}},
			"Make sure that the retry decorator is applied to every request", "Done."},
		{"announcements dropped from the body", Reply{Prose: []string{"Rename the flag.", "", "Here's the updated file:", "", "It is shorter now. Here is the *SEARCH/REPLACE* block:", "", "Then you can run it:", "", "You can run the tests with:", "", "The old name still works."}},
			"Rename the flag.", "It is shorter now.\n\nThe old name still works."},
		{"announcement kept before a fence it introduces", Reply{Prose: []string{"Rename the flag.", "", "You can run:", "", "```sh", "make test", "```"}},
			"Rename the flag.", "You can run:\n\n```sh\nmake test\n```"},
		{"explanation kept", Reply{Prose: []string{"Rename the flag.", "", "This change does the following:", "", "1. Renames `--old`.", "2. Keeps an alias."}},
			"Rename the flag.", "This change does the following:\n\n1. Renames `--old`.\n2. Keeps an alias."},
		{"fenced code is no subject", Reply{Prose: []string{"```python", "x = 1", "```", "Set x."}}, "Set x.", ""},
		{"nothing said", Reply{Prose: []string{"Sure!", "", "Here are the changes:", "", "Done."}}, "", ""},
		{"format field wins", Reply{Description: "Rename the flag\n\nBecause.", Prose: []string{"Ignored."}},
			"Rename the flag", "Because."},
		{"no prose", Reply{}, "", ""},
		{"blank runs squeezed", Reply{Prose: []string{"", "Fix.", "", "", "", "a", "b  ", ""}}, "Fix.", "a\nb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, b := Describe(&tt.reply)
			if s != tt.subject || b != tt.body {
				t.Errorf("got\n%q\n%q\nwant\n%q\n%q", s, b, tt.subject, tt.body)
			}
			if len([]rune(s)) > MaxSubject || strings.HasSuffix(s, "...") {
				t.Errorf("subject %q: over %d characters or ending in ...", s, MaxSubject)
			}
		})
	}
}

func TestIsAnnouncement(t *testing.T) {
	for s, want := range map[string]bool{
		"Here are the changes:":                                          true,
		"Here are the *SEARCH/REPLACE* blocks:":                          true,
		"Here's the updated app.py:":                                     true,
		"I'll make the following changes:":                               true,
		"Let's make these changes using the SEARCH/REPLACE format.":      true,
		"To make this change, we need to modify app.py:":                 true,
		"Then you can run it:":                                           true,
		"Second file:":                                                   true,
		"To fix the error, we need to import the GitRepo class.":         false,
		"To implement this change, we need to modify main() in main.py:": false,
		"Here is the change to add a timeout to the client":              false,
		"I'll use the new format.":                                       false,
		"Use the new format.":                                            false,
		"Update the file.":                                               false,
		"This change does the following:":                                false,
		"I'll update the tests.":                                         false,
	} {
		if got := isAnnouncement(s); got != want {
			t.Errorf("isAnnouncement(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestDescribeMixedReply: a reply of two formats is described by its
// first reader's subject alone (the rest of that reader's prose holds
// the other format's blocks), a long one still given whole in the body.
func TestDescribeMixedReply(t *testing.T) {
	text := "I'll modify the `greet` function in `app.py` to greet people politely, so that the output reads better.\n\n" +
		"app.py\n```python\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n\n" +
		"```diff\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-x\n+y\n```\n"
	r, err := Parse(text, ParseOptions{Format: "auto"})
	if err != nil || r.Format != "diff+udiff" {
		t.Fatalf("format %q, error %v", r.Format, err)
	}
	s, b := Describe(r)
	if s != "Modify the greet function in app.py to greet people politely" ||
		b != "I'll modify the `greet` function in `app.py` to greet people politely, so that the output reads better." {
		t.Errorf("got %q / %q", s, b)
	}
}
