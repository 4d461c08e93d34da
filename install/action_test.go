package install

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/fakesecret"
)

// The action's metadata, as much of it as a runner reads to run its steps.
type actionFile struct {
	Inputs map[string]struct {
		Default  string `yaml:"default"`
		Required bool   `yaml:"required"`
	} `yaml:"inputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name  string            `yaml:"name"`
	ID    string            `yaml:"id"`
	If    string            `yaml:"if"`
	Shell string            `yaml:"shell"`
	Run   string            `yaml:"run"`
	Uses  string            `yaml:"uses"`
	Env   map[string]string `yaml:"env"`
}

// actionRun is one run of action.yml's steps the way a GitHub runner runs
// a composite action: each run step as `bash --noprofile --norc -eo
// pipefail` with the runner's files (GITHUB_PATH, GITHUB_OUTPUT) and
// variables, expressions replaced from the inputs and the event. Steps
// that use other actions (the cache, the SARIF upload) are GitHub's own
// and are skipped: the cache always misses, as on a first run.
type actionRun struct {
	t        *testing.T
	dir      string // the checked-out repository
	toolsDir string // the runner's tool cache
	inputs   map[string]string
	base     string // the pull request's base and head commits
	head     string
}

// expression is a GitHub Actions ${{ ... }} expression.
var expression = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// run runs every step and returns the failing step's name ("" when all
// passed), the output of the steps and the step outputs they set.
func (r *actionRun) run(action actionFile) (failed, output string, outputs map[string]string) {
	r.t.Helper()
	runnerDir := r.t.TempDir()
	pathFile, outFile := filepath.Join(runnerDir, "path"), filepath.Join(runnerDir, "output")
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	osName := map[string]string{"linux": "Linux", "darwin": "macOS"}[runtime.GOOS]
	context := map[string]string{
		"runner.tool_cache":                  r.toolsDir,
		"github.event.pull_request.base.sha": r.base,
		"github.event.pull_request.head.sha": r.head,
	}
	for name, in := range action.Inputs {
		v, ok := r.inputs[name]
		if !ok {
			if in.Required {
				r.t.Fatalf("input %s is required", name)
			}
			v = in.Default
		}
		context["inputs."+name] = v
	}
	expand := func(s string) string {
		return expression.ReplaceAllStringFunc(s, func(e string) string {
			key := expression.FindStringSubmatch(e)[1]
			v, ok := context[key]
			if !ok {
				r.t.Fatalf("action.yml uses %s, which this test does not provide: add it to the test's context", e)
			}
			return v
		})
	}
	// A minimal PATH, so that the swarm-guard the steps run can only be
	// the one the install step put in the tool cache.
	basePath := "/usr/local/bin:/usr/bin:/bin"
	var out bytes.Buffer
	for i, st := range action.Runs.Steps {
		if st.Uses != "" {
			continue
		}
		switch st.If {
		case "", "steps.cache.outputs.cache-hit != 'true'":
		default:
			r.t.Fatalf("step %d (%s): this test does not know the condition %q", i, st.Name, st.If)
		}
		if st.Shell != "bash" {
			r.t.Fatalf("step %d (%s): shell %q, want bash (the runner's default elsewhere is sh)", i, st.Name, st.Shell)
		}
		script := filepath.Join(runnerDir, "step.sh")
		if err := os.WriteFile(script, []byte(expand(st.Run)), 0o644); err != nil {
			r.t.Fatal(err)
		}
		added, _ := os.ReadFile(pathFile)
		path := basePath
		for _, p := range strings.Split(strings.TrimSpace(string(added)), "\n") {
			if p != "" {
				path = p + ":" + path
			}
		}
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Dir = r.dir
		cmd.Env = []string{
			"PATH=" + path, "HOME=" + os.Getenv("HOME"), "TMPDIR=" + runnerDir,
			"GITHUB_PATH=" + pathFile, "GITHUB_OUTPUT=" + outFile,
			"RUNNER_OS=" + osName, "RUNNER_ARCH=" + arch, "RUNNER_TOOL_CACHE=" + r.toolsDir,
			"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		}
		for k, v := range st.Env {
			cmd.Env = append(cmd.Env, k+"="+expand(v))
		}
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return st.Name, out.String(), readOutputs(outFile)
		}
	}
	return "", out.String(), readOutputs(outFile)
}

func readOutputs(file string) map[string]string {
	data, _ := os.ReadFile(file)
	outputs := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outputs[k] = v
		}
	}
	return outputs
}

// TestActionInstallsAndVerifies runs action.yml's own steps against a
// release of this checkout that `make action-test` builds for this machine
// (SWARM_GUARD_ACTION_RELEASES/<version>/ holds the archive and
// checksums.txt, served through the action's download-url input): the
// release is installed after its checksum is checked, and verify passes a
// clean pull request and fails one that adds a secret. Without such a
// release it says so and skips.
func TestActionInstallsAndVerifies(t *testing.T) {
	releases, version := os.Getenv("SWARM_GUARD_ACTION_RELEASES"), os.Getenv("SWARM_GUARD_ACTION_VERSION")
	if releases == "" || version == "" {
		t.Skip("no release to install (make action-test builds one); the action's steps were not run")
	}
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl is not installed; the action's install step needs it")
	}
	data, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action actionFile
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("action.yml runs using %q, want composite", action.Runs.Using)
	}

	// A pull request: a base commit on main and an agent's commit on top.
	repo := t.TempDir()
	for k, v := range map[string]string{"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.DevNull,
		"GIT_AUTHOR_NAME": "Agent", "GIT_AUTHOR_EMAIL": "agent@example.com",
		"GIT_COMMITTER_NAME": "Agent", "GIT_COMMITTER_EMAIL": "agent@example.com"} {
		t.Setenv(k, v)
	}
	git(t, repo, "init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(repo, "main.go"), []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "base")
	base := git(t, repo, "rev-parse", "HEAD")
	if err := os.WriteFile(filepath.Join(repo, "util.go"), []byte("package main\n\nfunc add(a, b int) int { return a + b }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "add util", "--trailer", "Agent-Id: w1-aaaa")
	clean := git(t, repo, "rev-parse", "HEAD")
	secret := fakesecret.GitHubPAT()
	if err := os.WriteFile(filepath.Join(repo, "config.go"), []byte("package main\n\nfunc token() string {\n\t"+secret.Line+"\n\treturn token\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "add config", "--trailer", "Agent-Id: w1-aaaa")
	leaky := git(t, repo, "rev-parse", "HEAD")

	newRun := func(head string, inputs map[string]string) *actionRun {
		in := map[string]string{"version": version, "download-url": "file://" + releases}
		for k, v := range inputs {
			in[k] = v
		}
		return &actionRun{t: t, dir: repo, toolsDir: t.TempDir(), inputs: in, base: base, head: head}
	}

	t.Run("clean pull request passes", func(t *testing.T) {
		failed, out, _ := newRun(clean, nil).run(action)
		t.Logf("the action's output:\n%s", out)
		if failed != "" {
			t.Fatalf("step %q failed:\n%s", failed, out)
		}
		for _, want := range []string{"OK", version, "PASS: 1 commit, agent w1-aaaa"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("a secret fails it with an annotation and SARIF", func(t *testing.T) {
		r := newRun(leaky, map[string]string{"sarif": "true"})
		failed, out, outputs := r.run(action)
		if !strings.HasPrefix(failed, "Verify") {
			t.Fatalf("want the verify step to fail, got %q:\n%s", failed, out)
		}
		if !strings.Contains(out, "::error") || !strings.Contains(out, "github-pat") {
			t.Errorf("no annotation naming the rule:\n%s", out)
		}
		if strings.Contains(out, secret.Value) {
			t.Errorf("the secret itself is in the output")
		}
		sarif, err := os.ReadFile(filepath.Join(repo, outputs["sarif-file"]))
		if err != nil || !bytes.Contains(sarif, []byte(`"github-pat"`)) {
			t.Errorf("sarif-file output %q: %v\n%s", outputs["sarif-file"], err, sarif)
		}
		os.Remove(filepath.Join(repo, outputs["sarif-file"]))
	})

	t.Run("a tampered archive is not installed", func(t *testing.T) {
		mirror := t.TempDir()
		src, dst := filepath.Join(releases, version), filepath.Join(mirror, version)
		if err := os.MkdirAll(dst, 0o755); err != nil {
			t.Fatal(err)
		}
		entries, err := os.ReadDir(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if e.IsDir() {
				continue
			}
			b, err := os.ReadFile(filepath.Join(src, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if strings.HasSuffix(e.Name(), ".tar.gz") {
				b = append(b, 0) // one byte more: another checksum
			}
			if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r := newRun(clean, map[string]string{"download-url": "file://" + mirror})
		failed, out, _ := r.run(action)
		if !strings.HasPrefix(failed, "Install") || !strings.Contains(out, "FAILED") {
			t.Fatalf("want the install step to fail its checksum check, got %q:\n%s", failed, out)
		}
		if _, err := os.Stat(filepath.Join(r.toolsDir, "swarm-guard", version, "swarm-guard")); err == nil {
			t.Errorf("the tampered binary was installed")
		}
	})
}
