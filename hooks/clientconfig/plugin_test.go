package clientconfig

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

var updatePlugin = flag.Bool("update-plugin", false, "rewrite hooks/hooks.json from PluginHooksJSON")

// TestPluginHooksFileIsGenerated: hooks/hooks.json at the repository root
// (the Claude Code plugin's hooks) is exactly what PluginHooksJSON makes,
// so the plugin and install use the same launcher.
func TestPluginHooksFileIsGenerated(t *testing.T) {
	got, err := os.ReadFile(filepath.Join("..", "hooks.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := PluginHooksJSON()
	if *updatePlugin {
		if err := os.WriteFile(filepath.Join("..", "hooks.json"), want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("hooks/hooks.json is out of date; regenerate it: go test ./hooks/clientconfig -run TestPluginHooksFileIsGenerated -update-plugin")
	}
}

// TestPluginValidates runs the real client's `claude plugin validate` on
// the repository root when a client is installed (make e2e installs one);
// otherwise it says so and skips.
func TestPluginValidates(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	claude := os.Getenv("SWARM_GUARD_CLAUDE")
	if claude == "" {
		cache := os.Getenv("XDG_CACHE_HOME")
		if cache == "" {
			home, _ := os.UserHomeDir()
			cache = filepath.Join(home, ".cache")
		}
		matches, _ := filepath.Glob(filepath.Join(cache, "swarm-guard-e2e", "claude-code-*", "node_modules", "@anthropic-ai", "claude-code-*", "claude"))
		if len(matches) > 0 {
			claude = matches[len(matches)-1]
		}
	}
	if claude == "" {
		t.Skip("no Claude Code client installed (make e2e installs one, or set SWARM_GUARD_CLAUDE); claude plugin validate not run")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	for _, target := range []string{root, filepath.Join(root, ".claude-plugin", "marketplace.json")} {
		cmd := exec.Command(claude, "plugin", "validate", target)
		cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("Validation passed")) {
			t.Fatalf("claude plugin validate %s: %v\n%s", target, err, out)
		}
	}
}
