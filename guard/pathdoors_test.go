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
}

// TestPathDoorsAgree: the Write tool (and an MCP server's path argument,
// which goes through the same CheckPath) and a shell redirect to the same
// path describe the same write effect, so the same rules decide them.
func TestPathDoorsAgree(t *testing.T) {
	eng := New(corpusPolicy())
	for _, p := range doorPaths {
		tool := eng.Check(ToolWrite, ToolInput{FilePath: p}, testEnv())
		shell := eng.CheckCommand("echo x > "+p, testEnv())
		if tool.Rule != shell.Rule || !reflect.DeepEqual(findingRules(tool), findingRules(shell)) {
			t.Errorf("%s: Write %s %v, echo > %s %v", p, tool.Rule, findingRules(tool), shell.Rule, findingRules(shell))
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
