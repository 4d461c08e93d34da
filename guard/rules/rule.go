package rules

import "github.com/swarm-guard/swarm-guard/policy"

// Rule is one core rule: what it protects, what to do instead, and the
// examples that pin it down.
//
// An example is a Bash command, or another tool call written as the tool
// name and its path: "Read /home/agent/.ssh/id_rsa", "Write <path>",
// "Edit <path>", "Glob <path>", "Grep <pattern> <path>", "WebFetch <url>",
// "EnterWorktree <path>"; or an MCP call: "mcp__server__tool {json input}".
type Rule struct {
	ID      string // the policy rule id: [rules] <id> = "deny" | "ask" | "off"
	Reason  string // why the rule exists, in one sentence
	Instead string // the safe alternative most of its decisions give
	Deny    []string
	Allow   []string
	// TestedBy names where a rule without examples is tested: rules
	// that judge content or usage, not a tool call.
	TestedBy string
	// Judge decides the rule on effects (see judge.go and guard/effect).
	// A rule without one is still judged inside the engine's tool code,
	// not yet moved to effects.
	Judge Judge
}

// Label is the rule's short label in the default policy (G1…G10), or "".
func (r Rule) Label() string { return policy.Info(r.ID).Label }

// Summary is the one-line description policy files and docs show.
func (r Rule) Summary() string { return policy.Info(r.ID).Summary }

// All returns the core rules in documentation order.
func All() []Rule {
	return []Rule{
		ForcePush, ProtectedBranch, DestructiveGit, GuardTamper,
		DeleteOutsideWorktree, WriteOutsideWorktree, SecretFile,
		DestructiveSQL, RemoteCode, PackageInstall,
		SecretContent, Budget,
		ForeignBranch, ForeignWorktree, SecretExfiltration,
		MCPAccess, Oversight, DynamicCommand,
		DestructiveTerraform, DestructiveKubernetes, DestructiveCloud,
		DestructiveContainer, DestructiveDatastore, DestructiveSystem, DestructiveService,
	}
}

// OfToolPacks reports whether the rule is one of the tool packs' rules
// (destructive_terraform.go … destructive_service.go), which judge what
// the packs' tables recognise rather than a check of their own.
func OfToolPacks(id string) bool {
	switch id {
	case policy.RuleDestructiveTerraform, policy.RuleDestructiveKubernetes, policy.RuleDestructiveCloud,
		policy.RuleDestructiveContainer, policy.RuleDestructiveDatastore, policy.RuleDestructiveSystem,
		policy.RuleDestructiveService:
		return true
	}
	return false
}

// ByID returns the rule with that id.
func ByID(id string) (Rule, bool) {
	for _, r := range All() {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}
