package translate

import (
	"fmt"
	"strings"
)

// Cline and Roo Code, with a model that calls tools natively, send no
// XML: their tools are function calls whose arguments carry what the
// XML parameters carry (cline.go, roo.go), and their logs
// (api_conversation_history.json) hold them as Anthropic tool_use
// items. Each is read with the XML form's semantics (SPEC section 4).
//
//   - Cline's replace_in_file: {"absolutePath" (older versions
//     "path"), "diff", "task_progress"}, the diff in Cline's
//     "------- SEARCH" / "=======" / "+++++++ REPLACE" blocks
//     (src/core/prompts/system-prompt/tools/replace_in_file.ts, its
//     NATIVE_NEXT_GEN variant; applied by constructNewFileContent in
//     src/core/assistant-message/diff.ts);
//   - Cline's write_to_file: {"absolutePath" or "path", "content"}
//     (src/core/prompts/system-prompt/tools/write_to_file.ts);
//   - Roo Code's apply_diff: {"path", "diff"}, and write_to_file:
//     {"path", "content"} (src/core/prompts/tools/native-tools/
//     apply_diff.ts, write_to_file.ts);
//   - Roo Code's edit_file: Gemini CLI's replace under another name
//     (file_path, old_string, new_string, expected_replacements;
//     src/core/tools/EditFileTool.ts), and search_replace: one
//     occurrence of old_string, which must be unique
//     (src/core/tools/SearchReplaceTool.ts), read as Claude Code's Edit.

// agentDiffCall reads Cline's replace_in_file (roo false) or Roo
// Code's apply_diff (roo true): the blocks of the diff argument, read
// as the XML form reads its <diff>. Cline and Roo Code apply a call's
// blocks all or none, so a block that cannot be read refuses the call,
// naming its line in the diff; warnings name it too.
func agentDiffCall(tool string, a args, line int, roo bool) callResult {
	c := callResult{known: true}
	p, err := a.filePath("absolutePath", "path")
	if err != nil {
		c.err = err
		return c
	}
	c.path = p
	diff, _, err := a.str("diff", false)
	if err != nil {
		c.err = err
		return c
	}
	ar := &agentReader{replyLines: newReplyLines(lf(diff)), r: &Reply{}}
	el := element{lines: ar.lines, close: len(ar.lines)}
	ar.group = 1 // readCall numbers it anew
	if roo {
		ar.rooBlocks(p, el, 0)
	} else {
		ar.clineBlocks(p, el)
	}
	ws := append(ar.r.Warnings, ar.near.warnings()...)
	sortWarnings(ws)
	for _, w := range ws {
		c.warns = append(c.warns, warning(line, "%s, diff line %d: %s", tool, w.Line, w.Msg))
	}
	if len(ar.r.Failed) > 0 {
		f := ar.r.Failed[0]
		c.err = fmt.Errorf("diff line %d: %s", f.Line, strings.Replace(f.Msg, "<diff> of "+p, "diff", 1))
		return c
	}
	c.ops = ar.r.Ops
	return c
}

// agentWriteCall reads Cline's and Roo Code's write_to_file: the whole
// new content of a file, created or overwritten, with the fence a
// weaker model wraps it in taken off (see unfenceLines).
func agentWriteCall(tool string, a args, line int) callResult {
	c := callResult{known: true}
	p, err := a.filePath("absolutePath", "path")
	if err != nil {
		c.err = err
		return c
	}
	c.path = p
	content, _, err := a.str("content", false)
	if err != nil {
		c.err = err
		return c
	}
	content = lf(content)
	if inner, open, ok := unfenceLines(strings.Split(content, "\n")); ok {
		content = strings.Join(inner, "\n")
		c.warns = append(c.warns, unfenceWarning(line, tool, p, open))
	}
	c.ops = []Operation{{Kind: Create, Path: p, FileCreate: FileCreate{Content: fileContent(content), Overwrite: true}}}
	return c
}

// unfenceLines takes off the Markdown fence a whole file's content is
// wrapped in: its first line that holds text opens a fence ("```" and
// a language, or nothing) and its last closes it (backticks only, at
// least as many). Cline's and Roo Code's write_to_file take these
// lines off (Cline: WriteToFileToolHandler.ts, validateAndPrepareFile
// Operation, "startsWith(\"```\")"; Roo Code: WriteToFileTool.ts).
// They take off either line alone too, which would cut the last line
// of a Markdown file that ends with a fence: here both must be there,
// so a fence inside the content, or one that only ends it, stays. ok
// says the fence was taken off; open is its opening line.
func unfenceLines(lines []string) (inner []string, open string, ok bool) {
	first, last := 0, len(lines)-1
	for first <= last && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	for last > first && strings.TrimSpace(lines[last]) == "" {
		last--
	}
	if last <= first {
		return lines, "", false
	}
	open = strings.TrimSpace(lines[first])
	n := countPrefix(open, '`')
	closing := strings.TrimSpace(lines[last])
	if n < 3 || strings.Contains(open[n:], "`") || len(closing) < n || countPrefix(closing, '`') != len(closing) {
		return lines, "", false
	}
	return lines[first+1 : last], open, true
}

// unfenceWarning is the note about a write_to_file whose fence was
// taken off.
func unfenceWarning(line int, tool, path, open string) Warning {
	return warning(line, "the content %s writes to %s is wrapped in a Markdown fence (%q ... \"```\"); the fence lines are taken off, as the agent does", tool, path, open)
}
