package translate

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestShortSubject(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"fits", "Use math.factorial.", "Use math.factorial."},
		{"trailing clause after a comma",
			"Add a --timeout flag to the fetch command, defaulting to thirty seconds as curl does today",
			"Add a --timeout flag to the fetch command"},
		{"so that part",
			"Sort the entries of the generated index by path so that two runs give identical output files",
			"Sort the entries of the generated index by path"},
		{"because part",
			"Keep the lock file until the ref is written because a reader may otherwise see a torn update",
			"Keep the lock file until the ref is written"},
		{"which part",
			"Replace the hand-written factorial loop with math.factorial, which is faster and handles zero",
			"Replace the hand-written factorial loop with math.factorial"},
		{"parenthetical",
			"Retry the upload (at most three times, with exponential backoff starting at one second) on 503",
			"Retry the upload on 503"},
		{"purpose clause kept when the action does not fit",
			"To fix the errors reported by flake8 in the CI run, we need to remove the unused imports everywhere",
			"To fix the errors reported by flake8 in the CI run"},
		{"detail phrase",
			"I'll modify the AutoCompleter class in the aider/io.py file to complete the names of read-only files",
			"I'll modify the AutoCompleter class in the aider/io.py file"},
		{"while part",
			"Add \"Scanning repository files\" as the label of the progress bar shown while the map is built",
			"Add \"Scanning repository files\" as the label of the progress bar shown"},
		{"no quote left open, no dangling word",
			"Set the label to \"Scanning the repository for tags, definitions and references\" when mapping",
			"Set the label"},
		{"word cut without dangling words",
			"Refactor parseHeaderLineIntoFieldsAndValidateEachAgainstTheSchemaBeforeStoring and its callers now",
			"Refactor"},
		{"a call's parentheses are no aside",
			"It seems that the confirm() function from prompt-toolkit does not accept a default argument here",
			"It seems that the confirm() function"},
		{"no angle bracket left open",
			"If you are encountering an exception of type <class 'litellm.exceptions.APIConnectionError'> here",
			"If you are encountering an exception of type"},
		{"verb wanting its object is no place to stop",
			"I'll add a test for the main --exit command that confirms that version_check is called before exit",
			"I'll add a test for the main --exit command"},
		{"one long word", strings.Repeat("x", 100), strings.Repeat("x", 72)},
		{"a long word cut inside a rune", strings.Repeat("\u20ac", 400), strings.Repeat("\u20ac", 72)},
		// Stray continuation bytes are runes of their own: the cut that
		// keeps a long sentence linear does not walk back over them.
		{"stray continuation bytes", "a" + strings.Repeat("\x80", 1000), "a" + strings.Repeat("\ufffd", 71)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ShortSubject(tt.in, MaxSubject)
			if got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
			if utf8.RuneCountInString(got) > MaxSubject || strings.HasSuffix(got, "...") {
				t.Errorf("%q: over %d characters or ending in ...", got, MaxSubject)
			}
		})
	}
}
