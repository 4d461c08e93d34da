package guard

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/policy"
)

// EnterWorktree (Claude Code's tool) creates a worktree of the agent's own
// by name, or moves the session into an existing one by path.
func TestEnterWorktree(t *testing.T) {
	eng := New(corpusPolicy())
	for _, c := range []struct {
		input string
		want  policy.Action
	}{
		{`{"path": "/work/repo/.worktrees/agent-2"}`, policy.Deny},
		{`{"path": "/work/main/src"}`, policy.Deny},
		{`{"path": ".worktrees/agent-2"}`, policy.Deny},
		{`{"name": "spike"}`, ""},
		{`{}`, ""},
		{`{"path": "/work/repo/.claude/worktrees/spike"}`, ""}, // one the agent created itself
	} {
		in, err := DecodeToolInput([]byte(c.input))
		if err != nil {
			t.Fatal(err)
		}
		d := eng.Check(ToolEnterWorktree, in, testEnv())
		if d.Action != c.want || (c.want != "" && d.Rule != policy.RuleForeignWorktree) {
			t.Errorf("EnterWorktree %s: %q (%s: %s), want %q", c.input, d.Action, d.Rule, d.Reason, c.want)
		}
	}
}

// EnterWorktree by name makes or enters .claude/worktrees/<name> under the
// repository's main worktree: from a linked worktree, the name of another
// agent's isolated worktree there enters theirs.
func TestEnterWorktreeByName(t *testing.T) {
	eng := New(policy.Default())
	env := testEnv()
	env.Root, env.Cwd = "/work/wt/agent-1", "/work/wt/agent-1"
	env.GitDir, env.CommonDir = "/work/main/.git/worktrees/agent-1", "/work/main/.git"
	env.OtherWorktrees = []string{"/work/main", "/work/main/.claude/worktrees/agent-2"}
	for _, c := range []struct {
		input string
		want  policy.Action
	}{
		{`{"name": "agent-2"}`, policy.Deny},
		{`{"name": "spike"}`, ""},
		{`{"name": "../../src"}`, policy.Deny}, // /work/main/src: the main worktree
		{`{}`, ""},
	} {
		in, err := DecodeToolInput([]byte(c.input))
		if err != nil {
			t.Fatal(err)
		}
		d := eng.Check(ToolEnterWorktree, in, env)
		if d.Action != c.want || (c.want != "" && d.Rule != policy.RuleForeignWorktree) {
			t.Errorf("EnterWorktree %s: %q (%s: %s), want %q", c.input, d.Action, d.Rule, d.Reason, c.want)
		}
	}
}
