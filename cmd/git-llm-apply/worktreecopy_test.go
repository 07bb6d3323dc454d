package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestStagedNotWorkingTreeCopy: a long staged file is read from its
// working-tree copy only when that copy is the staged blob. Here the
// copy differs in one line and keeps the staged size and times, as an
// edit within the stat data's precision leaves them: an edit of the
// staged line applies to the staged content, one of the working tree's
// line fails, and neither touches the checkout.
func TestStagedNotWorkingTreeCopy(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 0; b.Len() < 200<<10; i++ {
		fmt.Fprintf(&b, "    total += weight(%d)  # row %06d\n", i, i)
	}
	staged := b.String()
	copyOf := strings.Replace(staged, "total += weight(700)", "count -= offset(700)", 1)
	r := newRepo(t, map[string]string{"calc.py": staged})
	// An hour old when staged, so that git takes the entry for clean
	// (not racily so) and leaves its size alone.
	full := filepath.Join(r.dir, "calc.py")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(full, old, old); err != nil {
		t.Fatal(err)
	}
	r.git("add", "calc.py")
	if err := os.WriteFile(full, []byte(copyOf), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(full, old, old); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.git("ls-files", "--debug", "calc.py"), fmt.Sprintf("size: %d", len(staged))) {
		t.Fatal("setup: the index does not hold the file's size")
	}
	before := r.snapshot()
	edit := func(old string) string {
		return "*** Begin Patch\n*** Update File: calc.py\n@@\n-" + old + "\n+" + strings.Replace(old, "total", "sum", 1) + "\n*** End Patch\n"
	}
	stagedLine := "    total += weight(700)  # row 000700"
	res := r.run("apply", "-q", "-b", "staged", r.reply("staged.txt", edit(stagedLine)))
	if res.code != 0 {
		t.Fatalf("the edit of the staged line: exit %d\n%s", res.code, res.stderr)
	}
	want := strings.Replace(staged, stagedLine, strings.Replace(stagedLine, "total", "sum", 1), 1)
	if got := r.git("show", "staged:calc.py"); got != want {
		t.Fatalf("the branch's calc.py is not the staged one with the edit (%d bytes, want %d)", len(got), len(want))
	}
	res = r.run("check", r.reply("copy.txt", edit("    count -= offset(700)  # row 000700")))
	if res.code == 0 {
		t.Fatalf("an edit of a line only the working tree's copy holds passed the check:\n%s%s", res.stdout, res.stderr)
	}
	r.assertUntouched(before)
}
