package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/hooks/ci/citest"
	"github.com/swarm-guard/swarm-guard/install"
)

func TestRunInstallCI(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	citest.Git(t, root, "init", "-q")
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_STATE_HOME": filepath.Join(t.TempDir(), "state"), "HOME": t.TempDir()}
	path := filepath.Join(root, ".github", "workflows", "swarm-guard.yml")
	install1 := func(force, dryRun bool) (int, string, string) {
		c, stdout, stderr := verifyTestCLI(sub, env)
		code := exitCode(runInstallCI(c, sub, "github", force, dryRun))
		if err := runInstallCI(c, sub, "github", force, true); code == exitOK && err != nil {
			t.Fatalf("a dry run after a successful install failed: %v", err)
		}
		return code, stdout.String(), stderr.String()
	}

	code, out, _ := install1(false, true)
	if code != exitOK || !strings.HasPrefix(out, "would create .github/workflows/swarm-guard.yml: ") {
		t.Fatalf("dry run: exit %d, %q", code, out)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("a dry run must not write the workflow")
	}

	code, out, _ = install1(false, false)
	if code != exitOK || !strings.HasPrefix(out, "create .github/workflows/swarm-guard.yml: ") {
		t.Fatalf("install: exit %d, %q", code, out)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fetch-depth: 0\n", "swarm-guard verify --format github", "go-version: \"1.26.x\"", "/cmd/...@latest\n"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("workflow lacks %q", want)
		}
	}

	if code, out, _ = install1(false, false); code != exitOK || !strings.HasPrefix(out, "unchanged .github/workflows/swarm-guard.yml") {
		t.Fatalf("second install: exit %d, %q", code, out)
	}

	edited := strings.Replace(string(data), "ubuntu-latest", "self-hosted", 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	c, stdout, _ := verifyTestCLI(sub, env)
	err = runInstallCI(c, sub, "github", false, false)
	if exitCode(err) != exitFailure || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("edited workflow: err = %v (exit %d), want exit 1 naming --force; stdout %q", err, exitCode(err), stdout)
	}
	if now, _ := os.ReadFile(path); string(now) != edited {
		t.Fatal("an edited workflow must be kept without --force")
	}

	if code, out, _ = install1(true, false); code != exitOK || !strings.HasPrefix(out, "update .github/workflows/swarm-guard.yml") {
		t.Fatalf("--force: exit %d, %q", code, out)
	}
	if now, _ := os.ReadFile(path); string(now) != string(install.GitHubWorkflow("")) {
		t.Error("--force must write the generated workflow")
	}
	if backup, _ := os.ReadFile(filepath.Join(root, ".git", "swarm-guard", "backup", "workflows-swarm-guard.yml")); string(backup) != edited {
		t.Error("--force must back up the edited workflow in the state directory")
	}
}

func TestRunInstallCIErrors(t *testing.T) {
	t.Parallel()
	c, _, _ := verifyTestCLI(t.TempDir(), nil)
	if err := runInstallCI(c, t.TempDir(), "gitlab", false, false); exitCode(err) != exitBlock || !strings.Contains(err.Error(), "github") {
		t.Errorf("unknown provider: %v", err)
	}
	if err := runInstallCI(c, t.TempDir(), "github", false, false); err == nil || !strings.Contains(err.Error(), "not inside a git repository") {
		t.Errorf("outside a repository: %v", err)
	}
}

func TestReleaseVersion(t *testing.T) {
	for in, want := range map[string]string{"v1.2.3": "v1.2.3", "v0.0.0-20260101000000-abcdefabcdef": "v0.0.0-20260101000000-abcdefabcdef", "devel": "", "devel-0123456789ab": "", "(devel)": ""} {
		if got := releaseVersion(in); got != want {
			t.Errorf("releaseVersion(%q) = %q, want %q", in, got, want)
		}
	}
}
