package message

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/git-llm-apply/git-llm-apply/internal/patch"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// The acceptance corpus (see translate/corpus_test.go): a real aider
// transcript. Every reply in it that holds an edit gets a commit
// message and a branch name here, and each is checked for the shapes a
// person would not write.
var messageCorpus = filepath.Join("..", "..", "..", "shared", "corpus", "aider-chat-history", "chat-history.md")

// transcriptReplies cuts an aider chat history into the model's
// replies: the text after a user's "#### " lines, without aider's own
// output, which it quotes with "> " (a message of several lines quotes
// its first line only, and its last line ends in two spaces).
func transcriptReplies(text string) []string {
	var out, cur []string
	inReply, tool := false, false
	flush := func() {
		if inReply && strings.TrimSpace(strings.Join(cur, "\n")) != "" {
			out = append(out, strings.Join(cur, "\n"))
		}
		cur = nil
	}
	for _, l := range strings.Split(text, "\n") {
		if tool {
			tool = !(strings.HasSuffix(l, "  ") && strings.TrimSpace(l) != "")
			continue
		}
		switch {
		case strings.HasPrefix(l, "#### "):
			flush()
			inReply = true
		case strings.HasPrefix(l, "# aider chat started"):
			flush()
			inReply = false
		case strings.HasPrefix(l, "> ") && !strings.HasSuffix(l, "  "):
			tool = true
		case strings.HasPrefix(l, ">") && (strings.HasSuffix(l, "  ") || strings.TrimSpace(l) == ">"):
		default:
			cur = append(cur, l)
		}
	}
	flush()
	return out
}

// Bad shapes, defined apart from the rules that avoid them.
var (
	// announceLine is a line that only announces blocks or a command.
	announceLine = regexp.MustCompile(`(?i)^(here('s| is| are)|below (is|are)|these are)( the| my)?(( updated| modified| corrected| revised| necessary| required| proposed| new| complete| full| following))*( \*?search/replace\*?)?( (changes?|edits?|blocks?|code|files?|version|diffs?|patch(es)?|implementation|content))( (block|blocks)\*?)?( you (requested|asked for))?\s*[:.]?$` +
		`|^(then |now )?(you can|to) (now )?(run|test|try) (it|this|the tests?|the script|the code)?( with)?\s*:$` +
		`|^i('ll| will) (now )?(make|implement|apply) (the|these)( following| necessary| requested)? changes\s*[:.]?$`)
	// functionWord is a word no subject or branch name ends with.
	functionWord = regexp.MustCompile(`(?i)(^|[\s-])(and|or|but|the|a|an|to|of|in|for|with|by|on|at|from|that|which|so|as|is|are|we|i|you|it's|its)$`)
	// courtesyOnly is a sentence that only apologises, thanks or
	// acknowledges.
	courtesyOnly = regexp.MustCompile(`(?i)^((sure|certainly|okay|yes)[.!]?|(i understand|i see|i apologi[sz]e|my apologies|sorry|thank you|thanks|you're (absolutely )?right)\b[^,;:]{0,40}[.!]?)$`)
	// fillerStart is an opener no branch name starts with.
	fillerStart = regexp.MustCompile(`^llm/(i|ill|i-ll|i-will|lets|let-s|let|here|heres|here-s|we|sure|okay|ok|now|to|certainly|so|yes|you|youre|thank|thanks|sorry)(-|$)`)
	slugShape   = regexp.MustCompile(`^llm/[a-z0-9]+(-[a-z0-9]+)*$`)
	// personVoice opens a subject in a person's voice rather than
	// git's imperative; its group is the word after the opener (a
	// subject such as "We should be using X" has no verb to turn to).
	personVoice = regexp.MustCompile(`(?i)^(?:i(?:'ll| will| am going to|'m going to| need to| should| can)|let(?:'s| me| us)|we(?:'ll| will| need to| should| can| must)|here(?:'s| is| are) (?:a|an|the) \S+ (?:that|which|to|with)|you(?:'re| are) (?:absolutely )?right)\s+(\S+)`)
)

// messageShapes lists the bad shapes of a commit message's subject and
// body and of a branch name; subject is the subject the reply gave
// Describe, sentence the message's own subject.
func messageShapes(subject, body, branch string) []string {
	var bad []string
	first, _, _ := strings.Cut(body, "\n")
	switch {
	case utf8.RuneCountInString(subject) > maxSubject:
		bad = append(bad, "subject over 72")
	case strings.HasSuffix(subject, "...") || strings.HasSuffix(subject, "\u2026"):
		bad = append(bad, "subject ending in ...")
	}
	shortened := subject != first && strings.HasPrefix(first, subject)
	if shortened {
		if r, _ := utf8.DecodeRuneInString(first[len(subject):]); r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' {
			bad = append(bad, "subject cut mid-word")
		}
	}
	if functionWord.MatchString(strings.TrimRight(subject, ".!?:")) {
		bad = append(bad, "subject ending in a function word")
	}
	if announceLine.MatchString(subject) {
		bad = append(bad, "subject only announcing")
	}
	if courtesyOnly.MatchString(subject) {
		bad = append(bad, "subject only courtesy")
	}
	if m := personVoice.FindStringSubmatch(subject); m != nil && m[1] != "be" && m[1] != "have" {
		bad = append(bad, "subject in a person's voice")
	}
	if s := strings.TrimSuffix(subject, "."); len(s) >= 12 {
		allowed := 0
		if shortened {
			allowed = 1 // the body opens with the full sentence
		}
		if strings.Count(body, s) > allowed {
			bad = append(bad, "body repeating the subject")
		}
	}
	for _, l := range strings.Split(body, "\n") {
		if announceLine.MatchString(strings.TrimSpace(l)) {
			bad = append(bad, "body line only announcing")
			break
		}
	}
	switch {
	case branch == "llm/reply":
		bad = append(bad, "branch llm/reply")
	case !slugShape.MatchString(branch) || len(branch) > len("llm/")+maxBranchSlug:
		bad = append(bad, "branch empty or malformed")
	}
	if fillerStart.MatchString(branch) {
		bad = append(bad, "branch starting with filler")
	}
	if branchWords(branch, subject) > maxBranchWords {
		bad = append(bad, "branch over 5 words")
	}
	if functionWord.MatchString(branch) {
		bad = append(bad, "branch ending in a function word")
	}
	return bad
}

// branchWords counts the words of a branch name, an identifier or a
// file name of the subject (get_counts, app.py) counting as one.
func branchWords(branch, subject string) int {
	low := strings.ToLower(subject)
	parts := strings.Split(strings.TrimPrefix(branch, "llm/"), "-")
	n := 0
	for i, p := range parts {
		joined := false
		if i > 0 {
			for _, sep := range []string{"_", ".", "/", "-", "=", `\`} {
				joined = joined || strings.Contains(low, parts[i-1]+sep+p)
			}
		}
		if !joined && p != "" {
			n++
		}
	}
	return n
}

// TestCorpusMessages gives every reply of the corpus that holds an edit
// its commit message and default branch name and checks that none has
// a bad shape. Run with -v to see the counts; MESSAGE_CORPUS_OUT=FILE
// writes every subject, branch and body to FILE for reading.
func TestCorpusMessages(t *testing.T) {
	text, err := os.ReadFile(messageCorpus)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal(err)
		}
		t.Skipf("the acceptance corpus is missing: %v", err)
	}
	counts := map[string]int{}
	var listing []string
	n := 0
	for _, reply := range transcriptReplies(string(text)) {
		r, err := translate.Parse(reply, translate.ParseOptions{Format: "auto"})
		if err != nil || len(r.Ops) == 0 {
			continue
		}
		n++
		subject, body := translate.Describe(r)
		var changes []patch.FileChange
		var paths []string
		seen := map[string]bool{}
		for _, op := range r.Ops {
			paths = append(paths, op.Path)
			if !seen[op.Path] {
				seen[op.Path] = true
				changes = append(changes, patch.FileChange{OldPath: op.Path, NewPath: op.Path})
			}
		}
		msg := strings.TrimSuffix(Commit("", subject, body, r.Format, changes, len(r.Ops)), "LLM-Edit-Format: "+r.Format+"\n")
		msgSubject, msgBody, _ := strings.Cut(msg, "\n")
		msgBody = strings.TrimSpace(msgBody)
		branch := "llm/" + BranchSlug(subject, paths)
		bad := messageShapes(msgSubject, msgBody, branch)
		for _, b := range bad {
			counts[b]++
			t.Errorf("%s: subject %q, branch %s", b, msgSubject, branch)
		}
		listing = append(listing, fmt.Sprintf("SUBJECT %s\nBRANCH  %s\nBAD     %v\n%s\n", msgSubject, branch, bad, msgBody))
	}
	if out := os.Getenv("MESSAGE_CORPUS_OUT"); out != "" {
		if err := os.WriteFile(out, []byte(strings.Join(listing, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if n < 400 {
		t.Errorf("only %d replies with edits read from the corpus; want about 418", n)
	}
	var kinds []string
	for k := range counts {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	t.Logf("%d replies with edits", n)
	for _, k := range kinds {
		t.Logf("%-36s %d", k, counts[k])
	}
}
