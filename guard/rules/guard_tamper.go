package rules

import "github.com/swarm-guard/swarm-guard/policy"

// GuardTamper (G4): the git hooks, the Claude Code settings and the policy
// are the guard itself; skipping or editing them switches it off.
var GuardTamper = Rule{
	ID:      policy.RuleGuardTamper,
	Reason:  "the git hooks, the Claude Code settings and the policy are the guard; skipping or changing them switches it off",
	Instead: "leave git hooks, Claude Code settings and the swarm-guard policy alone; ask a human to change them",
	Deny: []string{
		"git commit --no-verify -m x",
		"git -c core.hooksPath=/dev/null commit",
		"rm .git/hooks/pre-commit",
		"echo x > .swarm-guard.toml",
		"Edit /work/repo/.claude/settings.json",
		"SWARM_GUARD_TRUST=1 git push",
		"LEFTHOOK=0 git commit -m x",
	},
	Allow: []string{
		"git commit -m x",
		"cat .swarm-guard.toml",
		"Read /work/repo/.claude/settings.json",
	},
}
