package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DestructiveSystem: wiping the crontab, signalling every process,
// shutting the machine down, stopping services, flushing the firewall,
// erasing disks (macOS). The patterns are the system pack's table
// (guard/packs/system.go). Writing devices (mkfs, dd of=/dev/sda) and
// recursive chmod/chown outside the worktree are write-outside-worktree.
var DestructiveSystem = Rule{
	ID:      policy.RuleDestructiveSystem,
	Reason:  "the machine, its processes, services and firewall are shared with every other agent and user on it",
	Instead: "stop only the process you started, by its pid; ask a human to change the machine",
	Deny:    []string{"crontab -r", "kill -9 -1", "shutdown -h now"},
	Allow:   []string{"crontab -l", "kill 12345"},
	Judge:   judgePackOperation(policy.RuleDestructiveSystem),
}
