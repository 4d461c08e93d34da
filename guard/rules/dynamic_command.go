package rules

import "github.com/swarm-guard/swarm-guard/policy"

// DynamicCommand: a command whose name is only known at run time cannot
// be checked. The top-level dynamic_commands key sets it (it also accepts
// "allow"), not [rules].
var DynamicCommand = Rule{
	ID:      policy.RuleDynamicCommand,
	Reason:  "a command only known at run time cannot be checked before it runs",
	Instead: "write the command name literally",
	Deny: []string{
		`"$CMD" --force`,
		`$(cat cmd.txt) -rf build`,
	},
	Allow: []string{
		`echo "$CMD"`,
		"git status",
	},
}
