package gitx

import (
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestLocalVarsMatchGit(t *testing.T) {
	out, err := exec.Command("git", "rev-parse", "--local-env-vars").Output()
	if err != nil {
		t.Skip("git not available:", err)
	}
	for _, v := range strings.Fields(string(out)) {
		if !isLocalVar(v) {
			t.Errorf("git lists %s as repository-local; add it to localEnvVars", v)
		}
	}
}

func TestIsolateDropsRepositoryVars(t *testing.T) {
	env := []string{"PATH=/bin", "GIT_DIR=/elsewhere", "GIT_INDEX_FILE=/x", "GIT_CONFIG_KEY_0=a", "GIT_AUTHOR_NAME=n"}
	got := withoutLocalVars(env)
	want := []string{"PATH=/bin", "GIT_AUTHOR_NAME=n"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestRunner(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not available")
	}
	dir := t.TempDir()
	r := Runner{Dir: dir, Isolate: true, Env: []string{"GIT_DIR=/nonexistent", "GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}}
	if _, err := r.Output("init", "-q"); err != nil {
		t.Fatalf("init with a foreign GIT_DIR in the environment: %v", err)
	}
	out, err := r.Output("rev-parse", "--is-inside-work-tree")
	if err != nil || strings.TrimSpace(string(out)) != "true" {
		t.Fatalf("rev-parse: %q, %v", out, err)
	}
	_, err = r.Output("rev-parse", "--verify", "nosuchref")
	var ge *Error
	if !errors.As(err, &ge) || ge.Code != 128 || !strings.HasPrefix(err.Error(), "git rev-parse --verify nosuchref: fatal:") {
		t.Fatalf("err = %v, want an *Error naming the command and git's message", err)
	}
	code, _, err := r.ExitCode("config", "--get", "no.such")
	if err != nil || code != 1 {
		t.Fatalf("ExitCode = %d, %v; want 1", code, err)
	}
}
