package main

import (
	"strings"
	"testing"
)

// TestDefaultBranchAndMessage: apply without -b names the branch by a
// few words of what the reply does and records a message a person
// would write: the model's courtesy and its announcements of blocks and
// commands left out, a long first sentence shortened to one that reads
// whole and given in full in the body.
func TestDefaultBranchAndMessage(t *testing.T) {
	t.Parallel()
	greet := block("src/app.py", "    return \"hello \" + name\n", "    return \"good day, \" + name\n")
	tests := []struct {
		name, reply  string
		branch, msg  string
		secondBranch string // the same reply applied again
	}{
		{
			name: "model reply",
			reply: "Certainly! I'll modify the `greet` function in `src/app.py` to greet people politely, so that the output reads better for everyone who runs it.\n\n" +
				"Here are the *SEARCH/REPLACE* blocks:\n\n" + greet +
				"\nThis change makes the greeting polite.\n\nThen you can run it:\n\n```bash\npython src/app.py\n```\n",
			branch: "llm/modify-greet-function-in-src-app-py",
			msg: "Modify the greet function in src/app.py to greet people politely\n\n" +
				"I'll modify the `greet` function in `src/app.py` to greet people politely, so that the output reads better for everyone who runs it.\n\n" +
				"This change makes the greeting polite.\n\nLLM-Edit-Format: diff\nLLM-Reply: 4cbc25f6b0f33ad2\n",
			secondBranch: "llm/modify-greet-function-in-src-app-py-2",
		},
		{
			name:         "courtesy and announcement only",
			reply:        "I apologize for the confusion. Here is the updated code:\n\n" + greet,
			branch:       "llm/edit-app-py",
			msg:          "Apply 1 edit to app.py\n\nLLM-Edit-Format: diff\nLLM-Reply: 4cbc25f6b0f33ad2\n",
			secondBranch: "llm/edit-app-py-2",
		},
		{
			name:   "short first sentence",
			reply:  "Sure! Let's greet people politely.\n\nThe old greeting was curt.\n\n" + greet,
			branch: "llm/greet-people-politely",
			msg:    "Greet people politely.\n\nThe old greeting was curt.\n\nLLM-Edit-Format: diff\nLLM-Reply: 4cbc25f6b0f33ad2\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRepo(t, map[string]string{"src/app.py": appPy})
			before := r.snapshot()
			reply := r.reply("r.md", tt.reply)
			res := r.run("apply", reply)
			if res.code != 0 {
				t.Fatalf("exit %d\n%s", res.code, res.stderr)
			}
			if b := r.branches(); b != tt.branch+"\nmain" {
				t.Fatalf("branches:\n%s\nwant %s", b, tt.branch)
			}
			r.git("check-ref-format", "refs/heads/"+tt.branch)
			if msg := r.git("log", "-1", "--format=%B", tt.branch); msg != tt.msg+"\n" {
				t.Errorf("message:\n%s\nwant\n%s", msg, tt.msg)
			}
			if !strings.Contains(res.stderr, "git switch "+tt.branch) {
				t.Errorf("report:\n%s", res.stderr)
			}
			if tt.secondBranch != "" {
				if res := r.run("apply", reply); res.code != 0 {
					t.Fatalf("second run: exit %d\n%s", res.code, res.stderr)
				}
				if b := r.branches(); b != tt.branch+"\n"+tt.secondBranch+"\nmain" {
					t.Errorf("branches after a second run:\n%s", b)
				}
			}
			r.fsck()
			r.assertUntouched(before)
		})
	}
}
