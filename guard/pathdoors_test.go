package guard

import (
	"reflect"
	"testing"
)

// doorPaths are places a write can go: inside, temp, devices, home, the
// system, the guard's configuration, other worktrees, git internals.
var doorPaths = []string{
	"/work/repo/src/main.go",
	"/tmp/out.txt",
	"/dev/null",
	"/home/agent/.bashrc",
	"/etc/hosts",
	"/work/repo/.git/hooks/pre-commit",
	"/home/agent/.claude/settings.json",
	"/work/repo/.swarm-guard.toml",
	"/work/repo/.worktrees/agent-2/README.md",
	"/work/main/src/x.go",
	"/work/repo/.git/HEAD",
	"/work/repo/.env",
	"/home/agent/.aws/credentials",
	"/work/repo/.worktrees/agent-2/.env",
}

// TestPathDoorsAgree: the Write and Read tools (and an MCP server's path
// arguments, which go through the same CheckPath) and a shell redirect or
// cat of the same path describe the same effects, so the same rules decide
// them. A secret file in another agent's worktree is secret-file first at
// both doors (the rules' order), then foreign-worktree.
func TestPathDoorsAgree(t *testing.T) {
	eng := New(corpusPolicy())
	for _, p := range doorPaths {
		tool := eng.Check(ToolWrite, ToolInput{FilePath: p}, testEnv())
		shell := eng.CheckCommand("echo x > "+p, testEnv())
		if tool.Rule != shell.Rule || !reflect.DeepEqual(findingRules(tool), findingRules(shell)) {
			t.Errorf("%s: Write %s %v, echo > %s %v", p, tool.Rule, findingRules(tool), shell.Rule, findingRules(shell))
		}
		tool = eng.Check(ToolRead, ToolInput{FilePath: p}, testEnv())
		shell = eng.CheckCommand("cat "+p, testEnv())
		if tool.Rule != shell.Rule || !reflect.DeepEqual(findingRules(tool), findingRules(shell)) {
			t.Errorf("%s: Read %s %v, cat %s %v", p, tool.Rule, findingRules(tool), shell.Rule, findingRules(shell))
		}
	}
}

func findingRules(d Decision) []string {
	var out []string
	for _, f := range d.Findings {
		out = append(out, string(f.Action)+":"+f.Rule)
	}
	return out
}

// BenchmarkCheckWrite decides the Write tool on the door paths.
func BenchmarkCheckWrite(b *testing.B) {
	eng := New(corpusPolicy())
	env := testEnv()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for _, p := range doorPaths {
			eng.Check(ToolWrite, ToolInput{FilePath: p}, env)
		}
	}
}
