package engine

// insertLines resolves an Insert: the new lines go after line
// InsertAfter of the file as the reply has left it (0: at the top), by
// number, as the insert command of the Anthropic text editor places
// them (anthropics/anthropic-quickstarts
// computer-use-demo/computer_use_demo/tools/edit.py, insert). They get
// the file's line ending; a file without a final newline keeps lacking
// one, as that command's split and join keep it.
//
// Already applied: the new lines standing right after the line named
// are the file a first run left. They may also be lines the edit means
// to write twice (a "}" before a "}"): lines with no letter or digit
// prove nothing, and the edit then fails rather than guess. Lines with
// a letter or digit standing whole a few lines away are most likely a
// first run's, moved by the other inserts of the reply (a line number
// is not an anchor): the edit fails rather than write them twice.
func (r *resolver) insertLines(o *Outcome, f *fileState) {
	if !r.editable(o, f) {
		return
	}
	op := &o.Op
	op.New, op.Content = op.NewLines(), ""
	dropBOMs(op, f.d)
	d := f.d
	n, at := d.len(), op.InsertAfter
	switch {
	case at < 0 || at > n:
		r.fail(o, ErrNoAnchor, "the edit inserts after line %d, but %s has %d lines; give a line number from 0 (the top) to %d", at, f.path, n, n)
		return
	case len(op.New) == 0:
		o.Status, o.Start, o.End = AlreadyApplied, at+1, at
		return
	case at+len(op.New) <= n && sameExactRun(d, at, op.New):
		if !distinctive(op.New) {
			r.fail(o, ErrAmbiguous, "the lines to insert after line %d of %s already stand right below it, and hold no letter or digit to tell a first run from a second; insert them with the lines around them instead", at, f.path)
			return
		}
		o.Status, o.Start, o.End = AlreadyApplied, at+1, at+len(op.New)
		return
	}
	if distinctive(op.New) {
		if k := nearRun(d, at, op.New); k > 0 {
			r.fail(o, ErrAmbiguous, "the lines to insert after line %d of %s already stand at line %d, near it: inserting them again would write them twice (a second run after the lines above it moved); if a second copy is meant, insert it with the lines around it instead", at, f.path, k)
			return
		}
	}
	repl := make([]string, len(op.New))
	for i, l := range op.New {
		repl[i] = l + d.eol
	}
	o.Status, o.Start, o.End = Applied, at+1, at
	if at == n && n > 0 && !d.final {
		// The last line gets a terminator and the new last line none;
		// a new last line that is empty is that final newline.
		if last := op.New[len(op.New)-1]; last == "" {
			repl = repl[:len(repl)-1]
			d.final = true
		} else {
			repl[len(repl)-1] = last
		}
		repl = append([]string{d.content(n-1) + d.eol}, repl...)
		f.splice(n-1, n, repl)
		return
	}
	f.splice(at, at, repl)
}

// sameExactRun reports whether doc lines from at on are lines, byte
// for byte (line endings aside).
func sameExactRun(d *doc, at int, lines []string) bool {
	for i, l := range lines {
		if d.content(at+i) != l {
			return false
		}
	}
	return true
}

// nearInsert is how far from an insert's place its lines are looked
// for, as a first run's that other edits of the reply moved.
const nearInsert = 20

// nearRun returns the 1-based line where lines stand whole within
// nearInsert lines of line at (the block's start), or 0.
func nearRun(d *doc, at int, lines []string) int {
	for i := max(0, at-nearInsert); i <= min(d.len()-len(lines), at+nearInsert); i++ {
		if sameExactRun(d, i, lines) {
			return i + 1
		}
	}
	return 0
}
