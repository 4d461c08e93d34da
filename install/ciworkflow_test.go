package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// yamlPaths checks the block structure of a YAML file without a YAML
// parser (the module has none) and returns every key as a dotted path,
// "key=value" for scalars; list items add "[]". It accepts the subset the
// workflow uses: comments, "key:", "key: value", "- key: value", with
// two-space indentation, no tabs, no trailing spaces, and a nested block
// indented exactly two more than its key (a list may start at its key's
// own indentation); a "key:" with nothing nested is a null value.
func yamlPaths(text string) ([]string, error) {
	type frame struct {
		indent int
		path   string
	}
	stack := []frame{{indent: -2, path: ""}}
	var paths []string
	keyRE := regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):(?: (.+))?$`)
	openKey := false // the previous line was "key:" and may start a nested block
	for n, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if strings.ContainsRune(line, '\t') || strings.HasSuffix(line, " ") {
			return nil, fmt.Errorf("line %d has a tab or trailing spaces: %q", n+1, line)
		}
		indent := len(line) - len(trimmed)
		if indent%2 != 0 {
			return nil, fmt.Errorf("line %d: odd indentation %d: %q", n+1, indent, line)
		}
		item := strings.HasPrefix(trimmed, "- ")
		if item {
			trimmed = trimmed[2:]
		}
		top := stack[len(stack)-1]
		nested := openKey && (indent == top.indent+2 || item && indent == top.indent)
		if openKey && !nested && indent > top.indent {
			return nil, fmt.Errorf("line %d: a nested block must be indented two more than its key: %q", n+1, line)
		}
		if !nested {
			for len(stack) > 1 && stack[len(stack)-1].indent >= indent {
				stack = stack[:len(stack)-1]
			}
			if top := stack[len(stack)-1]; indent > top.indent+2 && !(item && indent == top.indent) {
				return nil, fmt.Errorf("line %d: unexpected indentation: %q", n+1, line)
			}
		}
		parent := stack[len(stack)-1]
		m := keyRE.FindStringSubmatch(trimmed)
		if m == nil {
			return nil, fmt.Errorf("line %d is not \"key:\" or \"key: value\": %q", n+1, line)
		}
		prefix := parent.path
		keyIndent := indent
		if item {
			prefix += "[]"
			keyIndent = indent + 2
			stack = append(stack, frame{indent: indent, path: prefix})
		}
		path := strings.TrimPrefix(prefix+"."+m[1], ".")
		if m[2] == "" {
			paths = append(paths, path)
			stack = append(stack, frame{indent: keyIndent, path: path})
			openKey = true
			continue
		}
		v := m[2]
		quoted := strings.HasPrefix(v, `"`)
		if i := strings.Index(v, " #"); !quoted && i >= 0 {
			v = v[:i] // a comment, as YAML reads it ("uses: x@<sha> # v4.3.0")
		}
		if quoted && (len(v) < 2 || !strings.HasSuffix(v, `"`)) || !quoted && (strings.Contains(v, ": ") || strings.Contains(v, " #")) {
			return nil, fmt.Errorf("line %d: value needs quoting: %q", n+1, line)
		}
		paths = append(paths, path+"="+v)
		openKey = false
	}
	return paths, nil
}

func TestGitHubWorkflowStructure(t *testing.T) {
	text := string(GitHubWorkflow(""))
	paths, err := yamlPaths(text)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(paths, "\n") + "\n"
	for _, want := range []string{
		"name=swarm-guard",
		"on.pull_request",
		"permissions.contents=read",
		"jobs.verify.runs-on=ubuntu-latest",
		"jobs.verify.steps[].uses=actions/checkout@" + pinCheckout,
		"jobs.verify.steps[].with.fetch-depth=0",
		"jobs.verify.steps[].with.ref=${{ github.event.pull_request.head.sha }}",
		"jobs.verify.steps[].uses=actions/setup-go@" + pinSetupGo,
		`jobs.verify.steps[].with.go-version="1.26.x"`,
		"jobs.verify.steps[].run=go install github.com/swarm-guard/swarm-guard/cmd/...@latest",
		"jobs.verify.steps[].env.BASE_SHA=${{ github.event.pull_request.base.sha }}",
		`jobs.verify.steps[].run=swarm-guard verify --format github --range "$BASE_SHA..$HEAD_SHA"`,
		"jobs.verify.steps[].if=${{ !cancelled() }}",
		`jobs.verify.steps[].run=swarm-guard report --range "$BASE_SHA..$HEAD_SHA"`,
	} {
		if !strings.Contains(got, want+"\n") {
			t.Errorf("workflow lacks %s; it has:\n%s", want, got)
		}
	}
	if strings.Contains(text, "go-version-file") {
		t.Error("the workflow must not take Go from the user's go.mod")
	}
	if !strings.Contains(string(GitHubWorkflow("v1.4.0")), "uses: swarm-guard/swarm-guard@v1.4.0\n") {
		t.Error("a release version must be pinned")
	}
}

func TestYAMLPaths(t *testing.T) {
	for _, bad := range []string{"a:\n   b: 1\n", "a:\n\tb: 1\n", "a:\nb\n", "a:\n      b: 1\n", "a: 1\n  b: 2\n", "a: x: y\n", "a: \"open\n"} {
		if _, err := yamlPaths(bad); err == nil {
			t.Errorf("yamlPaths accepted %q", bad)
		}
	}
	got, err := yamlPaths("a:\n  b:\n  c:\n    - d: 1\n      e: 2\n    - f:\n        g: 3\nh:\n- i: x\n")
	want := "a a.b a.c a.c[].d=1 a.c[].e=2 a.c[].f a.c[].f.g=3 h h[].i=x"
	if err != nil || strings.Join(got, " ") != want {
		t.Errorf("yamlPaths = %q, %v; want %q", got, err, want)
	}
}

func TestGeneratedUnedited(t *testing.T) {
	data := GitHubWorkflow("")
	if !generatedUnedited(data) {
		t.Fatal("a freshly generated workflow must count as unedited")
	}
	edited := strings.Replace(string(data), "ubuntu-latest", "ubuntu-24.04", 1)
	if generatedUnedited([]byte(edited)) {
		t.Error("an edited body must not match its checksum")
	}
	if generatedUnedited([]byte("name: mine\n")) {
		t.Error("a file without the header is not ours")
	}
}

func TestPlanCIWorkflow(t *testing.T) {
	root := t.TempDir()
	state := t.TempDir()
	path := filepath.Join(root, ".github", "workflows", "swarm-guard.yml")
	plan := func(force bool, version string) (Change, error) {
		return PlanCIWorkflow(CIOptions{Root: root, Provider: "github", Version: version, Force: force, StateDir: state})
	}
	apply := func(c Change) {
		t.Helper()
		if err := Apply([]Change{c}); err != nil {
			t.Fatal(err)
		}
	}

	c, err := plan(false, "")
	if err != nil || c.Action != "create" || c.Path != path {
		t.Fatalf("first plan = %+v, %v", c, err)
	}
	apply(c)
	if c, err = plan(false, ""); err != nil || c.Action != "unchanged" {
		t.Fatalf("second plan = %+v, %v; install must be idempotent", c, err)
	}

	// A newer swarm-guard regenerates its own unedited file.
	if c, err = plan(false, "v2.0.0"); err != nil || c.Action != "update" {
		t.Fatalf("plan for another version = %+v, %v", c, err)
	}
	apply(c)

	edited := strings.Replace(string(GitHubWorkflow("v2.0.0")), "timeout-minutes: 15", "timeout-minutes: 30", 1)
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err = plan(false, ""); !errors.Is(err, ErrCIWorkflowEdited) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("edited file: err = %v, want ErrCIWorkflowEdited naming --force", err)
	}
	if data, _ := os.ReadFile(path); string(data) != edited {
		t.Fatal("planning must not touch the edited file")
	}
	c, err = plan(true, "")
	if err != nil || c.Action != "update" || !strings.Contains(c.Summary, "backed up") {
		t.Fatalf("forced plan = %+v, %v", c, err)
	}
	apply(c)
	if data, _ := os.ReadFile(path); string(data) != string(GitHubWorkflow("")) {
		t.Error("--force must replace the file")
	}
	if data, _ := os.ReadFile(filepath.Join(state, "backup", "workflows-swarm-guard.yml")); string(data) != edited {
		t.Error("--force must back up the edited file")
	}

	if _, err := PlanCIWorkflow(CIOptions{Root: root, Provider: "gitlab"}); err == nil || !strings.Contains(err.Error(), "github") {
		t.Errorf("unknown provider: err = %v", err)
	}
	if _, err := PlanCIWorkflow(CIOptions{Provider: "github"}); err == nil {
		t.Error("no root: want an error")
	}
}

func TestPlanCIWorkflowKeepsAForeignFile(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(CIWorkflowPath))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	mine := "name: my own\non: push\n"
	if err := os.WriteFile(path, []byte(mine), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := PlanCIWorkflow(CIOptions{Root: root, Provider: "github"}); !errors.Is(err, ErrCIWorkflowEdited) {
		t.Errorf("a workflow swarm-guard did not write: err = %v", err)
	}
}

// TestGitHubWorkflowForARelease: a release build writes a workflow that
// uses the swarm-guard action at its own tag, pinned by version, and no
// longer builds from source.
func TestGitHubWorkflowForARelease(t *testing.T) {
	got := string(GitHubWorkflow("v0.3.1"))
	for _, want := range []string{"uses: swarm-guard/swarm-guard@v0.3.1\n", "version: v0.3.1\n", "fetch-depth: 0\n", "uses: actions/checkout@" + pinCheckout + " # v4.3.0\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("workflow lacks %q:\n%s", want, got)
		}
	}
	for _, unwanted := range []string{"go install", "@latest", "setup-go"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("workflow still has %q:\n%s", unwanted, got)
		}
	}
	if !generatedUnedited([]byte(got)) {
		t.Fatal("the release workflow does not read back as generated and unedited")
	}
	paths, err := yamlPaths(got)
	if err != nil {
		t.Fatalf("the release workflow is not the YAML it should be: %v", err)
	}
	if !slices.Contains(paths, "jobs.verify.steps[].uses=swarm-guard/swarm-guard@v0.3.1") || !slices.Contains(paths, "jobs.verify.steps[].with.version=v0.3.1") {
		t.Fatalf("the action step is not where GitHub reads it: %q", paths)
	}
}

// The third-party actions swarm-guard's workflows and action.yml use,
// pinned by commit (the tag in a comment): a tag can be moved, a commit
// cannot. Each SHA was checked against the tag in several public
// repositories' workflows.
const (
	pinCheckout    = "08eba0b27e820071cde6df949e0beb9ba4906955" // actions/checkout v4.3.0
	pinSetupGo     = "d35c59abb061a4a6fb18e82ac0862c26744d6ab5" // actions/setup-go v5.5.0
	pinCache       = "0057852bfaa89a56745cba8c7296529d2fc39830" // actions/cache v4.3.0
	pinUploadSARIF = "ff0a06e83cb2de871e5a09832bc6a81e7276941f" // github/codeql-action v3.28.18
)

// TestActionsPinnedByCommit: every uses: of another owner's action in the
// workflows install writes and in action.yml names a full commit SHA and
// the release tag it is, as a comment.
func TestActionsPinnedByCommit(t *testing.T) {
	action, err := os.ReadFile(filepath.Join("..", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]string{"release workflow": string(GitHubWorkflow("v0.3.1")), "devel workflow": string(GitHubWorkflow("")), "action.yml": string(action)}
	usesRE := regexp.MustCompile(`(?m)^\s*(?:- )?uses: (\S+)@(\S+)(.*)$`)
	pinned := regexp.MustCompile(`^[0-9a-f]{40}$`)
	comment := regexp.MustCompile(`^ # v\d+\.\d+\.\d+$`)
	for name, text := range texts {
		found := 0
		for _, m := range usesRE.FindAllStringSubmatch(text, -1) {
			if strings.HasPrefix(m[1], "swarm-guard/") {
				continue // swarm-guard's own action, pinned by release tag
			}
			found++
			if !pinned.MatchString(m[2]) || !comment.MatchString(m[3]) {
				t.Errorf("%s: %s@%s%s is not pinned by commit with its tag as a comment", name, m[1], m[2], m[3])
			}
		}
		if found == 0 {
			t.Errorf("%s: no uses: found", name)
		}
	}
	for _, want := range []string{"actions/cache@" + pinCache + " # v4.3.0", "github/codeql-action/upload-sarif@" + pinUploadSARIF + " # v3.28.18"} {
		if !strings.Contains(string(action), want) {
			t.Errorf("action.yml lacks %s", want)
		}
	}
}
