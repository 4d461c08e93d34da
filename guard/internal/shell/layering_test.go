package shell

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestShellLayer keeps guard/internal/shell a layer a newcomer can read on its own:
// it imports only the standard library's pure packages, mvdan.cc/sh and
// guard/effect, never package guard or the rest of the engine, and never
// what reaches the world (processes, environment, clock, network, files).
func TestShellLayer(t *testing.T) {
	impure := map[string]bool{"os": true, "os/exec": true, "os/user": true, "time": true, "net": true,
		"net/http": true, "syscall": true, "io/fs": true, "path/filepath": true, "unsafe": true}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range af.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			switch {
			case impure[p]:
				t.Errorf("%s imports %s: the shell layer is pure (the adapter does I/O and passes it in)", f, p)
			case strings.HasPrefix(p, "mvdan.cc/sh/v3/"), p == "github.com/swarm-guard/swarm-guard/guard/effect":
			case strings.Contains(p, "."):
				t.Errorf("%s imports %s: guard/internal/shell may import only the standard library, mvdan.cc/sh and guard/effect", f, p)
			}
		}
		checked++
	}
	if checked < 5 {
		t.Fatalf("checked only %d files", checked)
	}
}
