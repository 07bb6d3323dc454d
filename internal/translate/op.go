package translate

import "strings"

// Kind says what an Operation does.
type Kind int

const (
	// Edit replaces Old (found between Before and After) with New.
	Edit Kind = iota
	// Create makes a new file holding New. For the SEARCH/REPLACE
	// family (Append set) an existing file gets New appended instead.
	Create
	// Delete removes the file at Path.
	Delete
	// Rename moves the file at Path to NewPath.
	Rename
	// Invalid is a block the reader recognised but could not read;
	// Comment says why. It fails as an edit of its own, so that the
	// blocks after it still count.
	Invalid
	// Chmod makes the file at Path executable or not (Executable): a
	// diff's "old mode"/"new mode" lines.
	Chmod
	// Replace replaces the text OldText with NewText as a substring of
	// the file, not by lines: the string-replace tools of coding agents
	// (Claude Code's Edit, the Anthropic text editor's str_replace,
	// Gemini CLI's replace). OldText must occur exactly once, unless
	// All (every occurrence, at least one) or Count (exactly Count
	// occurrences, all replaced) says otherwise. An empty OldText
	// creates the file with NewText (Claude Code's Edit does), and
	// fails when the file exists and is not empty.
	Replace
	// Insert puts the lines of New after line InsertAfter of the file
	// (0: at the top), by number: the text editor's insert command.
	Insert
	// Lazy merges New, the changed parts of a file with marker lines
	// ("// ... existing code ...", see IsLazyMarker) standing for every
	// unchanged span, into the file at Path (SPEC section 5): the
	// edit_file tools of IDE agents and the lazy format.
	Lazy
)

func (k Kind) String() string {
	switch k {
	case Edit:
		return "edit"
	case Create:
		return "create"
	case Delete:
		return "delete-file"
	case Rename:
		return "rename"
	case Invalid:
		return "unreadable"
	case Chmod:
		return "chmod"
	case Replace:
		return "replace"
	case Insert:
		return "insert"
	case Lazy:
		return "lazy"
	}
	return "unknown"
}

// BlockRule says how far an edit's Old lines reach: just the lines
// written, or the whole block that the first of them opens.
type BlockRule int

const (
	// NoBlock: Old is exactly the lines written.
	NoBlock BlockRule = iota
	// CBraces: Old is a header; the edit reaches the brace that closes
	// the block the header opens.
	CBraces
	// PyIndent: Old is a header ending in a colon; the edit reaches the
	// last line indented deeper than the header.
	PyIndent
)

// IndentUnit at the start of a line stands for one indentation unit of
// the target file (fiup's "→"): a tab in a tab-indented file, else the
// file's unit of spaces, four spaces when it cannot be told or the file
// is new. The engine expands it before matching; readers turn an
// escaped arrow into a literal one.
const IndentUnit = "\uE000"

// IndentMode says how the lines an edit adds are indented.
type IndentMode int

const (
	// IndentShift: new lines keep their indentation relative to the
	// matched lines, re-indented by the difference the match found.
	IndentShift IndentMode = iota
	// IndentAnchor: new lines are written from column 0 and get the
	// indentation of the first matched line (chunk's from-marker).
	IndentAnchor
	// IndentAsIs: new lines are written exactly as the reply has them.
	IndentAsIs
)

// Where places an Edit that has nothing to find (no Before, Old or
// After).
type Where int

const (
	// AtAnchor: the edit is placed by its lines (the default).
	AtAnchor Where = iota
	// AtStart: New goes at the top of the file.
	AtStart
	// AtEnd: New goes at the end of the file.
	AtEnd
)

// Operation is the one edit type every format reader produces and the
// engine consumes. Lines carry no line terminators: the engine writes
// them with the target file's own line ending.
//
// Besides what every operation has (its kind, file, reply line), its
// fields come in groups, one embedded struct each, so that op.Old
// still reads: the lines of an Edit (LineEdit), the text of a Replace
// or Insert (TextEdit), a Create's content (FileCreate), what a Delete,
// Rename or Chmod takes (FileOp), and how the engine places and
// indents the edit (Placement).
type Operation struct {
	Kind Kind
	// Format is the format the operation was read as; it sets the
	// default top rung of the matching ladder. Parse fills it in.
	Format string
	// Path is the file as the reply names it, cleaned of Markdown but
	// not yet resolved against a base. Backslashes stay as written:
	// whether one separates directories, escapes Markdown or belongs to
	// the name depends on the files that exist, which the engine knows.
	Path string
	// Root is the directory the agent's absolute paths are relative to
	// (its session's top: the first cwd the log records), when the
	// reply names one. The engine places an absolute Path below the
	// top it establishes from Root (SPEC section 5); translate leaves
	// absolute paths as written.
	Root string

	// Call, when not 0, names the one tool call the operation came
	// from: the operations of a call (a MultiEdit's edits, the files of
	// an apply_patch) share it, and no other call's have it. The agent
	// applied a call's edits all or none (Claude Code's MultiEdit,
	// Codex's apply_patch), so with --partial the engine keeps or drops
	// them together.
	Call int

	// Line is the 1-based reply line the operation came from.
	Line int
	// Comment is a note the reply attached to the operation.
	Comment string

	LineEdit
	TextEdit
	FileCreate
	FileOp
	Placement
}

// LineEdit is what an Edit finds and writes, by whole lines. New is
// also the lines a Create, an Insert and a Lazy edit write.
type LineEdit struct {
	// Scope lines are ordered hints that narrow where Old is looked
	// for: each must stand, in order, somewhere above it.
	Scope []string
	// Before must stand right above Old, After right below it.
	Before, After []string
	// Old is replaced by New. An Edit with empty Old inserts New
	// between Before and After.
	Old, New []string
	// Block extends Old to a whole code block.
	Block BlockRule
	// AtEOF: Old (with After) must end at the end of the file
	// (apply-patch's "*** End of File").
	AtEOF bool
	// TrimBlank: when deleting Old leaves blank lines on both sides,
	// the blank lines that followed Old go too (no stray blank line).
	TrimBlank bool
}

// TextEdit is what a Replace and an Insert, the text tools of coding
// agents, find and write.
type TextEdit struct {
	// OldText and NewText are a Replace's text, kept whole (line
	// breaks are "\n", as the tool call has them; the engine matches
	// them against the file with its line endings read as "\n").
	OldText, NewText string
	// Count, for a Replace, is the number of occurrences OldText must
	// have, all of them replaced (Gemini CLI's expected_replacements);
	// 0 means exactly one, unless All.
	Count int
	// All, for a Replace, replaces every occurrence, of which there
	// must be at least one (replace_all, allow_multiple).
	All bool
	// InsertAfter, for an Insert, is the 1-based line New goes after
	// (0: before the first line).
	InsertAfter int
}

// FileCreate is what a Create writes, and what it does to a file that
// exists.
type FileCreate struct {
	// Content, for a Create, is New kept whole by a reader that reads
	// a file's body as one block: the lines, each ended by "\n", and
	// New is then nil. A file of millions of short lines costs its
	// bytes this way, not a string per line. NewLines gives the lines
	// either way.
	Content string
	// Append: a Create whose file exists appends New to it.
	Append bool
	// Overwrite: a Create whose file exists replaces its content; a
	// Rename whose target exists replaces the target.
	Overwrite bool
	// ProseNames are the file names a sentence above a bare fence holds
	// ("Here's the updated `app.py`:"), for a Create whose reply named
	// its file nowhere else; Path is then empty. The engine takes the
	// one name of an existing file, when the fence is plausibly the
	// whole of it; otherwise the block is skipped, as a snippet. A file
	// is never created from prose.
	ProseNames []string
	// ProseWhole is the one of ProseNames that the prose line calls
	// the fence the new, updated, complete ... version of ("Here's the
	// modified `a.py` file", "a new version of `a.txt`"), not merely
	// names ("in `a.py`:"); "" when none. The engine then takes a short
	// file whole even when the fence keeps none of its lines.
	ProseWhole string
}

// FileOp is what the operations on a whole file but Create take: a
// Rename's target, a Delete's reach and a Chmod's mode.
type FileOp struct {
	// NewPath is the target of a Rename.
	NewPath string
	// Recursive: a Delete that names an existing directory deletes
	// every file under it.
	Recursive bool
	// Executable is the mode a Chmod gives: 100755 when set, else
	// 100644.
	Executable bool
}

// Placement is how the engine places an edit when the file has several
// candidate places, or none to find, and how it indents the new lines.
type Placement struct {
	// LineHint is a 1-based line of the file near which Old is
	// expected (0: none). When several places match, the nearest wins.
	LineHint int
	// Where places an Edit with nothing to find at the start or end.
	// An Edit with nothing to find but Scope lines goes right below
	// the last of them.
	Where Where
	// FirstMatch: when several places match, take the first one and
	// warn instead of failing as ambiguous (the SEARCH/REPLACE promise).
	FirstMatch bool
	// Ordered: the members of a group are placed in order, each
	// preferably after the one before (the hunks of one diff).
	Ordered bool
	// Group numbers operations that are placed against the same
	// content and applied together (the pieces of one elided block,
	// the hunks of one diff); 0 means the operation stands alone.
	Group int
	// Indent says how New is indented.
	Indent IndentMode
	// IndentFrom is the line of Before+Old+After whose indentation
	// IndentAnchor gives the new lines (chunk: the marker's first line,
	// after any before context).
	IndentFrom int
	// Language names the comment syntax matching uses ("c++",
	// "python", or an extension such as "go"), instead of the one the
	// file's extension implies.
	Language string
}

// NewLines returns New, or the lines of Content when the operation
// keeps them whole.
func (op *Operation) NewLines() []string {
	if op.Content == "" {
		return op.New
	}
	return strings.Split(strings.TrimSuffix(op.Content, "\n"), "\n")
}

// Shell is a fenced block of shell commands found in a reply. It is
// reported, never run.
type Shell struct {
	Line int    // reply line of the opening fence
	Lang string // the fence's info string (bash, sh, ...)
	Text string
}

// Reply is what a reader found in one model reply.
type Reply struct {
	// Format is the name of the format the operations were read as.
	Format string
	// Description is the format's own description field, if it has
	// one; otherwise it is derived from Prose (see Describe).
	Description string
	// Prose holds the reply's lines that are not part of an edit
	// block, in order, for the description.
	Prose []string
	Ops   []Operation
	Shell []Shell
	// Warnings are things worth telling the user that did not stop
	// the parse (for example a name taken from a prose line).
	Warnings []Warning
	// Failed are directives a reader recognised but could not read
	// (udiffx: a tag missing its attribute); each is reported as a
	// failed edit, and the directives after it still count.
	Failed []Failure
	// Unread are tool calls that look like edits but that no reader
	// reads (a tool it does not know whose arguments name a file and
	// its text): Parse fails the reply on the first, or with
	// ParseOptions.Partial skips each with a warning (SPEC section 2).
	Unread []Failure
}

// Failure is a block of a reply that could not be read.
type Failure struct {
	Line int
	Path string
	Msg  string
}

// Warning is a note about a reply line.
type Warning struct {
	Line int
	Msg  string
}
