package translate

import (
	"embed"
	"fmt"
	"strings"
)

//go:embed prompts/*.md
var prompts embed.FS

// Prompt returns the instructions to give a model so that it writes
// the named format, consistent with what the format's reader accepts.
func Prompt(format string) (string, error) {
	if lookup(format) == nil {
		return "", fmt.Errorf("%w %q (supported: %s)", ErrUnknownFormat, format, strings.Join(FormatNames(), ", "))
	}
	text, err := promptFile(format)
	if err != nil {
		return "", err
	}
	// The example markers are for the tests, not for the model.
	text = strings.Replace(text, "<!-- example -->\n", "", 1)
	return strings.Replace(text, "<!-- /example -->\n", "", 1), nil
}

func promptFile(format string) (string, error) {
	data, err := prompts.ReadFile("prompts/" + format + ".md")
	if err != nil {
		return "", fmt.Errorf("no prompt for %s", format)
	}
	return string(data), nil
}
