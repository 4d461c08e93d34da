package rules

import "github.com/swarm-guard/swarm-guard/policy"

// SecretFile (G7): secret files (.env, keys, ~/.ssh, ~/.aws …) are read
// or written by the tools that need them, not by the agent.
var SecretFile = Rule{
	ID:      policy.RuleSecretFile,
	Reason:  "secret files hold credentials an agent must not read or write",
	Instead: "do not read or write secret files; use .env.example for names and let the environment provide values",
	Deny: []string{
		"cat .env",
		"Read /home/agent/.ssh/id_rsa",
		"grep -r KEY ~/.aws",
		`python -c "open('.env')"`,
		"cp .env /tmp/",
		"find . -name .env | xargs cat",
	},
	Allow: []string{
		"cat .env.example",
		"cat id_rsa.pub",
		"ls -la",
	},
}
