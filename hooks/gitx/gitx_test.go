package gitx

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

func TestStream(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not available")
	}
	dir := t.TempDir()
	r := Runner{Dir: dir, Isolate: true, Env: []string{"GIT_CONFIG_NOSYSTEM=1", "HOME=" + dir}}
	if _, err := r.Output("init", "-q"); err != nil {
		t.Fatal(err)
	}
	var got string
	err := r.Stream(context.Background(), func(out io.Reader) error {
		b, err := io.ReadAll(out)
		got = string(b)
		return err
	}, "rev-parse", "--is-inside-work-tree")
	if err != nil || strings.TrimSpace(got) != "true" {
		t.Fatalf("Stream read %q, %v; want true, nil", got, err)
	}
	// A reader that gives up stops git and its error comes back as it is.
	stop := errors.New("stop")
	err = r.Stream(context.Background(), func(io.Reader) error { return stop }, "cat-file", "--batch")
	if err != stop {
		t.Fatalf("Stream with a failing reader = %v, want the reader's error", err)
	}
	// A git that fails is an *Error naming the command.
	err = r.Stream(context.Background(), func(out io.Reader) error { _, err := io.ReadAll(out); return err }, "log", "nosuchref")
	var ge *Error
	if !errors.As(err, &ge) || ge.Code != 128 || !strings.HasPrefix(err.Error(), "git log nosuchref: fatal:") {
		t.Fatalf("err = %v, want an *Error naming the command and git's message", err)
	}
}

func TestOutputContextEndsWithTheContext(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not available")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Runner{Dir: t.TempDir()}.OutputContext(ctx, "version")
	var ge *Error
	if !errors.As(err, &ge) || ge.Code != -1 || !strings.HasPrefix(err.Error(), "git version: ") {
		t.Fatalf("err = %v, want an *Error with code -1 naming the command", err)
	}
}

// TestOnlyGitxStartsGit keeps one way to run git: every other package
// goes through Runner, so the environment, the context and the errors
// are handled the same everywhere. Tests may start git for their own
// fixtures.
func TestOnlyGitxStartsGit(t *testing.T) {
	starts := regexp.MustCompile(`exec\.Command(Context)?\((ctx, )?"git"`)
	root := filepath.Join("..", "..")
	self := filepath.Join(root, "hooks", "gitx")
	found := false // the pattern still finds gitx's own start of git
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if filepath.Dir(path) == self {
			found = found || starts.Match(data)
			return nil
		}
		if starts.Match(data) {
			t.Errorf("%s starts git itself; run it through gitx.Runner", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatal("the pattern no longer matches how gitx starts git; update it")
	}
}
