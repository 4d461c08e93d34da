package githook

import (
	"path/filepath"

	"github.com/swarm-guard/swarm-guard/guard/swarm"
	"github.com/swarm-guard/swarm-guard/hooks/gitrepo"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/policy"
)

// ownership is what the foreign-branch rule needs to know about a push
// (guard/swarm): whether it applies, who the agent is, and which branches
// other worktrees have checked out.
type ownership struct {
	applies    bool
	agent      swarm.Agent
	checkedOut map[string]string // branch -> another worktree that has it checked out
}

// ownershipFacts gathers the engine's branch and tag ownership facts
// (guard/swarm, rule foreign-branch) for the refs a push updates,
// whatever client made the push: an agent's git, an MCP server's, a
// script's. Ownership applies only inside an agent session
// (hookenv.AgentSession: Claude Code's CLAUDECODE=1 or swarm-guard run's
// SWARM_GUARD_RUN); a human at a plain shell owns every branch of the
// swarm and is never stopped by it. A [rules] foreign-branch = "off" turns
// it off here too.
func ownershipFacts(hc *gitHookContext) ownership {
	getenv := hc.c.Getenv
	if !inAgentSession(hc.c) || hc.pol.RuleAction(policy.RuleForeignBranch) == policy.Off {
		return ownership{}
	}
	home := hc.repo
	if dir := hookenv.HomeDir(getenv); dir != "" {
		if r, ok := gitrepo.Find(dir); ok {
			if hc.repo != nil && filepath.Clean(r.CommonDir) != filepath.Clean(hc.repo.CommonDir) {
				// A push from another repository than the session's (a
				// scratch repository, a test fixture): not the swarm's
				// branches. The Bash hook keeps the agent out of other
				// clones of the swarm's repository.
				return ownership{}
			}
			home = r
		}
	}
	agent := swarm.Agent{OwnBranches: hc.pol.Swarm.OwnBranches}
	if home != nil {
		agent.Branch = home.Branch
	}
	agent.HomeBranch = agent.Branch
	if getenv("SWARM_GUARD_RUN") != "" && getenv("SWARM_GUARD_HOME_BRANCH") != "" {
		agent.HomeBranch = getenv("SWARM_GUARD_HOME_BRANCH")
	}
	if id, err := hc.agent(); err == nil {
		agent.ID = id.ID
	}
	checkedOut := map[string]string{}
	if home != nil {
		for _, w := range home.OtherWorktrees() {
			if hookenv.IsolatedUnder(home.Root, w) {
				continue // Claude Code's isolated worktree of this agent
			}
			if r, ok := gitrepo.Find(w); ok && r.Branch != "" && filepath.Clean(r.Root) == filepath.Clean(w) {
				checkedOut[r.Branch] = w
			}
		}
	}
	return ownership{applies: true, agent: agent, checkedOut: checkedOut}
}
