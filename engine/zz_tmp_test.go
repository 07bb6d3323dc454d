package engine

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/translate"
)

func TestTmpDump(t *testing.T) {
	text, _ := os.ReadFile(messageCorpus)
	var all, branches []string
	for _, reply := range transcriptReplies(string(text)) {
		r, err := translate.Parse(reply, "auto")
		if err != nil || len(r.Ops) == 0 {
			continue
		}
		subject, body := translate.Describe(r)
		var changes []FileChange
		var paths []string
		seen := map[string]bool{}
		for _, op := range r.Ops {
			paths = append(paths, op.Path)
			if !seen[op.Path] {
				seen[op.Path] = true
				changes = append(changes, FileChange{OldPath: op.Path, NewPath: op.Path})
			}
		}
		msg := CommitMessage("", subject, body, r.Format, changes, len(r.Ops))
		branch := "llm/" + BranchSlug(subject, paths)
		branches = append(branches, branch)
		// prose of the reply: lines outside fences
		var prose []string
		in := false
		for _, l := range strings.Split(reply, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				in = !in
				continue
			}
			if !in {
				prose = append(prose, l)
			}
		}
		all = append(all, fmt.Sprintf("=== PROSE\n%s\n--- MSG (branch %s)\n%s", strings.TrimSpace(strings.Join(prose, "\n")), branch, msg))
	}
	rng := rand.New(rand.NewSource(13))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	os.WriteFile("/tmp/rx/triples.txt", []byte(strings.Join(all[:50], "\n\n")), 0o644)
	os.WriteFile("/tmp/rx/branches.txt", []byte(strings.Join(branches, "\n")+"\n"), 0o644)
}
