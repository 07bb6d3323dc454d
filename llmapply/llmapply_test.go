package llmapply

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/git-llm-apply/git-llm-apply/internal/scratch"
)

// TestSurface: no exported declaration of the package names a type of
// the module's inner packages, so that they can move (under internal/)
// and change without changing the API.
func TestSurface(t *testing.T) {
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	inner := map[string]bool{"engine": true, "translate": true, "patch": true, "gitops": true, "session": true, "message": true, "report": true}
	check := func(what string, n ast.Node) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && inner[id.Name] {
					t.Errorf("%s: exported API names %s.%s (%s)", what, id.Name, sel.Sel.Name, fset.Position(sel.Pos()))
				}
			}
			return true
		})
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Name.IsExported() && (d.Recv == nil || ast.IsExported(recvName(d.Recv))) {
					check(d.Name.Name, d.Type)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						if st, ok := s.Type.(*ast.StructType); ok {
							for _, fl := range st.Fields.List {
								if len(fl.Names) == 0 || fl.Names[0].IsExported() {
									check(s.Name.Name, fl.Type)
								}
							}
							continue
						}
						check(s.Name.Name, s.Type)
					case *ast.ValueSpec:
						if s.Names[0].IsExported() {
							check(s.Names[0].Name, s.Type)
						}
					}
				}
			}
		}
	}
}

func recvName(l *ast.FieldList) string {
	t := l.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

const greet = "Greet.\n\nhello.py\n```\n<<<<<<< SEARCH\nhello\n=======\nhello, world\n>>>>>>> REPLACE\n```\n"

// TestDirSourceStaysInside: a symbolic link out of the directory and a
// .git path are not files of the source.
func TestDirSourceStaysInside(t *testing.T) {
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "secret.py"), []byte("hello\n"), 0o644)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "hello.py"), []byte("hello\n"), 0o755)
	os.Symlink(filepath.Join(outside, "secret.py"), filepath.Join(dir, "link.py"))
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	os.Symlink(outside, filepath.Join(dir, "sub", "out"))
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("hello\n"), 0o644)
	src, err := DirSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Resolve(context.Background(), greet, src, Options{})
	if err != nil || !res.OK() || res.Files[0].Mode != ModeExecutable || string(res.Files[0].Content) != "hello, world\n" {
		t.Fatalf("%v %+v", err, res)
	}
	for _, p := range []string{"sub/out/secret.py", ".git/config"} {
		reply := strings.Replace(greet, "hello.py", p, 1)
		res, err := Resolve(context.Background(), reply, src, Options{})
		if err != nil || res.OK() {
			t.Errorf("%s: %v %+v", p, err, res.Report)
		}
	}
	paths, _ := src.src.Paths()
	if strings.Join(paths, " ") != "hello.py link.py sub/out" { // links are files, as git stores them
		t.Errorf("paths %v", paths)
	}
}

func TestOptionsRefused(t *testing.T) {
	src := MapSource(map[string][]byte{"hello.py": []byte("hello\n")})
	for _, o := range []Options{{Format: "nonsense"}, {Fuzz: "very"}, {Limits: &Limits{Edits: -1}}} {
		if _, err := Resolve(context.Background(), greet, src, o); !errors.Is(err, ErrInvalidOption) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	if _, err := Prompt("auto"); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("Prompt(auto): %v", err)
	}
	res, err := Resolve(context.Background(), greet, src, Options{Limits: &Limits{ReplySize: 10}})
	if err != nil || res.OK() || res.Report.Error == "" {
		t.Errorf("over a limit: %v %+v", err, res)
	}
}

// TestRecordAppendsAndUndo: Record appends to the branch it made; a
// branch moved by someone else is neither appended to blindly nor
// moved back.
func TestRecordAppendsAndUndo(t *testing.T) {
	r := scratch.New(t)
	r.Setenv() // Record's identity and config
	git, dir := r.Git, r.Dir
	r.Write("hello.py", "hello\n", 0o644)
	r.Commit("initial")
	repo, err := OpenRepository(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	first, err := repo.Record(ctx, greet, RecordOptions{})
	if err != nil || first.Branch != "llm/greet" || first.Report.Status != "recorded" {
		t.Fatalf("%v %+v", err, first)
	}
	second, err := repo.Record(ctx, strings.NewReplacer("hello, world", "bye", "hello\n", "hello, world\n").Replace(greet), RecordOptions{Branch: "llm/greet"})
	if err != nil || second.Commit == "" || git("rev-parse", "llm/greet^") != first.Commit {
		t.Fatalf("%v %+v", err, second)
	}
	if _, err := repo.Record(ctx, greet, RecordOptions{Branch: "llm/greet", Base: "HEAD"}); !errors.Is(err, ErrInvalidOption) {
		t.Errorf("base for an existing branch: %v", err)
	}
	if _, err := repo.Undo("llm/greet", first.Commit); !errors.Is(err, ErrBranchMoved) {
		t.Errorf("undo from a commit the branch is not at: %v", err)
	}
	parent, err := repo.Undo("llm/greet", second.Commit)
	if err != nil || parent != first.Commit || git("rev-parse", "llm/greet") != first.Commit {
		t.Fatalf("undo: %v %s", err, parent)
	}
	if !strings.HasPrefix(git("reflog", "-1", "--format=%gs", "llm/greet"), "llm-apply: undo ") {
		t.Error("no reflog entry for undo")
	}
	root := git("rev-parse", "main")
	git("branch", "only-root", root)
	if _, err := repo.Undo("only-root", root); !errors.Is(err, ErrRootCommit) {
		t.Errorf("undo of a root commit: %v", err)
	}
	if git("status", "--porcelain") != "" || git("symbolic-ref", "HEAD") != "refs/heads/main" || git("rev-parse", "HEAD") != root {
		t.Error("the checkout changed")
	}
	git("fsck", "--strict")
}
