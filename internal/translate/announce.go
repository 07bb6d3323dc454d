package translate

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Models open and pad their replies with sentences that say nothing
// about the change: courtesy ("Sure!", "I apologize for the
// confusion."), and announcements of what follows ("Here are the
// *SEARCH/REPLACE* blocks:", "Then you can run it:"). Such a sentence
// is no subject, and an announcement whose blocks were taken out of the
// prose announces nothing in the body. A sentence that says what is
// done ("To do X, we need to modify Y:") is neither, so the test is
// narrow: every word of an announcement is one of the words models
// announce with, and it opens as announcements do.

var fillers = map[string]bool{
	"sure": true, "certainly": true, "okay": true, "ok": true, "of course": true, "absolutely": true,
	"great": true, "got it": true, "understood": true, "alright": true, "all right": true, "yes": true,
	"sure thing": true, "no problem": true, "great question": true, "you're right": true,
	"you are right": true, "you're absolutely right": true, "you're correct": true, "indeed": true,
	"done": true, "here it is": true, "here you go": true, "perfect": true, "good idea": true,
	"great idea": true, "good catch": true, "good point": true, "i see": true, "i understand": true,
	"makes sense": true, "noted": true, "right": true, "thanks": true, "thank you": true,
}

// courtesy opens sentences that only apologise, thank or acknowledge.
var courtesy = openingRegexpOf(`(?i)^(i apologi[sz]e|apologies|my apologies|sorry|thank you|thanks|that's a (great|good|excellent) (question|point|idea)|(great|good|excellent) (question|point|catch))\b`,
	"i apologi", "apologies", "my apologies", "sorry", "thank", "that's a ", "great ", "good ", "excellent ")

// acknowledgement is "I understand the issue." and its kin: short, and
// about the reader's message rather than the change.
var acknowledgement = openingRegexpOf(`(?i)^(i (now )?(understand|see)( now)?|understood|got it)\b`, "i ", "understood", "got it")

// interjection is an opening word a subject is better without
// ("Sure, I'll add the tests." reads "I'll add the tests.").
var interjection = openingRegexpOf(`(?i)^(sure|okay|ok|yes|certainly|alright|all right|great|absolutely|of course|indeed|no problem|you['\x{2019}]re (absolutely )?right|you are right|you['\x{2019}]re correct|good catch|understood),\s+`,
	"sure", "ok", "yes", "certainly", "al", "great", "absolutely", "of course", "indeed", "no problem", "you", "good catch", "understood")

// restatement opens a sentence that restates the request or the
// concern, or agrees with it ("I understand that you want to add a dot
// pattern.", "You're right to worry about Windows.", "You're right that
// make_str silently replaces undecodable bytes."): it explains, so the
// body keeps it, but it says what was asked, not what is done.
var restatement = openingRegexpOf(`(?i)^((you're|you are) (absolutely |quite |completely )?(right|correct) (to|that|about)|(good|great) (point|catch|question) (about|that|on)|that's (correct|right|true)[,.]|(i (now )?understand|i see)( that| what)?[^.]*\byou('d| would)? (want|like|wish|asked|are asking|mean)|you want (me )?to|you('d| would) like (me )?to|it (seems|sounds) like you want)\b`,
	"you", "good ", "great ", "that's ", "i ", "it ")

func isRestatement(s string) bool { return restatement.MatchString(normWord(s)) }

func normWord(s string) string {
	return strings.ToLower(strings.NewReplacer("\u2019", "'", "\u2018", "'").Replace(s))
}

func isFiller(s string) bool {
	return fillers[normWord(strings.TrimRight(s, ".!,: "))]
}

// isCourtesy reports whether sentence s (Markdown stripped) only
// apologises, thanks or acknowledges.
func isCourtesy(s string) bool {
	s = normWord(s)
	if courtesy.MatchString(s) {
		return true
	}
	return acknowledgement.MatchString(s) && len(strings.Fields(s)) <= 6 && !strings.Contains(s, " that ")
}

// dropInterjection removes an opening "Sure, " from s and capitalises
// what follows.
func dropInterjection(s string) string {
	loc := interjection.FindStringIndex(s)
	if loc == nil {
		return s
	}
	rest := s[loc[1]:]
	r, n := utf8.DecodeRuneInString(rest)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + rest[n:]
}

// announceHeads open an announcement.
var announceHeads = wordSet(`here here's heres below these this following the i i'll i'm i've we we'll we've
	let's let now then next first second third last finally so and you you'll to ok okay sure once after`)

// announceWords are the words an announcement is made of. A file name
// counts among them: the commit shows which files changed.
var announceWords = wordSet(`here here's heres is are be below above these this that those the a an following
	follow follows i i'll i'm i've i'd we we'll we've let's let us me you you'll your to now then ok okay
	sure next first second third last finally so and will would should can could must need needs needed have has going
	make making made implement implementing apply applying do doing done show showing provide providing
	give write writing propose proposed suggest suggested necessary required requested request
	updated update updates updating modified modify modifying modification modifications corrected
	revised complete full entire final change changes changed edit edits block blocks format search
	replace search/replace using with in into for of on file files code version content contents diff
	diffs patch patches implementation step steps it them accomplish achieve what how look looks like
	it's that's there there's as well also both all some few couple several minimal specific exact
	fix fixes solution snippet want wanted asked per based instructions described mentioned
	requirements proposed new again correct corrected proper actual provide without eliding omitting any
	appreciate
	run running execute executing test testing try see command commands script it once after done`)

// announceNouns name what an announcement announces; a sentence of
// announce words with none of them and no colon ("I'll use the new
// format.") is left alone.
var announceNouns = wordSet(`change changes edit edits block blocks code file files version content contents
	diff diffs patch patches implementation modification modifications update updates fix fixes solution
	snippet steps command commands`)

var fileToken = lazyRegexpOf(`^[\w./-]*\w\.[a-zA-Z0-9]{1,8}$|/`)

// wordSplit is where announces cuts a sentence into words: any rune
// but a letter, a digit (\p{L}, \p{N}) and '/._*-. It was the pattern
// [^\p{L}\p{N}'/._*-]+, whose Unicode classes took 0.1 ms to compile
// in every run that read prose; an invalid byte is U+FFFD to both.
func wordSplit(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsNumber(r) && !strings.ContainsRune("'/._*-", r)
}

// isAnnouncement reports whether sentence s (Markdown stripped) only
// announces the blocks or commands that follow it.
func isAnnouncement(s string) bool {
	return announces(s, nil)
}

// blockWords are the words a line of the body may add to an
// announcement of a block that is no longer there: "Here's the updated
// version of the `foo` method:", "To run this script, use a command
// like this in the terminal:".
var blockWords = wordSet(`method methods function functions class classes module section part relevant how
	script terminal use results same before following like would could you'd tests`)

// searchReplace names the block itself ("Let me provide the corrected
// SEARCH/REPLACE block that matches the file:").
var searchReplace = lazyRegexpOf(`(?i)search\s*/\s*replace`)

// isBodyAnnouncement reports whether sentence s of the body (with its
// Markdown) announces a block or a command the body no longer holds:
// an announcement, or a sentence ending in ":" that opens as one and
// names the SEARCH/REPLACE block or only code and blockWords.
func isBodyAnnouncement(s string) bool {
	p := plain(s)
	if isAnnouncement(p) {
		return true
	}
	if !strings.HasSuffix(p, ":") {
		return false
	}
	if searchReplace.MatchString(p) {
		return announces(p, func(string) bool { return true })
	}
	return announces(plain(codeSpan.ReplaceAllString(s, "")), func(w string) bool { return blockWords()[w] })
}

var codeSpan = lazyRegexpOf("`[^`]*`")

// announces is isAnnouncement with more words allowed: those extra
// accepts.
func announces(s string, extra func(string) bool) bool {
	t := normWord(strings.TrimSpace(s))
	colon := strings.HasSuffix(t, ":")
	var words []string
	for _, w := range strings.FieldsFunc(t, wordSplit) {
		w = strings.Trim(w, "*_.'-")
		if w != "" {
			words = append(words, w)
		}
	}
	if len(words) == 0 || !announceHeads()[words[0]] {
		return false
	}
	noun := false
	for _, w := range words {
		switch {
		case fileToken.MatchString(w):
			noun = true
		case announceNouns()[w]:
			noun = true
		case announceWords()[w]:
		case extra != nil && extra(w):
		default:
			return false
		}
	}
	return noun || colon
}

// wordSet is the set of the words of s, built on its first use as
// lazyRegexp compiles: a run that reads no prose (--version, a tool
// call) never builds it.
func wordSet(s string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(s) {
			m[w] = true
		}
		return m
	})
}
