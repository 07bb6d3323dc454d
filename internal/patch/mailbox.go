package patch

import (
	"bytes"
	"fmt"
	"strings"
	"time"
)

// MailOptions describes one patch file of a series for FormatMail.
type MailOptions struct {
	// Commit is the full hex id of the commit the patch is, for the
	// mbox "From " line; "" stands for none and gives the all-zero id,
	// which git itself uses for an object that does not exist.
	Commit string
	// Author is the commit's author as "Name <email>".
	Author string
	// Date is the author date; its zone is the one the Date header shows.
	Date time.Time
	// Message is the whole commit message: the subject paragraph, a
	// blank line and the body, as message.Commit builds it.
	Message string
	// N and Total place the patch in its series, N counting from 1.
	// A Total of 0 or 1 gives "[PATCH]", more gives "[PATCH N/Total]".
	N, Total int
	// Signature follows the "-- " line that ends the mail. git puts
	// its version there; we put the program's name (and version).
	// Empty leaves out the signature and its "-- " line, as
	// `git format-patch --no-signature` does.
	Signature string
}

// Validate reports what makes o unusable for FormatMail: a Commit that
// is not a full hex id, an Author not of the form "Name <email>", a
// zero Date, or N outside the series.
func (o MailOptions) Validate() error {
	if o.Commit != "" && !isFullHexID(o.Commit) {
		return fmt.Errorf("mail options: commit %q is not a full hex id", o.Commit)
	}
	if _, _, ok := splitIdent(o.Author); !ok {
		return fmt.Errorf("mail options: author %q is not of the form \"Name <email>\"", o.Author)
	}
	if o.Date.IsZero() {
		return fmt.Errorf("mail options: no date")
	}
	switch {
	case o.Total < 0:
		return fmt.Errorf("mail options: negative total %d", o.Total)
	case o.Total > 1 && (o.N < 1 || o.N > o.Total):
		return fmt.Errorf("mail options: patch %d of %d", o.N, o.Total)
	case o.Total <= 1 && (o.N < 0 || o.N > 1):
		return fmt.Errorf("mail options: patch %d of a single one", o.N)
	}
	return nil
}

// isFullHexID accepts a SHA-1 or SHA-256 object id in lower-case hex.
func isFullHexID(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// FormatMail returns the patch file `git format-patch` writes for a
// commit: mbox "From " line, From, Date and Subject headers (MIME
// headers when the message is not ASCII), the message body, "---", the
// diffstat and summary, the patch, and the signature. patch must be
// what Format made of changes, with any options; the diffstat is
// computed from changes. With no change at all the mail stops after
// the message, as `git format-patch --always` does for an empty commit.
//
// The output is git 2.39's byte for byte, the signature aside, under
// its defaults: no format.* or diff.* configuration, a stat 72 columns
// wide, core.quotePath on, UTF-8 output.
//
// It returns an error when o does not validate (see
// MailOptions.Validate), when a change is malformed (see Format),
// or, wrapping ErrMismatch, when patch does not hold one file
// section per section Format makes of changes.
func FormatMail(patch []byte, changes []FileChange, o MailOptions) ([]byte, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	head, tail, err := FormatMailParts(patch, changes, o)
	if err != nil {
		return nil, err
	}
	return append(append(head, SubjectHeader(o.Message, o.N, o.Total)...), tail...), nil
}

// FormatMailParts is FormatMail's mail without its Subject header: what
// comes before it and what follows. A series written a patch at a time
// before its length is known (replay -o) keeps the parts and puts
// SubjectHeader between them once it is: only that header numbers the
// patch. o's N and Total are not used.
func FormatMailParts(patch []byte, changes []FileChange, o MailOptions) (head, tail []byte, err error) {
	o.N, o.Total = 0, 0
	if err := o.Validate(); err != nil {
		return nil, nil, err
	}
	for i, c := range changes {
		if err := checkChange(c); err != nil {
			return nil, nil, fmt.Errorf("change %d (%q): %w", i+1, c.Path(), err)
		}
	}
	if got, want := countSections(patch), len(patchFiles(changes)); got != want {
		return nil, nil, fmt.Errorf("%w: %d file sections in the patch, %d in the changes", ErrMismatch, got, want)
	}

	var h, b bytes.Buffer
	commit := o.Commit
	if commit == "" {
		commit = nullID
	}
	// git's magic date tells tools such as file(1) that this is a
	// patch, not a real mailbox; git am needs only the line's shape.
	fmt.Fprintf(&h, "From %s Mon Sep 17 00:00:00 2001\n", commit)
	writeFromHeader(&h, o.Author)
	fmt.Fprintf(&h, "Date: %s\n", rfc2822Date(o.Date))
	_, body := splitMessage(o.Message)
	if needs8bit(o.Message) {
		b.WriteString("MIME-Version: 1.0\nContent-Type: text/plain; charset=UTF-8\nContent-Transfer-Encoding: 8bit\n")
	}
	b.WriteByte('\n')
	for _, l := range body {
		b.WriteString(l)
		b.WriteByte('\n')
	}

	if pairs := diffPairs(changes); len(pairs) > 0 {
		b.WriteString("---\n")
		writeDiffstat(&b, statFiles(pairs), mailStatWidth)
		writeSummary(&b, pairs)
		b.WriteByte('\n')
		b.Write(patch)
	}
	if o.Signature != "" {
		b.WriteString("-- \n")
		b.WriteString(o.Signature)
		if !strings.HasSuffix(o.Signature, "\n") {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	return h.Bytes(), b.Bytes(), nil
}

// SubjectHeader is the Subject header FormatMail writes for a commit
// of message that is patch n of total (see MailOptions): "[PATCH]"
// alone for a total of 0 or 1, "[PATCH n/total]" with n as wide as
// total otherwise.
func SubjectHeader(message string, n, total int) []byte {
	subject, _ := splitMessage(message)
	var b bytes.Buffer
	writeSubjectHeader(&b, subject, n, total)
	return b.Bytes()
}

// countSections counts the file sections of a patch. No other line of
// a git diff can start with "diff --git ": hunk lines start with a
// sign, binary data lines use an alphabet without spaces.
func countSections(patch []byte) int {
	n := 0
	for len(patch) > 0 {
		if bytes.HasPrefix(patch, []byte("diff --git ")) {
			n++
		}
		i := bytes.IndexByte(patch, '\n')
		if i < 0 {
			break
		}
		patch = patch[i+1:]
	}
	return n
}

// mailStatWidth is MAIL_DEFAULT_WRAP, the diffstat width format-patch
// uses instead of the terminal's.
const mailStatWidth = 72

// maxHeaderLine is where git folds the From and Subject headers
// (RFC 2822's recommended 78 characters).
const maxHeaderLine = 78

// FileName returns the name `git format-patch` gives the n-th
// patch of a series: "NNNN-<subject>.patch", the subject being the
// first non-blank line of subject (a whole message will do) with every
// run of characters other than ASCII letters, digits, '.' and '_'
// turned into one '-', runs of dots into one, no '-' at the start, no
// '.' or '-' at the end, and the name before ".patch" cut at 57 bytes
// (git's 64 minus the suffix and a byte of slack). A cut may leave a
// trailing '-', as in git.
func FileName(n int, subject string) string {
	line, _, _ := strings.Cut(skipBlankLines(subject), "\n")
	var s []byte
	sep := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !isTitleChar(c) {
			sep = len(s) > 0
			continue
		}
		if sep {
			s = append(s, '-')
			sep = false
		}
		s = append(s, c)
		for c == '.' && i+1 < len(line) && line[i+1] == '.' {
			i++
		}
	}
	name := fmt.Sprintf("%04d-%s", n, bytes.TrimRight(s, ".-"))
	const maxName = 64 - len(".patch") - 1
	if len(name) > maxName {
		name = name[:maxName]
	}
	return name + ".patch"
}

func isTitleChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
}

// splitMessage cuts a commit message as git's pretty printer does: the
// subject is the first paragraph after any blank lines, its lines
// joined by spaces; the body is the rest without its leading and
// trailing blank lines. Every line loses its trailing white space.
func splitMessage(msg string) (subject string, body []string) {
	lines := strings.SplitAfter(skipBlankLines(msg), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	var title []string
	i := 0
	for ; i < len(lines); i++ {
		l := trimSpaceRight(lines[i])
		if l == "" {
			i++ // the blank line ends the subject and goes with it
			break
		}
		title = append(title, l)
	}
	for ; i < len(lines); i++ {
		l := trimSpaceRight(lines[i])
		if l == "" && len(body) == 0 {
			continue
		}
		body = append(body, l)
	}
	for len(body) > 0 && body[len(body)-1] == "" {
		body = body[:len(body)-1]
	}
	return strings.Join(title, " "), body
}

// skipBlankLines drops the leading lines that hold only white space.
func skipBlankLines(s string) string {
	for s != "" {
		l, rest, _ := strings.Cut(s, "\n")
		if trimSpaceRight(l) != "" {
			break
		}
		s = rest
	}
	return s
}

// trimSpaceRight trims what C's isspace calls white space, no more:
// git trims message lines with it, and Unicode spaces survive.
func trimSpaceRight(s string) string {
	return strings.TrimRight(s, " \t\n\v\f\r")
}

// nonASCII is git's non_ascii: a high byte, or the ESC that starts
// ISO-2022 shifts.
func nonASCII(c byte) bool { return c >= 0x80 || c == 0x1b }

// needs8bit reports whether the mail needs MIME headers declaring 8-bit
// UTF-8: git adds them when the commit message holds a non-ASCII byte,
// whatever the author's name (encoded in its header) or the diff holds.
func needs8bit(msg string) bool {
	for i := 0; i < len(msg); i++ {
		if nonASCII(msg[i]) {
			return true
		}
	}
	return false
}
