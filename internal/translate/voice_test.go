package translate

import "testing"

// TestVoice: a subject opening in a person's voice is written in git's
// imperative; agreement is no subject; a word after the opener that is
// not the action leaves the sentence as it is.
func TestVoice(t *testing.T) {
	for _, tc := range []struct{ prose, subject string }{
		{"I'll add a --verbose flag to the CLI.", "Add a --verbose flag to the CLI."},
		{"I will now update the parser.", "Update the parser."},
		{"I’ll rename `Load` to `Read`.", "Rename Load to Read."},
		{"I'm going to move the imports to the top.", "Move the imports to the top."},
		{"Let's fix the tooltip.", "Fix the tooltip."},
		{"Let me simply drop the cache.", "Drop the cache."},
		{"We need to cache the parsed config.", "Cache the parsed config."},
		{"We can make the chart responsive.", "Make the chart responsive."},
		{"We should remove all references to ApplyShellCommandsError.", "Remove all references to ApplyShellCommandsError."},
		{"Here's a patch that makes `make_str` keep undecodable bytes.", "Make make_str keep undecodable bytes."},
		{"Here is a change which fixes the off-by-one.", "Fix the off-by-one."},
		{"Here's the fix that applies the limit twice.", "Apply the limit twice."},
		{"Here is the change to add \"Scanning files\" as the label.", "Add \"Scanning files\" as the label."},
		{"Here is the updated file with a --bold option.", "Add a --bold option."},
		{"Here are the updated files with the new flag.", "Add the new flag."},
		{"You're right that make_str silently replaces undecodable bytes. Keep them as surrogates.", "Keep them as surrogates."},
		{"You are absolutely right about the timeout. Raise it to 30 seconds.", "Raise it to 30 seconds."},
		{"Good catch about the race. Lock the map.", "Lock the map."},
		// Left alone: no action after the opener, or no verb form.
		{"We should be using get instead of post.", "We should be using get instead of post."},
		{"I'll have the parser skip blank lines.", "I'll have the parser skip blank lines."},
		{"Here's a patch that made it work.", "Here's a patch that made it work."},
		{"Let's go with a map.", "Let's go with a map."},
		{"Illegal states are refused now.", "Illegal states are refused now."},
	} {
		got, _ := Describe(&Reply{Prose: []string{tc.prose}})
		if got != tc.subject {
			t.Errorf("%q: subject %q, want %q", tc.prose, got, tc.subject)
		}
	}
}

func TestBaseForm(t *testing.T) {
	for w, want := range map[string]string{
		"makes": "make", "adds": "add", "fixes": "fix", "passes": "pass", "pushes": "push",
		"catches": "catch", "applies": "apply", "does": "do", "goes": "go", "has": "have",
		"echoes": "echo", "uses": "use", "is": "", "made": "", "pass": "", "status": "",
	} {
		got, ok := baseForm(w)
		if got != want || ok != (want != "") {
			t.Errorf("baseForm(%q) = %q, %v; want %q", w, got, ok, want)
		}
	}
}
