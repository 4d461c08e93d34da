package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in dir (ignoring a GIT_DIR the tests set) and returns its
// output, trimmed.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_DIR=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func TestLocateGitHooks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	home := t.TempDir()
	global := filepath.Join(home, "gitconfig")
	os.WriteFile(global, nil, 0o644)
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	// As in a hook of another repository: LocateGitHooks must ignore it.
	t.Setenv("GIT_DIR", "/elsewhere")
	root, _ := filepath.EvalSymlinks(t.TempDir())
	git(t, root, "init", "-q")

	g, err := LocateGitHooks(root)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(root, ".git", "hooks"); g.Dir != want || g.DefaultDir != want || g.HooksPath != "" || g.Refusal != "" {
		t.Fatalf("plain repository: %+v", g)
	}

	tests := []struct {
		scope, value string
		check        func(g *GitHooks) bool
	}{
		{"--local", ".husky/_", func(g *GitHooks) bool { return g.Husky == filepath.Join(root, ".husky") && g.Refusal == "" }},
		{"--local", ".husky", func(g *GitHooks) bool { return g.Husky == filepath.Join(root, ".husky") && g.Dir == g.Husky }},
		{"--local", ".githooks", func(g *GitHooks) bool {
			return g.Dir == filepath.Join(root, ".githooks") && g.Scope == "local" && g.Husky == "" && g.Refusal == "" && len(g.Notes) == 2
		}},
		{"--global", "/shared/hooks", func(g *GitHooks) bool {
			return g.Scope == "global" && strings.Contains(g.Refusal, "git config --local core.hooksPath "+filepath.Join(root, ".git", "hooks"))
		}},
	}
	for _, tt := range tests {
		git(t, root, "config", tt.scope, "core.hooksPath", tt.value)
		g, err := LocateGitHooks(root)
		git(t, root, "config", tt.scope, "--unset", "core.hooksPath")
		if err != nil {
			t.Fatal(err)
		}
		if !tt.check(g) {
			t.Errorf("core.hooksPath %s %s: %+v", tt.scope, tt.value, g)
		}
	}
}
