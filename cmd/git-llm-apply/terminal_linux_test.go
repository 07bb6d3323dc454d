package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal: its master, from which what is
// written to the terminal is read, and the path of its terminal.
func openPTY(t *testing.T) (*os.File, string) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	if err := unix.IoctlSetPointerInt(int(master.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(master.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("naming the pseudo-terminal: %v", err)
	}
	return master, "/dev/pts/" + strconv.Itoa(n)
}

// TestTranslateDiffEscapedOnATerminal: the diff translate prints stays
// byte for byte for git apply (TestTranslateDiffIsNotEscaped), but read
// on a terminal the reply's control characters in it are escaped, as
// in the report, coloured or not (our own colour
// sequences aside).
func TestTranslateDiffEscapedOnATerminal(t *testing.T) {
	t.Parallel()
	r := newRepo(t, map[string]string{"notes.txt": "one\n"})
	reply := r.reply("r.md", "Tidy.\n\n"+block("notes.txt", "one\n", "one\x1b[2J\x07\n"))
	master, name := openPTY(t)
	tty, err := os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening %s: %v", name, err)
	}
	cmd := exec.Command(binary(), "translate", reply)
	cmd.Dir, cmd.Stdout, cmd.Env = r.dir, tty, colorEnv("TERM=xterm")
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err = cmd.Run()
	tty.Close()
	if err != nil {
		t.Fatalf("%v\n%s", err, errb.String())
	}
	// With no one left holding the terminal, reading its master ends
	// (EIO) once what was written is read.
	var got bytes.Buffer
	io.Copy(&got, master)
	out := stripSGR(strings.ReplaceAll(got.String(), "\r\n", "\n"))
	if strings.ContainsAny(out, "\x1b\x07") || !strings.Contains(out, `+one\x1b[2J\x07`) {
		t.Errorf("on a terminal the diff reads:\n%q", out)
	}
}
