package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestWorkflowsPassActionlint runs the real actionlint on both workflows
// install --ci github writes (a release's, using the action, and a
// development build's) when actionlint is installed: on PATH, or where
// `make actionlint` puts it. Otherwise it says so and skips.
func TestWorkflowsPassActionlint(t *testing.T) {
	tool, err := exec.LookPath("actionlint")
	if err != nil {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		tool = filepath.Join(cache, "swarm-guard-dist", "actionlint", "actionlint")
		if !isExecutable(tool) {
			t.Skip("actionlint is not installed (make actionlint installs it); the workflows were not linted")
		}
	}
	dir := t.TempDir()
	wf := filepath.Join(dir, ".github", "workflows")
	if err := os.MkdirAll(wf, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, version := range map[string]string{"release.yml": "v0.3.1", "devel.yml": ""} {
		if err := os.WriteFile(filepath.Join(wf, name), GitHubWorkflow(version), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(tool, "-no-color", filepath.Join(wf, "release.yml"), filepath.Join(wf, "devel.yml"))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("actionlint: %v\n%s", err, out)
	}
}
