package guard

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/swarm-guard/swarm-guard/guard/packs"
	"github.com/swarm-guard/swarm-guard/policy"
)

// corpusCase is one command with the decision it must get.
//
// Line format (testdata/corpus/*.txt), one case per line:
//
//	deny:force-push :: git push --force
//	allow:force-push :: git push origin feature
//	ask:remote-code :: ...
//
// "deny:R" must be denied by rule R; "allow:R" must get no decision and is
// the safe twin of a rule-R case, listed next to it. Multi-line commands
// live in testdata/corpus/*.txtar: each file's name is the "verdict:rule"
// part, optionally followed by a space and a description.
type corpusCase struct {
	file    string
	line    int
	verdict string // deny, allow, ask
	rule    string
	command string
}

func (c corpusCase) String() string {
	return fmt.Sprintf("%s:%d: %s:%s :: %q", c.file, c.line, c.verdict, c.rule, c.command)
}

func loadCorpus(t testing.TB) []corpusCase {
	t.Helper()
	dir := filepath.Join("..", "testdata", "corpus")
	files, err := filepath.Glob(filepath.Join(dir, "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus in %s: %v", dir, err)
	}
	var cases []corpusCase
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(f)
		switch {
		case strings.HasSuffix(f, ".txt"):
			for i, line := range strings.Split(string(data), "\n") {
				if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
					continue
				}
				head, cmd, ok := strings.Cut(line, " :: ")
				if !ok {
					t.Fatalf("%s:%d: want `verdict:rule :: command`", name, i+1)
				}
				c := parseHead(t, name, i+1, head)
				c.command = cmd
				cases = append(cases, c)
			}
		case strings.HasSuffix(f, ".txtar"):
			ar := txtar.Parse(data)
			for i, af := range ar.Files {
				head, _, _ := strings.Cut(af.Name, " ")
				c := parseHead(t, name, i+1, head)
				c.command = strings.TrimSuffix(string(af.Data), "\n")
				cases = append(cases, c)
			}
		}
	}
	return append(cases, packCases()...)
}

// packCases are the must-deny and must-allow examples kept beside each
// rule of the tool packs (guard/packs), as corpus cases.
func packCases() []corpusCase {
	var cases []corpusCase
	for _, p := range packs.All() {
		for _, r := range p.Rules {
			file := "packs/" + p.Name + ".go:" + r.Name
			for i, cmd := range r.Deny {
				cases = append(cases, corpusCase{file: file, line: i + 1, verdict: "deny", rule: r.ID, command: cmd})
			}
			for i, cmd := range r.Allow {
				cases = append(cases, corpusCase{file: file, line: i + 1, verdict: "allow", rule: r.ID, command: cmd})
			}
		}
	}
	return cases
}

func parseHead(t testing.TB, file string, line int, head string) corpusCase {
	verdict, rule, _ := strings.Cut(strings.TrimSpace(head), ":")
	switch verdict {
	case "deny", "allow", "ask":
	default:
		t.Fatalf("%s:%d: verdict %q is not deny, allow or ask", file, line, verdict)
	}
	if rule != "" && !policy.IsRule(rule) && rule != policy.RuleDynamicCommand && rule != policy.RuleBadInput {
		t.Fatalf("%s:%d: unknown rule %q", file, line, rule)
	}
	return corpusCase{file: file, line: line, verdict: verdict, rule: rule}
}

// testEnv is the world every corpus command runs in: an agent's worktree
// at /work/repo on branch agent-1, home /home/agent, temp /tmp, and a
// sibling agent's worktree nested at /work/repo/.worktrees/agent-2; its
// one remote, origin, is on github.com.
func testEnv() *Env {
	return &Env{
		Cwd: "/work/repo", Root: "/work/repo", Home: "/home/agent", Temp: "/tmp", Branch: "agent-1", AgentID: "w1-aaaa",
		GitDir: "/work/repo/.git", CommonDir: "/work/repo/.git", HooksDirs: []string{"/work/repo/.git/hooks"},
		OtherWorktrees: []string{"/work/repo/.worktrees/agent-2", "/work/main"},
		GuardPaths:     []string{"/usr/local/bin/swarm-guard", "/usr/local/bin/swarm-guard-post", "/usr/local/bin/swarm-guard-secrets"}, // hookenv.GuardExecutables
		Vars:           map[string]string{"USER": "agent"},
		Unset:          map[string]bool{"TMPDIR": true, "XDG_CACHE_HOME": true},
		Remotes:        []string{"git@github.com:swarm/repo.git"},
		Repo:           fakeRepo{},
		ReadFile:       fakeFiles{"/work/repo/package.json": corpusPackageJSON}.read,
	}
}

// corpusPackageJSON is the corpus world's package.json: the tools its
// package runners may run as the project's own copies, no scripts.
const corpusPackageJSON = `{"devDependencies": {"eslint": "^9.0.0", "tsx": "^4.0.0"}}`

// fakeFiles is the corpus world's file contents, for task runners and
// scripts the engine reads; a file not in the map does not exist.
type fakeFiles map[string]string

func (f fakeFiles) read(p string) ([]byte, error) {
	if text, ok := f[p]; ok {
		return []byte(text), nil
	}
	return nil, fs.ErrNotExist
}

// fakeRepo knows the branches main, master, agent-1 and feature, and the
// files the corpus treats as existing.
type fakeRepo struct{}

func (fakeRepo) BranchAt(dir string) (string, bool) {
	switch {
	case strings.HasPrefix(dir, "/work/repo/.worktrees/agent-2"):
		return "agent-2", true
	case strings.HasPrefix(dir, "/work/repo"):
		return "agent-1", true
	case strings.HasPrefix(dir, "/work/main"):
		return "main", true
	}
	return "", false
}

func (fakeRepo) HasBranch(_, name string) bool {
	switch name {
	case "main", "master", "agent-1", "agent-2", "feature", "release":
		return true
	}
	return false
}

func (fakeRepo) Exists(p string) bool {
	// The project's own node tools are installed (npx runs them locally).
	if bin, ok := strings.CutPrefix(p, "/work/repo/node_modules/.bin/"); ok {
		switch bin {
		case "tsc", "eslint", "prettier", "vitest", "jest", "playwright", "prisma", "rimraf", "lefthook", "husky":
			return true
		}
		return false
	}
	return strings.HasPrefix(p, "/work/repo/src") || strings.HasSuffix(p, ".go") || strings.HasSuffix(p, ".md") || strings.HasSuffix(p, "/README")
}

// corpusPolicy is the default policy, except that the corpus agent also
// owns the branches feature, old-feature and release ([swarm] own_branches):
// the older cases push them as the safe twins of force and protected-branch
// pushes. Other agents' branches in the corpus world are agent-2 (checked
// out in /work/repo/.worktrees/agent-2) and agent/other-7f3a.
func corpusPolicy() *policy.Policy {
	p := policy.Default().Clone()
	p.Swarm.OwnBranches = append(p.Swarm.OwnBranches, "feature", "old-feature", "release")
	// Every vendor pack on: their examples run here, and every corpus
	// case that must be allowed must stay allowed with all of them.
	// TestVendorPacksAreOptIn checks the default, with none.
	p.Packs.Enable = []string{policy.PacksAll}
	return p
}

func TestCorpus(t *testing.T) {
	eng := New(corpusPolicy())
	for _, c := range loadCorpus(t) {
		d := eng.CheckCommand(c.command, testEnv())
		got := string(d.Action)
		if got == "" {
			got = "allow"
		}
		if got != c.verdict {
			t.Errorf("%v\n\tgot %s (%s): %s", c, got, d.Rule, d.Reason)
			continue
		}
		if c.verdict != "allow" && c.rule != "" && d.Rule != c.rule {
			t.Errorf("%v\n\tdenied by %s instead: %s", c, d.Rule, d.Reason)
		}
	}
}

// TestCorpusCoversEveryRule: every command rule has must-deny cases and
// safe twins that must stay allowed.
func TestCorpusCoversEveryRule(t *testing.T) {
	deny, allow := map[string]int{}, map[string]int{}
	for _, c := range append(loadCorpus(t), loadMCPCases(t)...) {
		if c.verdict == "allow" {
			allow[c.rule]++
		} else {
			deny[c.rule]++
		}
	}
	const min = 8
	for _, r := range policy.Rules {
		if r.ID == policy.RuleSecretContent || r.ID == policy.RuleBudget {
			continue // not command rules; tested with the scanner and the budgets
		}
		if deny[r.ID] < min || allow[r.ID] < min {
			t.Errorf("rule %s has %d deny and %d allow corpus cases; want at least %d of each", r.ID, deny[r.ID], allow[r.ID], min)
		}
	}
	var total int
	for _, n := range deny {
		total += n
	}
	for _, n := range allow {
		total += n
	}
	if total < 400 {
		t.Errorf("corpus has %d cases, want at least 400", total)
	}
}

// TestCorpusIsRealShell runs bash -n on every command: the corpus must be
// commands bash accepts, except the bad-input cases, which it must reject
// too. Set SWARM_GUARD_REQUIRE_SHELLS=1 to make a missing bash a failure.
func TestCorpusIsRealShell(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("SWARM_GUARD_REQUIRE_SHELLS") != "" {
			t.Fatal("bash is required")
		}
		t.Skip("bash not found")
	}
	cases := loadCorpus(t)
	sort.SliceStable(cases, func(i, j int) bool { return cases[i].file < cases[j].file })
	// One bash process per case, run in parallel batches.
	t.Run("bash-n", func(t *testing.T) {
		for _, c := range cases {
			c := c
			t.Run("", func(t *testing.T) {
				t.Parallel()
				out, err := exec.Command(bash, "-n", "-c", c.command).CombinedOutput()
				// parser-gaps holds valid bash that the guard still refuses.
				wantFail := c.rule == policy.RuleBadInput && !strings.HasPrefix(c.file, "parser-gaps")
				if (err != nil) != wantFail {
					t.Errorf("%v: bash -n says %v: %s", c, err, out)
				}
			})
		}
	})
}

func BenchmarkCheckCommand200(b *testing.B) {
	eng := New(policy.Default())
	env := testEnv()
	cmd := `cd /work/repo && git add -A && git commit -m "feat: parser $(date +%s)" && FOO=bar git push origin HEAD:refs/heads/agent-1 2>&1 | tee /tmp/push.log; echo "rc=${PIPESTATUS[0]}" > /tmp/push-status.txt`
	if len(cmd) < 190 || len(cmd) > 210 {
		b.Fatalf("benchmark command is %d bytes, want about 200", len(cmd))
	}
	b.ReportAllocs()
	for b.Loop() {
		if d := eng.CheckCommand(cmd, env); d.Action != "" {
			b.Fatalf("unexpected decision: %s", d.Message())
		}
	}
}
