package translate

import "errors"

// editFileCall reads the edit_file tool of IDE agents, whose code_edit
// holds only the changed parts of the file, a marker comment ("// ...
// existing code ...") standing for every unchanged span: a Lazy
// operation (SPEC section 5). Cursor's and Windsurf's tool name the
// file target_file (Cursor's edit_file description, quoted in public
// prompt collections: target_file, instructions, code_edit); Morph's
// edit_file (docs.morphllm.com) names it target_filepath; some write
// path. Windsurf's (its Cascade tool list, as public prompt
// collections quote it) names its arguments TargetFile, CodeEdit and
// Instruction, and its marker is "{{ ... }}". instructions, a sentence
// saying what the edit does, is kept as the operation's Comment, for
// the description of a reply that has no other.
func editFileCall(a args) ([]Operation, error) {
	p, err := a.filePath("target_file", "target_filepath", "path", "file_path", "TargetFile")
	if err != nil {
		return nil, err
	}
	code, _, err := a.text(false, "code_edit", "CodeEdit")
	if err != nil {
		return nil, err
	}
	if code == "" {
		return nil, errors.New("the argument code_edit is empty")
	}
	instr, _, err := a.text(true, "instructions", "Instruction")
	if err != nil {
		return nil, err
	}
	return []Operation{{Kind: Lazy, Path: p, LineEdit: LineEdit{New: textLines(lf(code))}, Comment: instr}}, nil
}
