package guard

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// The real-agent-command corpus (testdata/agent-commands): commands coding
// agents ran in public repositories that committed their transcripts,
// replayed through the engine with the default policy, each in an
// imitation of its own project. See testdata/agent-commands/README.md.
const realCommandsDir = "../testdata/agent-commands"

// The corpus must not shrink below what docs/comparison.md reports on.
const (
	minRealCommands = 1000
	minRealProjects = 20
)

type realCommand struct {
	line       int
	repo, path string
	command    string
}

type realDenial struct {
	line    int
	rule    string
	verdict string // justified or false
	why     string
}

// readRealField decodes a commands.tsv or denials.txt command field: the
// command as is, or, when it spans lines or holds a tab, the JSON string
// after the marker "json:".
func readRealField(field string) (string, error) {
	rest, ok := strings.CutPrefix(field, "json:")
	if !ok {
		return field, nil
	}
	var s string
	err := json.Unmarshal([]byte(rest), &s)
	return s, err
}

func loadRealCommands(t *testing.T) []realCommand {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realCommandsDir, "commands.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var cmds []realCommand
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 3)
		if len(f) != 3 || f[0] == "" || f[1] == "" || f[2] == "" {
			t.Fatalf("commands.tsv:%d: want repository<TAB>path<TAB>command", i+1)
		}
		cmd, err := readRealField(f[2])
		if err != nil {
			t.Fatalf("commands.tsv:%d: %v", i+1, err)
		}
		cmds = append(cmds, realCommand{line: i + 1, repo: f[0], path: f[1], command: cmd})
	}
	return cmds
}

// realProject is a roots.tsv entry: the directory a project's agent worked
// in, as its transcripts show it, and the branches besides main, master,
// develop and agent-1 that its transcripts show exist.
type realProject struct {
	root     string
	branches []string
}

func loadRealRoots(t *testing.T) map[string]realProject {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realCommandsDir, "roots.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	roots := map[string]realProject{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) < 2 || len(f) > 3 || !filepath.IsAbs(f[1]) || filepath.Clean(f[1]) != f[1] {
			t.Fatalf("roots.tsv:%d: want repository<TAB>absolute clean root[<TAB>branch,...]", i+1)
		}
		p := realProject{root: f[1]}
		if len(f) == 3 {
			p.branches = strings.Split(f[2], ",")
		}
		roots[f[0]] = p
	}
	return roots
}

func loadRealDenials(t *testing.T) map[string]realDenial {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(realCommandsDir, "denials.txt"))
	if err != nil {
		t.Fatal(err)
	}
	judged := map[string]realDenial{}
	for i, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.SplitN(line, "\t", 4)
		if len(f) != 4 || (f[1] != "justified" && f[1] != "false") || strings.TrimSpace(f[2]) == "" {
			t.Fatalf("denials.txt:%d: want rule<TAB>justified|false<TAB>why<TAB>command", i+1)
		}
		cmd, err := readRealField(f[3])
		if err != nil {
			t.Fatalf("denials.txt:%d: %v", i+1, err)
		}
		if _, dup := judged[cmd]; dup {
			t.Fatalf("denials.txt:%d: %q is judged twice", i+1, cmd)
		}
		judged[cmd] = realDenial{line: i + 1, rule: f[0], verdict: f[1], why: f[2]}
	}
	return judged
}

// realProjectEnv imitates the project an agent worked in: its worktree at
// root (the path its transcripts show), on a branch of the agent's own,
// with its GitHub repository as origin. Home is the root's user directory
// (/Users/NAME or /home/NAME), else /home/agent. Every path under the root
// exists, and so do the project's usual local node tools; nothing else does.
// Its branches are main, master, develop, agent-1 and those roots.tsv names.
func realProjectEnv(repo string, p realProject) *Env {
	root := p.root
	home := "/home/agent"
	for _, base := range []string{"/Users/", "/home/"} {
		if rest, ok := strings.CutPrefix(root, base); ok {
			user, _, _ := strings.Cut(rest, "/")
			home = base + user
		}
	}
	return &Env{
		Cwd: root, Root: root, Home: home, Temp: "/tmp", Branch: "agent-1", AgentID: "w1-aaaa",
		GitDir: root + "/.git", CommonDir: root + "/.git", HooksDirs: []string{root + "/.git/hooks"},
		GuardPaths: []string{"/usr/local/bin/swarm-guard", "/usr/local/bin/swarm-guard-post", "/usr/local/bin/swarm-guard-secrets"},
		Vars:       map[string]string{"USER": filepath.Base(home)},
		Unset:      map[string]bool{"TMPDIR": true, "XDG_CACHE_HOME": true},
		Remotes:    []string{"git@github.com:" + repo + ".git"},
		Repo:       realProjectRepo{root: root, branches: p.branches},
		ReadFile:   fakeFiles(nil).read,
		PathDirs:   []string{"/usr/local/bin", "/usr/bin", "/bin"},
	}
}

// realProjectRepo answers for an imitated project: its worktree is on
// agent-1, and the files under it exist.
type realProjectRepo struct {
	root     string
	branches []string
}

func (r realProjectRepo) under(p string) bool {
	return p == r.root || strings.HasPrefix(p, r.root+"/")
}

func (r realProjectRepo) BranchAt(dir string) (string, bool) {
	if r.under(dir) {
		return "agent-1", true
	}
	return "", false
}

func (r realProjectRepo) HasBranch(_, name string) bool {
	switch name {
	case "main", "master", "develop", "agent-1":
		return true
	}
	return slices.Contains(r.branches, name)
}

func (r realProjectRepo) Exists(p string) bool {
	if !r.under(p) {
		return false
	}
	if _, bin, ok := strings.Cut(p, "/node_modules/.bin/"); ok {
		switch bin {
		case "tsc", "tsx", "ts-node", "eslint", "prettier", "vitest", "jest", "playwright", "prisma",
			"next", "vite", "drizzle-kit", "turbo", "convex", "expo", "wrangler", "rimraf", "cem":
			return true
		}
		return false
	}
	return true
}

// TestRealAgentCommands replays the real-agent-command corpus and reports
// its deny rate. Every denial must be judged in denials.txt (justified, or
// false with the reason it is kept) with the rule that denies it, and every
// judged denial must still happen: the file stays exact.
func TestRealAgentCommands(t *testing.T) {
	cmds := loadRealCommands(t)
	roots := loadRealRoots(t)
	judged := loadRealDenials(t)
	eng := New(policy.Default())

	seen := map[string]bool{}
	perRepo := map[string]int{}
	denied, falseDenied := 0, 0
	for _, c := range cmds {
		if seen[c.command] {
			t.Errorf("commands.tsv:%d: %q is listed twice", c.line, c.command)
			continue
		}
		seen[c.command] = true
		perRepo[c.repo]++
		project, ok := roots[c.repo]
		if !ok {
			t.Fatalf("commands.tsv:%d: roots.tsv has no root for %s", c.line, c.repo)
		}
		d := eng.CheckCommand(c.command, realProjectEnv(c.repo, project))
		j, ok := judged[c.command]
		switch {
		case d.Action != "" && !ok:
			t.Errorf("commands.tsv:%d (%s): %s denies %q (%s) and denials.txt does not judge it", c.line, c.repo, d.Rule, c.command, d.Reason)
		case d.Action == "" && ok:
			t.Errorf("denials.txt:%d: judges %q as denied by %s; the engine allows it now: remove the entry", j.line, c.command, j.rule)
		case d.Action != "" && j.rule != d.Rule:
			t.Errorf("denials.txt:%d: %q is denied by %s, denials.txt says %s", j.line, c.command, d.Rule, j.rule)
		}
		if d.Action != "" {
			denied++
			if ok && j.verdict == "false" {
				falseDenied++
			}
		}
	}
	for cmd, j := range judged {
		if !seen[cmd] {
			t.Errorf("denials.txt:%d: %q is not in commands.tsv", j.line, cmd)
		}
	}
	if len(seen) < minRealCommands || len(perRepo) < minRealProjects {
		t.Errorf("the corpus has %d distinct commands from %d projects; docs/comparison.md reports on at least %d from %d", len(seen), len(perRepo), minRealCommands, minRealProjects)
	}
	repos := make([]string, 0, len(perRepo))
	for r := range perRepo {
		repos = append(repos, r)
	}
	sort.Strings(repos)
	for _, r := range repos {
		t.Logf("%5d %s", perRepo[r], r)
	}
	pct := func(n int) float64 { return 100 * float64(n) / float64(max(len(seen), 1)) }
	t.Logf("%d distinct commands from %d projects: %d denied (%.1f%%), %d of them judged false (%.1f%%)",
		len(seen), len(perRepo), denied, pct(denied), falseDenied, pct(falseDenied))
}
