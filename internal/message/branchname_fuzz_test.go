package message

import (
	"regexp"
	"testing"
)

var slugForm = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// FuzzBranchSlug: whatever the subject and paths, the slug is lower-case
// ASCII words joined by single dashes, within maxBranchSlug bytes:
// "llm/" and it make a valid branch name.
func FuzzBranchSlug(f *testing.F) {
	f.Add("I'll add a --mini option to set the model.", "aider/args.py")
	f.Add("", "")
	f.Add("Voici la traduction en français :", "HISTORY.md")
	f.Add("...", "src/..lock")
	f.Add("Ünïcödé ß", "日本語.txt")
	f.Fuzz(func(t *testing.T, subject, path string) {
		s := BranchSlug(subject, []string{path})
		if !slugForm.MatchString(s) || len(s) > maxBranchSlug {
			t.Errorf("BranchSlug(%q, %q) = %q", subject, path, s)
		}
	})
}
