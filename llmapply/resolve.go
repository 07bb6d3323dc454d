package llmapply

import (
	"context"
	"errors"
	"strings"

	"github.com/git-llm-apply/git-llm-apply/internal/engine"
	"github.com/git-llm-apply/git-llm-apply/internal/translate"
)

// Reply is a reply as read, before its edits meet any file.
type Reply struct {
	Format      string
	Description string
	Edits       []Edit
	// Shell holds the reply's shell blocks, never run.
	Shell []ShellBlock
}

// Edit is one operation of a reply.
type Edit struct {
	Op        string // replace, insert, delete, create, write, rename, ...
	Path      string
	NewPath   string // of a rename
	ReplyLine int
}

// Parse reads reply (its format recognised unless opts.Format names
// one) without looking at any file. A reply in which no edit is found
// is an error.
func Parse(reply string, opts Options) (*Reply, error) {
	ro, err := opts.engineOptions()
	if err != nil {
		return nil, err
	}
	r, err := translate.Parse(reply, translate.ParseOptions{Format: ro.Format, ShellOps: ro.ShellOps, Partial: ro.Partial})
	if err != nil {
		return nil, err
	}
	out := &Reply{Format: r.Format}
	out.Description, _ = translate.Describe(r)
	for _, op := range r.Ops {
		out.Edits = append(out.Edits, Edit{Op: engine.OpName(op), Path: op.Path, NewPath: op.NewPath, ReplyLine: op.Line})
	}
	for _, f := range r.Failed {
		out.Edits = append(out.Edits, Edit{Op: "invalid", Path: f.Path, ReplyLine: f.Line})
	}
	for _, s := range r.Shell {
		out.Shell = append(out.Shell, ShellBlock{ReplyLine: s.Line, Text: s.Text})
	}
	return out, nil
}

// Resolve reads reply and resolves its edits against src, writing
// nothing: the Result holds the new contents, the diff and the report.
// A reply that cannot be read or whose edits fail is not an error:
// Result.OK says so and Result.Report says why. The error is for what
// stops the work: an invalid option, an unreadable source, the end of
// ctx.
func Resolve(ctx context.Context, reply string, src *Source, opts Options) (*Result, error) {
	ro, err := opts.engineOptions()
	if err != nil {
		return nil, err
	}
	if src == nil || src.src == nil {
		return nil, errors.New("Resolve needs a source")
	}
	if src.repo != nil {
		ro.Patch = src.repo.patch
	}
	return runOne(ctx, engine.Input{Source: "reply", Text: reply}, src.src, nil, ro, "")
}

// runOne runs the engine over one reply.
func runOne(ctx context.Context, in engine.Input, src engine.Source, rec engine.Recorder, ro engine.RunOptions, branch string) (*Result, error) {
	results, err := engine.Run(ctx, []engine.Input{in}, src, rec, ro)
	if err != nil {
		return nil, err
	}
	return newResult(results[0], branch), nil
}

// describe is the description and paths of reply, for a branch name.
func describe(reply string, ro engine.RunOptions) (string, []string) {
	r, _ := translate.Parse(reply, translate.ParseOptions{Format: ro.Format, ShellOps: ro.ShellOps, Partial: ro.Partial})
	if r == nil {
		return "", nil
	}
	subject, _ := translate.Describe(r)
	var paths []string
	for _, op := range r.Ops {
		paths = append(paths, op.Path)
	}
	return strings.TrimSpace(subject), paths
}
