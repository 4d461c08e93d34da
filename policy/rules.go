package policy

// Rule ids. The engine reports them in every decision, the audit log records
// them, and the [rules] table of a policy file is keyed by them.
const (
	RuleForcePush       = "force-push"              // G1
	RuleProtectedBranch = "protected-branch"        // G2
	RuleDestructiveGit  = "destructive-git"         // G3
	RuleGuardTamper     = "guard-tamper"            // G4
	RuleDeleteOutside   = "delete-outside-worktree" // G5
	RuleWriteOutside    = "write-outside-worktree"  // G6
	RuleSecretFile      = "secret-file"             // G7
	RuleDestructiveSQL  = "destructive-sql"         // G8
	RuleRemoteCode      = "remote-code"             // G9
	RulePackageInstall  = "package-install"         // G10
	RuleSecretContent   = "secret-content"
	RuleBudget          = "budget"
	RuleForeignBranch   = "foreign-branch"   // pushing, deleting or moving another agent's branch or a tag
	RuleForeignWorktree = "foreign-worktree" // changing another agent's worktree

	// Rules of the tool packs (guard/packs): one per family of tools.
	RuleDestructiveTerraform  = "destructive-terraform"
	RuleDestructiveKubernetes = "destructive-kubernetes"
	RuleDestructiveCloud      = "destructive-cloud"
	RuleDestructiveContainer  = "destructive-container"
	RuleDestructiveDatastore  = "destructive-datastore"
	RuleDestructiveSystem     = "destructive-system"
	// RuleDestructiveService judges the vendor packs, which [packs]
	// enable turns on (hosted services: payments, e-mail, search, CI ...).
	RuleDestructiveService = "destructive-service"

	// RuleExfiltration: secrets (the environment, tokens, credential
	// variables) sent off the machine, and hosts outside [network].
	RuleExfiltration = "secret-exfiltration"

	// RuleMCPAccess: an MCP tool call beyond the access [mcp] gives its
	// server. RuleOversight: merging or approving, which the oversight
	// mode reserves for humans.
	RuleMCPAccess = "mcp-access"
	RuleOversight = "oversight"

	// RuleDynamicCommand is configured by the top-level dynamic_commands key,
	// not by [rules], because it also accepts "allow".
	RuleDynamicCommand = "dynamic-command"

	// Rules the guard uses for its own failures; they follow fail_mode and
	// cannot be configured per rule.
	RuleBadInput      = "bad-input"
	RuleInternalError = "internal-error"
	RulePolicyError   = "policy-error"
)

// RuleInfo describes a configurable rule.
type RuleInfo struct {
	ID      string
	Label   string // G1…G10 for the command rules of the default policy
	Summary string
}

// Rules lists every rule a [rules] table may name, in documentation order.
var Rules = []RuleInfo{
	{RuleForcePush, "G1", "force pushes: -f, --force, --force-with-lease, +refspec, --mirror"},
	{RuleProtectedBranch, "G2", "pushing to, deleting, moving or switching to a protected branch"},
	{RuleDestructiveGit, "G3", "git commands that destroy uncommitted or unmerged work"},
	{RuleGuardTamper, "G4", "skipping or changing git hooks, Claude Code settings or this policy"},
	{RuleDeleteOutside, "G5", "deleting anything outside the worktree"},
	{RuleWriteOutside, "G6", "writing or changing files outside the worktree"},
	{RuleSecretFile, "G7", "reading or writing secret files (.env, keys, ~/.ssh)"},
	{RuleDestructiveSQL, "G8", "DROP, TRUNCATE, DELETE/UPDATE without WHERE sent to a database client"},
	{RuleRemoteCode, "G9", "running code that cannot be checked: curl | sh, bash <(curl ...), eval of dynamic text"},
	{RulePackageInstall, "G10", "installing packages that are not on the allowlist"},
	{RuleSecretContent, "", "a secret (gitleaks rules) in content an agent writes"},
	{RuleBudget, "", "a tool-call or token budget is used up"},
	{RuleDestructiveTerraform, "", "terraform/tofu destroy, apply without review, hand edits of state"},
	{RuleDestructiveKubernetes, "", "kubectl delete of namespaces, nodes, volumes or --all; drain; apply --prune; helm uninstall"},
	{RuleDestructiveCloud, "", "aws/gcloud/az deletes and terminations, recursive storage removal, rclone purge/sync, backup removal, unpublishing packages, destroying hosted apps"},
	{RuleDestructiveContainer, "", "docker prune and volume rm, mass rm, compose down -v, mounts of the host root, home or system directories, --privileged"},
	{RuleDestructiveDatastore, "", "key-value and time-series stores: range deletes, bucket deletes; broker topic/queue/stream deletes; secrets managers' deletes; mongorestore --drop"},
	{RuleDestructiveSystem, "", "crontab -r, kill -1 and mass pkill, shutdown/reboot, stopping services, flushing the firewall, user accounts, kernel settings"},
	{RuleDestructiveService, "", "vendor packs turned on by [packs] enable: deleting a hosted service's data or configuration (payments, e-mail, feature flags, search indexes, CDN, DNS, gateways, load balancers, messaging, secret managers, monitoring, backups, CI/CD)"},
	{RuleMCPAccess, "", "MCP tool calls beyond their server's access: writes to read-only servers, destructive and admin tools"},
	{RuleOversight, "", "merging or approving pull requests, which [swarm] oversight reserves for humans"},
	{RuleForeignBranch, "", "pushing to, deleting or moving another agent's branch; deleting tags; push --all/--mirror/--prune"},
	{RuleForeignWorktree, "", "changing another agent's worktree: deleting or writing there, git commands run there, EnterWorktree into it"},
	{RuleExfiltration, "", "secrets (env dumps, token printers, credential variables) sent off the machine; hosts outside [network] allow_hosts"},
}

// IsRule reports whether id names a rule a [rules] table may configure.
func IsRule(id string) bool {
	for _, r := range Rules {
		if r.ID == id {
			return true
		}
	}
	return false
}

// Info returns the description of a rule id, or a zero RuleInfo.
func Info(id string) RuleInfo {
	for _, r := range Rules {
		if r.ID == id {
			return r
		}
	}
	return RuleInfo{ID: id}
}
