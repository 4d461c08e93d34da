package secretscan

import (
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/swarm-guard/swarm-guard"

// goList runs go list in the module root.
func goList(t *testing.T, args ...string) string {
	t.Helper()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := exec.LookPath(goTool); err != nil {
		t.Skipf("no go tool: %v", err)
	}
	cmd := exec.Command(goTool, append([]string{"list", "-e"}, args...)...)
	cmd.Dir = filepath.Join("..", "..")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return string(out)
}

func isGitleaks(pkg string) bool {
	return strings.Contains(pkg, "zricethezav/gitleaks") || strings.Contains(pkg, "github.com/gitleaks/")
}

// TestLightBinaryNeverLinksGitleaks guards the split that keeps the hook
// fast: linking gitleaks costs every process about 3.5 ms of start-up,
// and the Bash PreToolUse hook must stay within 5 ms.
func TestLightBinaryNeverLinksGitleaks(t *testing.T) {
	for _, dep := range strings.Fields(goList(t, "-deps", "./cmd/swarm-guard")) {
		if isGitleaks(dep) || dep == module+"/hooks/secretscan/scanner" {
			t.Errorf("the light swarm-guard binary links %s; only swarm-guard-secrets may", dep)
		}
	}
}

// TestOnlyTheScannerImportsGitleaks keeps gitleaks behind one package.
func TestOnlyTheScannerImportsGitleaks(t *testing.T) {
	out := goList(t, "-f", "{{.ImportPath}}: {{join .Imports \" \"}}", "./...")
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		pkg, imports, _ := strings.Cut(line, ": ")
		if strings.HasPrefix(pkg, module+"/hooks/secretscan/scanner") {
			continue
		}
		for _, imp := range strings.Fields(imports) {
			if isGitleaks(imp) {
				t.Errorf("%s imports %s; only hooks/secretscan/scanner may import gitleaks", pkg, imp)
			}
		}
	}
}

// TestPostBinaryLinksLittle: swarm-guard-post's start-up is the whole
// cost of a PostToolUse after a write-free command, so it links the
// standard library and the few small packages it needs, without
// encoding/json, fmt and reflect (their size and the crypto packages'
// init): no shell parser, policy formats, engine or gitleaks.
func TestPostBinaryLinksLittle(t *testing.T) {
	allowed := map[string]bool{
		module + "/cmd/swarm-guard-post": true, module + "/hooks/secretscan/posthook": true, module + "/hooks/internal/postrecord": true,
		module + "/hooks/secretscan/keywords": true, module + "/hooks/internal/jsonobj": true, module + "/hooks/secretscan/internal/envcreds": true,
	}
	for _, dep := range strings.Fields(goList(t, "-deps", "./cmd/swarm-guard-post")) {
		first, _, _ := strings.Cut(dep, "/")
		switch {
		case allowed[dep]:
		case strings.Contains(first, "."):
			t.Errorf("swarm-guard-post links %s; it may link only the standard library and %v", dep, allowed)
		case strings.HasPrefix(dep, "crypto/") || strings.HasPrefix(dep, "net") || dep == "os/exec" || dep == "encoding/json" || dep == "fmt" || dep == "reflect":
			t.Errorf("swarm-guard-post links %s, whose init or size every PostToolUse would pay for", dep)
		}
	}
}
