package rules

import "github.com/swarm-guard/swarm-guard/policy"

// WriteOutsideWorktree (G6): writes outside the worktree change the
// machine for every agent and the human (shell profiles, /etc, ~/bin).
var WriteOutsideWorktree = Rule{
	ID:      policy.RuleWriteOutside,
	Reason:  "writing outside the agent's worktree and the temp dir changes the machine for everyone",
	Instead: "write only inside the worktree or under the temp dir; ask a human for anything else",
	Deny: []string{
		"echo x > ~/.bashrc",
		"cp x /etc/",
		"tar -xzf x.tgz -C ~",
		"sort -o ~/.profile x",
		"go build -o ~/bin/app",
		"Write /home/agent/.bashrc",
	},
	Allow: []string{
		"echo x > notes.txt",
		"cp x /tmp/",
		"go build -o bin/app",
		"Write /work/repo/src/main.go",
	},
}
