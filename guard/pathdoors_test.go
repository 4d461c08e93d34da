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

// TestFileToolsReadNotTheClientsEnviron: the Read and Grep tools run in
// Claude Code's own process, so their /proc/self/environ is the client's
// environment with its credentials, and their result is not filtered:
// secret-file. cat of the same path reads the shell's own environment,
// whose printed credentials PostToolUse withholds: allowed.
func TestFileToolsReadNotTheClientsEnviron(t *testing.T) {
	eng := New(corpusPolicy())
	for _, p := range []string{"/proc/self/environ", "/proc/thread-self/environ"} {
		if d := eng.Check(ToolRead, ToolInput{FilePath: p}, testEnv()); d.Rule != "secret-file" {
			t.Errorf("Read %s: %+v", p, d)
		}
		if d := eng.Check(ToolGrep, ToolInput{Path: p, Pattern: "TOKEN"}, testEnv()); d.Rule != "secret-file" {
			t.Errorf("Grep %s: %+v", p, d)
		}
		if d := eng.CheckCommand("cat "+p, testEnv()); d.Action != "" {
			t.Errorf("cat %s: %+v", p, d)
		}
	}
	if d := eng.Check(ToolRead, ToolInput{FilePath: "/proc/self/status"}, testEnv()); d.Action != "" {
		t.Errorf("Read /proc/self/status: %+v", d)
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

// TestSearchDoors: a Grep tool glob and grep --include that can match a
// secret file are the same Search effect, denied in the same words; a
// credential hunt with the Grep or Glob tool is denied outside the
// worktree only.
func TestSearchDoors(t *testing.T) {
	eng := New(corpusPolicy())
	tool := eng.Check(ToolGrep, ToolInput{Pattern: "x", Glob: ".env*"}, testEnv())
	shell := eng.CheckCommand("grep -r --include='.env*' x .", testEnv())
	want := " searches files matching .env*, which includes the secret file /work/repo/.env"
	if tool.Rule != "secret-file" || tool.Reason != "Grep"+want || shell.Rule != "secret-file" || shell.Reason != "grep"+want {
		t.Errorf("Grep glob: %s %q; grep --include: %s %q", tool.Rule, tool.Reason, shell.Rule, shell.Reason)
	}
	for _, c := range []struct {
		tool string
		in   ToolInput
		rule string
	}{
		{ToolGrep, ToolInput{Pattern: "api_key", Path: "/home/agent"}, "secret-file"},
		{ToolGrep, ToolInput{Pattern: "BEGIN RSA PRIVATE", Path: "/work/main"}, "secret-file"},
		{ToolGrep, ToolInput{Pattern: "api_key", Path: "/work/repo/src"}, ""},
		{ToolGrep, ToolInput{Pattern: "func main", Path: "/home/agent"}, ""},
		{ToolGrep, ToolInput{Pattern: "api_key", Path: "/tmp/build"}, ""},
		{ToolGlob, ToolInput{Pattern: "**/id_rsa", Path: "/home/agent"}, "secret-file"},
		{ToolGlob, ToolInput{Pattern: "/home/agent/**/*.pem"}, "secret-file"},
		{ToolGlob, ToolInput{Pattern: "**/*.go", Path: "/home/agent"}, ""},
		{ToolGlob, ToolInput{Pattern: "**/*.pem", Path: "/work/repo"}, ""},
	} {
		if d := eng.Check(c.tool, c.in, testEnv()); d.Rule != c.rule {
			t.Errorf("%s %+v: %q (%s), want %q", c.tool, c.in, d.Rule, d.Reason, c.rule)
		}
	}
}
