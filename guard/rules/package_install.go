package rules

import "github.com/swarm-guard/swarm-guard/policy"

// PackageInstall (G10): a new dependency is a supply-chain decision for a
// human; the project's declared dependencies install freely.
var PackageInstall = Rule{
	ID:      policy.RulePackageInstall,
	Reason:  "a package outside the allowlist is a supply-chain decision for a human",
	Instead: "install what the project already declares, or ask a human to add the package to [packages] in .swarm-guard.toml",
	Deny: []string{
		"npm install left-pad",
		"pip install requests",
		"go install example.com/x@latest",
		"cargo add serde",
		"apt-get install jq",
		"composer require x/y",
		"npx some-random-pkg",
	},
	Allow: []string{
		"npm ci",
		"pip install -r requirements.txt",
		`pip install -e ".[dev]"`,
		"go mod download",
		"npx tsc",
	},
}
