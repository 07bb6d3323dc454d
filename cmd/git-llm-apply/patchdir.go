package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/git-llm-apply/git-llm-apply/engine"
	"github.com/git-llm-apply/git-llm-apply/gitops"
)

// writePatches writes each reply that has a diff as one NNNN-<slug>.patch
// in dir, in the mailbox form of git format-patch, numbered over those
// replies, and returns each file's path by result index. A recorded
// reply's From line names its commit; author is the one the commits
// carry (or would carry: translate records nothing).
func writePatches(dir string, results []*engine.ReplyResult, author gitops.Ident) (map[int]string, error) {
	var todo []int
	for i, r := range results {
		if len(r.Patch) > 0 && (r.Status == engine.Recorded || r.Status == engine.Partial || r.Status == engine.Checked) {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("cannot create the patch directory: %w", err)
	}
	paths := map[int]string{}
	for n, i := range todo {
		r := results[i]
		mail, err := engine.FormatMail(r.Patch, r.Changes, engine.MailOptions{
			Commit: r.Commit, Author: author.Name + " <" + author.Email + ">", Date: author.When,
			Message: r.Message, N: n + 1, Total: len(todo), Signature: "git-llm-apply",
		})
		if err != nil {
			return paths, err
		}
		p := filepath.Join(dir, engine.PatchFileName(n+1, r.Message))
		if err := os.WriteFile(p, mail, 0o666); err != nil {
			return paths, fmt.Errorf("cannot write the patch file: %w", err)
		}
		paths[i] = p
	}
	return paths, nil
}
