package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// storeFile is a Go file of n lines: functions of 17 lines, each with
// a unique name and comment, the rest boilerplate every function
// repeats.
func storeFile(n int) []string {
	out := []string{"package store", "", `import "fmt"`, ""}
	for i := 0; len(out) < n; i++ {
		out = append(out,
			fmt.Sprintf("// Load%d reads the item with the given id.", i),
			fmt.Sprintf("func (s *Store) Load%d(id string) (*Item, error) {", i),
			"\titem, err := s.get(id)",
			"\tif err != nil {",
			"\t\treturn nil, err",
			"\t}",
			fmt.Sprintf("\tif item.Kind != %d {", i%7),
			"\t\treturn nil, fmt.Errorf(\"wrong kind: %d\", item.Kind)",
			"\t}",
			"\terr = s.check(item)",
			"\tif err != nil {",
			"\t\treturn nil, err",
			"\t}",
			"\treturn item, nil",
			"}",
			"",
			"")
	}
	return out[:n]
}

func resolveOne(t *testing.T, text string, op translate.Operation, fuzz Fuzz) Outcome {
	t.Helper()
	res, err := Resolve(files(op.Path, text), []translate.Operation{op}, Options{Format: op.Format, Fuzz: fuzz})
	if err != nil {
		t.Fatal(err)
	}
	return res.Outcomes[0]
}

// TestClosestFindsTheMisrememberedBlock: a block of five lines of
// which one is misremembered (the first, the middle or the last) is
// found where it stands, in a file of 300, 3,800 or 100,000 lines of
// near-identical functions, and only that line is marked as differing.
func TestClosestFindsTheMisrememberedBlock(t *testing.T) {
	for _, n := range []int{300, 3800, 100000} {
		file := storeFile(n)
		text := strings.Join(file, "\n") + "\n"
		for _, near := range []int{178, 3000, 90000} {
			if near >= n {
				continue
			}
			fn := near - (near-4)%17 + 1 // a function's first line (0-based)
			changed := map[int]string{
				0: fmt.Sprintf("func (s *Store) Load%d(ctx context.Context, id string) (*Item, error) {", (fn-5)/17),
				2: "\tif err != nil && !errors.Is(err, ErrMissing) {",
				4: "\t} else {",
			}
			for _, j := range []int{0, 2, 4} {
				t.Run(fmt.Sprintf("lines=%d/near=%d/line=%d", n, near, j), func(t *testing.T) {
					block := slices.Clone(file[fn : fn+5])
					block[j] = changed[j]
					op := sr("store.go", strings.Join(block, "\n")+"\n", "x\n")
					op.Format = "diff"
					o := resolveOne(t, text, op, FuzzFormat)
					if o.Status != Failed {
						t.Fatalf("status %s", o.Status)
					}
					c := o.Err.Closest
					if c == nil || c.Start != fn+1 || c.End != fn+5 {
						t.Fatalf("closest %+v (%s), want lines %d-%d", c, o.Err.Msg, fn+1, fn+5)
					}
					if !slices.Equal(c.Differ, []int{fn + j + 1}) || c.Similarity >= 1 {
						t.Errorf("differ %v similarity %v, want [%d] under 1", c.Differ, c.Similarity, fn+j+1)
					}
				})
			}
		}
	}
}

// serviceFile is a Python file of n lines made of near-identical
// classes told apart only by their timeout's name; the one class
// starting near line at has the timeout 30.
func serviceFile(n, at int) []string {
	lines := []string{"import logging", "", ""}
	for i := 0; len(lines) < n; i++ {
		timeout := fmt.Sprintf("DEFAULT_TIMEOUT_%d", i)
		if len(lines) <= at && at < len(lines)+8 {
			timeout = "30"
		}
		lines = append(lines, fmt.Sprintf("class Service%d:", i), "    def configure(self):",
			`        self.name = "svc"`, "        self.timeout = "+timeout,
			"        self.retries = 5", "        return self", "", "")
	}
	return lines[:n]
}

// TestClosestShapes: what a failing edit's report shows for the shapes
// of misremembered text.
func TestClosestShapes(t *testing.T) {
	py := "def f():\n    x = 1   \n    return x\n"
	dup := strings.Join(serviceFile(3800, 3000), "\n") + "\n"
	small := strings.Join(storeFile(300), "\n") + "\n"
	// Lines too long to compare character by character (over 20,000
	// characters together), one of them misremembered by a character.
	var long []string
	for i := range 12 {
		var b strings.Builder
		for j := range 2000 {
			fmt.Fprintf(&b, "w%d_%d ", i, j*7%1009)
		}
		long = append(long, b.String())
	}
	longOld := strings.Replace(long[5], "w5_7 ", "w5_8 ", 1) + "\n" + long[6] + "\n"
	tests := []struct {
		name       string
		file, old  string
		format     string
		fuzz       Fuzz
		start, end int // 0: no closest lines
		differ     []int
		sim        float64 // the similarity wanted, when not 0
		rung       Rung
		want       Fuzz
		msg        string // in the failure's message
	}{
		{name: "no line alike", file: small, old: "class RetryPolicy:\n    max_attempts = 3\n", msg: "; no similar lines were found"},
		{name: "a long line misremembered", file: strings.Join(long, "\n") + "\n", old: longOld,
			start: 6, end: 7, differ: []int{6}, sim: 0.99, rung: RungLoose, want: FuzzLoose},
		{name: "lines too common to search", file: strings.Repeat("x = 1\n", 100000), old: "x = 1\nx = 1\nx = 2\nx = 1\n",
			msg: "; its lines stand in too many places of a.py for the closest to be looked for"},
		{name: "trailing white space at --fuzz exact", file: py, old: "    x = 1\n    return x\n", fuzz: FuzzExact,
			start: 2, end: 3, differ: []int{2}, sim: 0.99, rung: RungTrailing, want: FuzzFormat},
		{name: "indentation at --fuzz exact", file: py, old: "x = 1\nreturn x\n", fuzz: FuzzExact,
			start: 2, end: 3, differ: []int{2, 3}, rung: RungIndent, want: FuzzFormat},
		{name: "indentation in edit-v2", file: py, old: "x = 1\nreturn x\n", format: "edit-v2",
			start: 2, end: 3, differ: []int{2, 3}, rung: RungIndent, want: FuzzLoose},
		{name: "a comment the file lacks", file: py, old: "    x = 1  # one\n    return x\n",
			start: 2, end: 3, differ: []int{2}, rung: RungComments, want: FuzzLoose},
		{name: "a near match loose takes", file: py + "\n\ndef g():\n    y = 2\n    return y\n", old: "def g():\n    y = 2\n    return z\n",
			start: 6, end: 8, differ: []int{8}, rung: RungLoose, want: FuzzLoose},
		{name: "a line the file holds left out", file: "import os\n\n\ndef h():\n    a = load(os.environ)\n    b = parse(a)\n    c = check(b)\n    return c\n\n\ndef h2():\n    a = load(os.environ)\n    b = parse(a)\n    c = check(b)\n    return c\n",
			old: "def h():\n    a = load(os.environ)\n    c = check(b)\n    return c\n", start: 4, end: 8, differ: []int{6}},
		{name: "the best of duplicate regions", file: dup, old: "        self.name = \"svc\"\n        self.timeout = 300\n        self.retries = 5\n        return self\n",
			start: 2998, end: 3001, differ: []int{2999}, sim: 0.99, rung: RungLoose, want: FuzzLoose},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := "a.py"
			if strings.HasPrefix(tc.file, "package") {
				path = "a.go"
			}
			op := sr(path, tc.old, "x\n")
			op.Format = "diff"
			if tc.format != "" {
				op.Format, op.FirstMatch = tc.format, false
			}
			o := resolveOne(t, tc.file, op, tc.fuzz)
			if o.Status != Failed {
				t.Fatalf("status %s", o.Status)
			}
			c := o.Err.Closest
			if !strings.Contains(o.Err.Msg, tc.msg) {
				t.Errorf("message %q, want %q in it", o.Err.Msg, tc.msg)
			}
			if tc.start == 0 {
				if c != nil {
					t.Errorf("closest %+v, want none", c)
				}
				return
			}
			if c == nil {
				t.Fatalf("no closest lines (%s)", o.Err.Msg)
			}
			if c.Start != tc.start || c.End != tc.end || !slices.Equal(c.Differ, tc.differ) || c.Rung != tc.rung || c.Rung != 0 && c.Fuzz != tc.want {
				t.Errorf("closest lines %d-%d differ %v rung %s fuzz %s, want %d-%d %v %s %s",
					c.Start, c.End, c.Differ, c.Rung, c.Fuzz, tc.start, tc.end, tc.differ, tc.rung, tc.want)
			}
			if c.Similarity >= 1 || tc.sim != 0 && c.Similarity != tc.sim {
				t.Errorf("similarity %v, want %v", c.Similarity, tc.sim)
			}
		})
	}
}

// TestClosestHoldsAllButOneLine: a block of lines every function
// repeats, one of them rewritten, is shown at a place holding all its
// other lines (any of the many that do), not at one holding fewer,
// however long the file.
func TestClosestHoldsAllButOneLine(t *testing.T) {
	tail := []string{"\tif err != nil {", "\t\treturn nil, err", "\t}", "\treturn item, nil", "}"}
	for _, n := range []int{300, 3800, 100000} {
		text := strings.Join(storeFile(n), "\n") + "\n"
		for j := range tail {
			t.Run(fmt.Sprintf("lines=%d/line=%d", n, j), func(t *testing.T) {
				block := slices.Clone(tail)
				block[j] = "    totally_different = rewrite(line, 42)"
				op := sr("store.go", strings.Join(block, "\n")+"\n", "x\n")
				op.Format = "diff"
				o := resolveOne(t, text, op, FuzzFormat)
				c := o.Err.Closest
				if c == nil || len(c.Differ) != 1 || c.Differ[0] != c.Start+j {
					t.Fatalf("closest %+v, want a place holding all lines but line %d", c, j+1)
				}
			})
		}
	}
}

// TestLooserHintHolds: when a failure report says that a looser --fuzz
// matches the edit at lines A-B, resolving the edit again at that
// --fuzz applies it there, at the rung named: not at another place a
// rung between finds, and not "already applied".
func TestLooserHintHolds(t *testing.T) {
	py := "def f():\n    x = 1   \n    return x\n\n\ndef g():\n    y = 2\n    return y\n"
	// A long file in which the edit's lines stand, comments aside, at
	// one place, while many places hold two of its lines whole (with
	// the comment) and one of them holds all three but one nearly.
	var long []string
	for i := range 1500 {
		long = append(long, fmt.Sprintf("v%d = helper(%d)", i, i), "c = compute(3)")
		if i%50 == 10 {
			long = append(long, "a = compute(1)  # zzfoo", "b = compute(2)  # zzfoo", fmt.Sprintf("other_%d = something_else(%d, 'long text here')", i, i), "")
		}
	}
	long = append(long, "a = compute(1)  # zzfoo", "b = compute(2)  # zzfoo", "c = compute(8)  # zzfoo", "")
	long = append(long, slices.Repeat([]string{"w = helper(0)", "c = compute(3)"}, 200)...)
	long = append(long, "a = compute(1)", "b = compute(2)", "c = compute(3)", "")
	// A file too long to build views for a near match alone: a place
	// that reads as the edit's lines at a looser rung is still named.
	big := storeFile(looserViewLines + 1000)
	big[90003] += "  " // the line after the comment of Load5294
	tests := []struct {
		name     string
		file     string
		old, new string
		fuzz     Fuzz
		named    bool // a looser level must be named
	}{
		{name: "trailing white space at --fuzz exact", file: py, old: "def f():\n    x = 1\n", new: "def f():\n    x = 2\n", fuzz: FuzzExact, named: true},
		{name: "trailing white space at --fuzz exact in a long file", file: strings.Join(big, "\n") + "\n", old: big[90002] + "\n" + strings.TrimRight(big[90003], " ") + "\n",
			new: "x\n", fuzz: FuzzExact, named: true},
		{name: "a near match", file: py, old: "def g():\n    y = 2\n    return z\n", new: "def g():\n    y = 3\n    return y\n"},
		{name: "a rung between finds it elsewhere", file: strings.Join(long, "\n") + "\n",
			old: "a = compute(1)  # zzfoo\nb = compute(2)  # zzfoo\nc = compute(3)  # zzfoo\n", new: "q = 0\n"},
		{name: "its new lines already stand, a comment aside", file: py + "\n\ndef iota(nu):\n    # compute tau from nu\n    tau = nu * 179 + len(\"iota\")  # fixed\n    return tau\n",
			old: "def iota(nu):\n    # compute tau from nu\n    tau = nu * 178 + len(\"iota\")\n    return tau\n", new: "def iota(nu):\n    # compute tau from nu\n    tau = nu * 179 + len(\"iota\")\n    return tau\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			op := sr("a.py", tc.old, tc.new)
			op.Format = "diff"
			o := resolveOne(t, tc.file, op, tc.fuzz)
			if o.Status != Failed {
				t.Fatalf("status %s", o.Status)
			}
			c := o.Err.Closest
			if c == nil || c.Rung == 0 {
				if tc.named {
					t.Errorf("no looser --fuzz named: %+v", c)
				}
				return // no looser --fuzz named: nothing claimed
			}
			again := resolveOne(t, tc.file, op, c.Fuzz)
			if again.Status != Applied || again.Start != c.Start || again.End != c.End || again.Rung != c.Rung {
				t.Errorf("the report says --fuzz %s matches lines %d-%d (%s); at it the edit is %s at %d-%d (%s)",
					c.Fuzz, c.Start, c.End, c.Rung, again.Status, again.Start, again.End, again.Rung)
			}
		})
	}
}

// TestLooseKeepsScopeAndEnd: --fuzz loose's near match is held to what
// the edit says of its place, as the rungs below are: not above its
// scope lines, and at the end of the file when it must end there.
func TestLooseKeepsScopeAndEnd(t *testing.T) {
	const file = "def alpha():\n    value = compute(1)\n    return value * 2\n\n\ndef beta():\n    total = compute(2)\n    return total + 7\n"
	tests := []struct {
		name  string
		scope []string
		atEOF bool
	}{
		{name: "above the scope lines", scope: []string{"def beta():"}},
		{name: "not at the end of the file", atEOF: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			op := anchored("m.py", "    value = compute(3)\n    return value * 2\n", "    value = compute(4)\n")
			op.Format, op.Scope, op.AtEOF = "apply-patch", tc.scope, tc.atEOF
			o := resolveOne(t, file, op, FuzzLoose)
			if o.Status != Failed {
				t.Errorf("status %s at lines %d-%d (%s), want failed", o.Status, o.Start, o.End, o.Rung)
			}
		})
	}
}

// TestNotAtEndSaysSo: an edit whose lines must end the file ("*** End
// of File") and stand whole elsewhere is not reported as matching no
// lines: the failure says where they stand and that it is not the end.
func TestNotAtEndSaysSo(t *testing.T) {
	const file = "def alpha():\n    value = compute(1)\n    return value * 2\n\n\ndef beta():\n    return 7\n"
	op := anchored("m.py", "    value = compute(1)\n    return value * 2\n", "    value = compute(1)\n    return value * 5\n")
	op.Format, op.AtEOF = "apply-patch", true
	o := resolveOne(t, file, op, FuzzFormat)
	if o.Status != Failed || !strings.Contains(o.Err.Msg, "stand at line 2 of m.py, not at its end") {
		t.Errorf("%s: %q", o.Status, o.Err.Msg)
	}
}
