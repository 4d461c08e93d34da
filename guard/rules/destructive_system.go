package rules

import (
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// DestructiveSystem: wiping the crontab, signalling every process,
// shutting the machine down, stopping services, flushing the firewall,
// erasing disks (macOS). The patterns are the system pack's table
// (guard/packs/system.go), and a fork bomb (a shell function that starts
// copies of itself in a pipeline or the background). Writing devices (mkfs, dd of=/dev/sda) and
// recursive chmod/chown outside the worktree are write-outside-worktree.
var DestructiveSystem = Rule{
	ID:      policy.RuleDestructiveSystem,
	Reason:  "the machine, its processes, services and firewall are shared with every other agent and user on it",
	Instead: "stop only the process you started, by its pid; ask a human to change the machine",
	Deny:    []string{"crontab -r", "kill -9 -1", "shutdown -h now", ":(){ :|:& };:", "bomb(){ bomb | bomb & }; bomb"},
	Allow:   []string{"crontab -l", "kill 12345", "f(){ echo hi | cat; }; f", "retry(){ \"$@\" || retry \"$@\"; }; retry make test"},
	Judge:   judgeDestructiveSystem,
}

var judgeSystemPack = judgePackOperation(policy.RuleDestructiveSystem)

// judgeDestructiveSystem judges the system pack's operations and fork
// bombs.
func judgeDestructiveSystem(e effect.Effect, f *Facts) []Verdict {
	if b, ok := e.(effect.ForkBomb); ok {
		return []Verdict{{Reason: "the function " + b.Function + " starts copies of itself in a pipeline or in the background (a fork bomb): processes multiply until the machine has none left for anyone",
			Instead: "run the work once, or in a loop with a bound (for i in 1 2 3; do …; done); never let a function start itself in the background"}}
	}
	return judgeSystemPack(e, f)
}
