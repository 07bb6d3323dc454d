package translate

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestPromptsExemptFromHook: the repository's own .gitattributes
// exempts every prompt from the pre-commit check (a prompt shows the
// markers of its format on purpose), so the project's hook does not
// flag them where they live now.
func TestPromptsExemptFromHook(t *testing.T) {
	prompts, err := filepath.Glob(filepath.Join("prompts", "*.md"))
	if err != nil || len(prompts) == 0 {
		t.Fatalf("no prompts: %v", err)
	}
	cmd := exec.Command("git", append([]string{"check-attr", "llm-apply-check", "--"}, prompts...)...)
	out, err := cmd.Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != len(prompts) {
		t.Fatalf("git check-attr: %q", out)
	}
	for _, l := range lines {
		if !strings.HasSuffix(l, ": llm-apply-check: false") {
			t.Errorf("not exempt: %s", l)
		}
	}
}
