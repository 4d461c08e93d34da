package rules

import "github.com/swarm-guard/swarm-guard/policy"

// SecretContent: a credential (gitleaks' rules) in what an agent writes
// or commits. It judges content, not a tool call.
var SecretContent = Rule{
	ID:       policy.RuleSecretContent,
	Reason:   "a credential written into a file ends up in commits, logs and other agents' context",
	Instead:  "read the value from the environment or a secret manager at run time; keep fakes in tests generated at test time",
	TestedBy: "hooks/secretscan and hooks/claude (the PostToolUse and pre-commit scans)",
}
