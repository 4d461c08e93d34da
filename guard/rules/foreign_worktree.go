package rules

import (
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// ForeignWorktree: other agents' worktrees (and other clones of the
// repository) are read-only for this agent.
var ForeignWorktree = Rule{
	ID:      policy.RuleForeignWorktree,
	Reason:  "the worktree belongs to another agent, whose uncommitted work a change there would break",
	Instead: "leave other agents' worktrees to their owners: read them if you need to, and make your changes in your own worktree (ask the worktree's owner or a human for changes there)",
	Deny: []string{
		"rm -rf /work/main/src",
		"git -C .worktrees/agent-2 commit -am x",
		"cd .worktrees/agent-2 && git commit -am x",
		"git worktree remove .worktrees/agent-2",
		"git worktree prune",
		"EnterWorktree /work/repo/.worktrees/agent-2",
	},
	Allow: []string{
		"cat .worktrees/agent-2/README.md",
		"git -C .worktrees/agent-2 log",
		"git worktree list",
	},
	Judge: judgeForeignWorktree,
}

// ForeignWorktreeInstead is the rule's Instead naming the agent's own
// worktree home ("" leaves it out).
func ForeignWorktreeInstead(home string) string {
	alt := "leave other agents' worktrees to their owners: read them if you need to, and make your changes in your own worktree"
	if home != "" {
		alt += " " + home
	}
	return alt + " (ask the worktree's owner or a human for changes there)"
}

// judgeForeignWorktree denies deleting or writing a path in another
// agent's worktree or another checkout of the repository (reading there is
// fine; writing the guard's configuration is guard-tamper's).
func judgeForeignWorktree(e effect.Effect, f *Facts) []Verdict {
	switch e := e.(type) {
	case effect.Delete:
		if e.Place.Kind == effect.Outside && e.Place.Foreign && !e.Remote && !e.Dynamic {
			return []Verdict{{Reason: e.Tool + " deletes " + e.Place.What, Instead: ForeignWorktreeInstead(f.Root)}}
		}
	case effect.Write:
		if e.Place.Kind == effect.Outside && e.Place.Foreign && !e.Remote && !e.Dynamic && e.Protected == "" {
			return []Verdict{{Reason: e.Verb + " " + e.Place.What, Instead: ForeignWorktreeInstead(f.Root)}}
		}
	}
	return nil
}
