package guard

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/internal/shell"
)

// TestEngineIsPure keeps the engine (guard/... and policy) free of the
// packages that reach the world: processes, the environment, the clock and
// the network. Adapters (hooks/, install/, cmd/) do I/O and pass what the
// engine needs in Env. policy reads its file with os, in Load only: the
// one allowed exception, named here.
func TestEngineIsPure(t *testing.T) {
	forbidden := map[string]bool{"os": true, "os/exec": true, "net": true, "net/http": true, "syscall": true, "os/user": true}
	// time's types (Time, Duration) are data; its clock is not.
	clock := map[string]bool{"Now": true, "Since": true, "Until": true, "Sleep": true, "After": true, "Tick": true,
		"NewTimer": true, "NewTicker": true, "AfterFunc": true}
	allowed := map[string]bool{
		filepath.Join("..", "policy", "parse.go"): true, // Load/LoadFile read the policy file
	}
	var dirs []string
	for _, root := range []string{".", filepath.Join("..", "policy")} {
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() != "testdata" {
				dirs = append(dirs, p)
			}
			return nil
		})
	}
	checked := 0
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") || strings.Contains(f, "internal") || allowed[f] {
				continue
			}
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(af, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok {
					if id, ok := sel.X.(*ast.Ident); ok && id.Name == "time" && clock[sel.Sel.Name] {
						t.Errorf("%s calls time.%s: the engine must not read the clock (pass times in from the adapter)", f, sel.Sel.Name)
					}
				}
				return true
			})
			for _, imp := range af.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if forbidden[path] {
					t.Errorf("%s imports %s: the engine must stay pure (do I/O in hooks/, install/ or cmd/ and pass it in Env)", f, path)
				}
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("checked only %d files", checked)
	}
}

// TestShellLimits keeps the shell layer's cap on an expanded word equal to
// the longest command the engine accepts: expansion may not make a word
// longer than a command could be written.
func TestShellLimits(t *testing.T) {
	if shell.MaxValueBytes != MaxCommandBytes {
		t.Fatalf("shell.MaxValueBytes = %d, MaxCommandBytes = %d: keep them equal", shell.MaxValueBytes, MaxCommandBytes)
	}
}
