package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/git-llm-apply/git-llm-apply/internal/gitops"
	"github.com/git-llm-apply/git-llm-apply/internal/shquote"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// checkAttr is the gitattributes attribute that exempts a path:
// "-llm-apply-check" or "llm-apply-check=false".
const checkAttr = "llm-apply-check"

// binaryProbe is how much of a file git looks at for a NUL byte to
// call it binary (FIRST_FEW_BYTES in git's xdiff-interface.c).
const binaryProbe = 8000

type hookInstallOptions struct {
	Dir    string // where the command runs (commonOptions.Dir)
	DirArg string // -C as given
	Force  bool
	Print  bool
	Quiet  bool
}

type hookRunOptions struct {
	Dir, DirArg string // as in hookInstallOptions
}

func hookCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "hook",
		Usage: "install or run the pre-commit hook that refuses the debris of pasted model replies",
		Description: `git llm-apply hook install writes a pre-commit hook that runs
git llm-apply hook run, which fails the commit when a staged file holds
what a model reply pasted by hand leaves behind: unapplied edit markers of
any supported format (<<<<<<< SEARCH, >>>>>>> REPLACE, <<<<<<< EDIT,
<<<FIUP>>>, <FILE_CHANGES>, *** Begin Patch, ...) or elision placeholders
standing where code should be (// ... existing code ...).

To commit files meant to hold such text (docs or fixtures about these
formats), mark them in .gitattributes:

    testdata/** -llm-apply-check
    docs/*.md   llm-apply-check=false

The hook also ships for the pre-commit framework, as the hook id
llm-apply-check of this repository's .pre-commit-hooks.yaml.`,
		Commands:     []*cli.Command{hookInstallCommand(s), hookRunCommand(s)},
		OnUsageError: usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return unknownCommand(cmd.Lineage(), cmd.Args().First())
			}
			return &flagError{err: errors.New("hook needs a command: install or run"), at: cmd.Lineage(), usage: true}
		},
	}
}

func hookInstallCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "install",
		Usage: "write the pre-commit hook into the repository",
		Description: `Writes the pre-commit hook into the directory git runs hooks from:
core.hooksPath when set, else .git/hooks (shared by linked worktrees).
The hook is a short sh script running git-llm-apply hook run by the
absolute path of this binary, recorded now, or else from PATH (a commit
started from a GUI client or an IDE often has another PATH than your
shell). A hook installed earlier, by this or an older version, is
updated.

An existing pre-commit hook that is not this one is left alone, with exit
status 2, unless --force replaces it; to keep it, add to it the line
the error gives, which runs this binary by its path. --print prints the
script to standard output and writes nothing.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "force", Aliases: []string{"f"}, Usage: "replace an existing pre-commit hook"},
			&cli.BoolFlag{Name: "print", Usage: "print the hook script instead of writing it"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only errors"},
		},
		OnUsageError: usageOnError,
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usageError("hook install takes no arguments")
			}
			o := hookInstallOptions{Force: cmd.Bool("force"), Print: cmd.Bool("print"), Quiet: cmd.Bool("quiet")}
			o.Dir, o.DirArg = startOf(cmd)
			return runHookInstall(o, s)
		},
	}
}

func hookRunCommand(s streams) *cli.Command {
	return &cli.Command{
		Name:  "run",
		Usage: "check the staged files for the debris of pasted model replies",
		Description: `Reads every file staged for the next commit (the index, not the working
tree), added or changed relative to HEAD, and prints one line per finding
on standard error:

    path:line: found <what>

Binary files (a NUL byte in the first 8000 bytes), symbolic links,
submodules and paths whose llm-apply-check attribute is unset
(-llm-apply-check) or false (llm-apply-check=false) in the staged
.gitattributes are skipped.

Exit status: 0 nothing found, 1 something found, 2 bad usage or no
repository.`,
		OnUsageError: usageOnError,
		Action: func(ctx context.Context, cmd *cli.Command) error {
			if cmd.Args().Len() > 0 {
				return usageError("hook run takes no arguments: it reads the staged files")
			}
			var o hookRunOptions
			o.Dir, o.DirArg = startOf(cmd)
			return runHookRun(ctx, o, s)
		},
	}
}

func runHookInstall(o hookInstallOptions, s streams) error {
	exe, err := hookBinary()
	if err != nil {
		return fmt.Errorf("cannot tell where this binary is, for the hook to run it: %w", err)
	}
	script := hookScript(exe)
	if o.Print {
		_, err := fmt.Fprint(s.out, script)
		return err
	}
	repo, err := openRepo(o.Dir, o.DirArg)
	if err != nil {
		return err
	}
	dir, err := repo.HooksDir()
	if err != nil {
		return err
	}
	say := func(format string, args ...any) {
		if !o.Quiet {
			fmt.Fprintf(s.err, format, args...)
		}
	}
	path := filepath.Join(dir, "pre-commit")
	old, err := gitops.ReadHook(path)
	installed := "installed"
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	case bytes.Equal(old, []byte(script)):
		if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o111 == 0 {
			// git skips a hook it cannot execute, with only a hint.
			if err := os.Chmod(path, fi.Mode().Perm()|0o755); err != nil {
				return err
			}
			say("the pre-commit hook at %s is installed; made it executable\n", path)
			return nil
		}
		say("the pre-commit hook at %s is already installed\n", path)
		return nil
	case ownHook(string(old)):
		installed = "updated" // an older version's, or another binary's
	case !o.Force:
		return usageError("%s already exists and is another hook: replace it with git llm-apply hook install --force, "+
			"or add the line %s hook run to it", path, shquote.Quote(exe))
	}
	if err := writeExecutable(path, []byte(script)); err != nil {
		return err
	}
	say("%s the pre-commit hook at %s (it runs %s)\n", installed, path, exe)
	return nil
}

// writeExecutable replaces path with an executable file holding data,
// through a temporary file renamed over it, so that a commit starting
// meanwhile never runs half a script.
func writeExecutable(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".pre-commit-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr, os.Chmod(f.Name(), 0o755)); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

func runHookRun(ctx context.Context, o hookRunOptions, s streams) error {
	repo, err := openRepo(o.Dir, o.DirArg)
	if err != nil {
		return err
	}
	// A signal stops the git children (diff-index, check-attr) and the
	// check, which writes nothing: exit 130 (SPEC section 2).
	defer interruptible(ctx)()
	interrupted := func(err error) error {
		if ctx.Err() != nil {
			return fmt.Errorf("%w: the staged files were not checked", errInterrupted)
		}
		return err
	}
	files, err := repo.StagedFiles(ctx)
	if err != nil {
		return interrupted(err)
	}
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.Path
	}
	attrs, err := repo.CheckAttr(ctx, checkAttr, paths)
	if err != nil {
		return interrupted(err)
	}
	lines, inFiles := 0, 0
	for _, f := range files {
		if exempt(attrs[f.Path]) {
			continue
		}
		found, err := debrisIn(f)
		if err != nil {
			return err
		}
		for _, d := range found {
			fmt.Fprintf(s.err, "%s:%d: found %s\n", displayPath(f.Path), d.Line, d.What)
		}
		if len(found) > 0 {
			lines += len(found)
			inFiles++
		}
	}
	if lines == 0 {
		return nil
	}
	return &debrisError{findings: lines, files: inFiles}
}

// debrisError fails the commit hook run checks (exit 1): staged files
// hold the debris of a pasted model reply, each finding printed above.
type debrisError struct{ findings, files int }

func (e *debrisError) Error() string {
	return fmt.Sprintf("%s in %s: remove the debris of the pasted model reply and git add the files again, "+
		"mark files meant to hold such text with %s=false in .gitattributes, or commit anyway with git commit --no-verify",
		plural(e.findings, "finding", "findings"), plural(e.files, "staged file", "staged files"), checkAttr)
}

// exempt reports whether the llm-apply-check attribute's value, as
// git check-attr prints it, turns the check off.
func exempt(value string) bool {
	return value == "unset" || value == "false"
}

// debrisIn reads a staged file and finds its debris; nothing for a
// binary file.
func debrisIn(f gitops.StagedFile) ([]translate.Debris, error) {
	data, err := f.Read()
	if err != nil {
		return nil, err
	}
	if bytes.IndexByte(data[:min(len(data), binaryProbe)], 0) >= 0 {
		return nil, nil
	}
	return translate.FindDebris(string(data)), nil
}
