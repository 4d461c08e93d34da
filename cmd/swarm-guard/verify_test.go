package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/ci"
	"github.com/swarm-guard/swarm-guard/hooks/ci/citest"
	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
)

// envVerifyFakeScanner, set to "1" in a test or script, makes verify use
// citest.PatternScanner instead of the real scan command; set to a path,
// it runs that program as the scan command. Only the test binary knows it.
const envVerifyFakeScanner = "SWARM_GUARD_TEST_FAKE_SCANNER"

func init() {
	real := verifyScanner
	verifyScanner = func(c *cli) (ci.SecretScanner, error) {
		switch v := c.getenv(envVerifyFakeScanner); v {
		case "":
			return real(c)
		case "1":
			return &citest.PatternScanner{}, nil
		default:
			return ci.CommandScanner{Command: []string{v, "scan"}}, nil
		}
	}
	scriptCommands["verify-fakesecret"] = verifyFakeSecretMain
}

// verifyFakeSecretMain is a testscript helper; fake secrets exist only at run
// time, never as literals in a script:
//
//	verify-fakesecret write FILE KEYFILE   append a line with a fake AWS key id to FILE, the key to KEYFILE
//	verify-fakesecret absent KEYFILE FILE  fail if FILE contains the key
func verifyFakeSecretMain() {
	args := os.Args[1:]
	if len(args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: verify-fakesecret write FILE KEYFILE | verify-fakesecret absent KEYFILE FILE")
		os.Exit(2)
	}
	switch args[0] {
	case "write":
		secret := fakesecret.AWSAccessKeyID()
		key := secret.Value
		f, err := os.OpenFile(args[1], os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err == nil {
			_, err = fmt.Fprintln(f, secret.Line)
			f.Close()
		}
		if err == nil {
			err = os.WriteFile(args[2], []byte(key), 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	case "absent":
		key, err1 := os.ReadFile(args[1])
		data, err2 := os.ReadFile(args[2])
		if err1 != nil || err2 != nil || len(key) == 0 {
			fmt.Fprintln(os.Stderr, "verify-fakesecret absent: cannot read", args[1], args[2])
			os.Exit(2)
		}
		if bytes.Contains(data, key) {
			fmt.Fprintf(os.Stderr, "%s contains the secret\n", args[2])
			os.Exit(1)
		}
	default:
		fmt.Fprintln(os.Stderr, "verify-fakesecret: unknown subcommand", args[0])
		os.Exit(2)
	}
}

// verifyTestCLI is a cli for in-process tests: buffers for the streams, env
// from a map.
func verifyTestCLI(dir string, env map[string]string) (*cli, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	c := &cli{
		stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		getenv:     func(k string) string { return env[k] },
		now:        func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		executable: func() (string, error) { return "/nonexistent/swarm-guard", nil },
		workdir:    func() (string, error) { return dir, nil },
	}
	return c, &stdout, &stderr
}

// verifyRepo builds main (also origin/main) and a feature branch with one
// commit that has a trailer and one that does not.
func verifyRepo(t *testing.T) *citest.Repo {
	t.Helper()
	h := &citest.History{}
	base := h.Commit("main", citest.Commit{Message: "base\n\nAgent-Id: human\n", Files: map[string]string{"README.md": "# x\n"}})
	h.Reset("refs/remotes/origin/main", base)
	h.Commit("feature", citest.Commit{Message: "good\n\nAgent-Id: agent-a\n", Parents: []citest.Mark{base}})
	h.Commit("feature", citest.Commit{Message: "bad\n"})
	return citest.Build(t, t.TempDir(), h, "feature")
}

func TestVerifyCommandExitCodes(t *testing.T) {
	t.Parallel()
	repo := verifyRepo(t)
	fake := map[string]string{envVerifyFakeScanner: "1"}
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		code int
		out  string // in stdout
		err  string // in stderr
	}{
		{"violations", nil, fake, exitFailure, `commit ` + verifyShortID(t, repo, "HEAD") + ` "bad": no Agent-Id trailer`, ""},
		{"pass", []string{"--range", "HEAD~2..HEAD~1"}, fake, exitOK, "PASS: 1 commit, agent agent-a", ""},
		{"empty", []string{"--range", "HEAD..HEAD"}, fake, exitOK, "note: the range HEAD..HEAD has no commits; nothing to verify", ""},
		{"min agents", []string{"--range", "HEAD~2..HEAD~1", "--min-agents", "2"}, fake, exitFailure, "at least 2 are required", ""},
		{"skip secrets", []string{"--range", "HEAD~2..HEAD~1", "--skip-secrets"}, nil, exitOK, "note: secrets were not scanned", ""},
		{"bad format", []string{"--format", "xml"}, fake, exitBlock, "", "--format must be one of text, json, github, sarif"},
		{"negative min agents", []string{"--min-agents", "-1"}, fake, exitBlock, "", "--min-agents must be 0 or more"},
		{"stray argument", []string{"HEAD"}, fake, exitBlock, "", "unexpected arguments"},
		{"bad range", []string{"--range", "nope..HEAD"}, fake, exitBlock, "", `the range's base "nope" is not a commit`},
		{"scanner cannot run", nil, map[string]string{envVerifyFakeScanner: "/nonexistent/scanner"}, exitBlock, "", "cannot run the secret scanner"},
		{"bad policy file", []string{"--policy", filepath.Join(repo.Dir, "missing.toml")}, fake, exitBlock, "", "cannot read the policy file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, stdout, stderr := verifyTestCLI(repo.Dir, tc.env)
			code := run(append([]string{"verify"}, tc.args...), c)
			if code != tc.code || !strings.Contains(stdout.String(), tc.out) || !strings.Contains(stderr.String(), tc.err) {
				t.Errorf("exit %d, want %d\nstdout:\n%s\nstderr:\n%s\nwant stdout to contain %q and stderr %q", code, tc.code, stdout, stderr, tc.out, tc.err)
			}
		})
	}
}

func verifyShortID(t *testing.T, repo *citest.Repo, rev string) string {
	return citest.Git(t, repo.Dir, "rev-parse", "--short=7", rev)
}

func TestVerifyGitHubFormatAndStepSummary(t *testing.T) {
	t.Parallel()
	repo := verifyRepo(t)
	summary := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(summary, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, stdout, _ := verifyTestCLI(repo.Dir, map[string]string{envVerifyFakeScanner: "1", "GITHUB_STEP_SUMMARY": summary})
	if code := run([]string{"verify", "--format", "github"}, c); code != exitFailure {
		t.Fatalf("exit %d, want 1\n%s", code, stdout)
	}
	want := fmt.Sprintf("::error title=Agent-Id trailer::commit %s \"bad\": no Agent-Id trailer\n", verifyShortID(t, repo, "HEAD"))
	if !strings.Contains(stdout.String(), want) {
		t.Errorf("stdout lacks %q:\n%s", want, stdout)
	}
	data, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), "earlier step\n## swarm-guard verify failed: 1 violation\n") {
		t.Errorf("the step summary must be appended:\n%s", data)
	}
}

func TestVerifyEnvironmentErrorInGitHubFormat(t *testing.T) {
	t.Parallel()
	repo := verifyRepo(t)
	clone := filepath.Join(t.TempDir(), "shallow")
	citest.Git(t, t.TempDir(), "clone", "-q", "--depth", "1", "--branch", "feature", "file://"+repo.Dir, clone)
	summary := filepath.Join(t.TempDir(), "summary.md")
	c, stdout, stderr := verifyTestCLI(clone, map[string]string{envVerifyFakeScanner: "1", "GITHUB_STEP_SUMMARY": summary})
	if code := run([]string{"verify", "--format", "github"}, c); code != exitBlock {
		t.Fatalf("shallow clone: exit %d, want 2", code)
	}
	if !strings.HasPrefix(stdout.String(), "::error title=swarm-guard verify could not run::this is a shallow clone") ||
		!strings.Contains(stderr.String(), "fetch full history (actions/checkout: fetch-depth: 0") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	}
	if data, _ := os.ReadFile(summary); !strings.Contains(string(data), "## swarm-guard verify could not run") {
		t.Errorf("step summary:\n%s", data)
	}
}

func TestVerifyScannerWithoutScanCommand(t *testing.T) {
	if findCommand("scan") != nil {
		t.Skip("this build has a scan command; the script verify_secrets_real covers it")
	}
	c, _, _ := verifyTestCLI(t.TempDir(), nil)
	real := verifyScannerWithoutOverride
	if _, err := real(c); err == nil || !strings.Contains(err.Error(), "--skip-secrets") {
		t.Errorf("err = %v, want a hint to install both executables or pass --skip-secrets", err)
	}
}

// verifyScannerWithoutOverride is verifyScanner as main.go has it.
var verifyScannerWithoutOverride = verifyScanner

func TestVerifyJSONAndSARIF(t *testing.T) {
	t.Parallel()
	repo := verifyRepo(t)
	for _, format := range []string{"json", "sarif"} {
		c, stdout, _ := verifyTestCLI(repo.Dir, map[string]string{envVerifyFakeScanner: "1"})
		if code := run([]string{"verify", "--format", format}, c); code != exitFailure {
			t.Fatalf("%s: exit %d", format, code)
		}
		if !bytes.HasPrefix(stdout.Bytes(), []byte("{")) || !strings.Contains(stdout.String(), "agent-trailer") {
			t.Errorf("%s output:\n%s", format, stdout)
		}
	}
}
