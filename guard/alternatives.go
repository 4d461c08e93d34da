package guard

import "github.com/swarm-guard/swarm-guard/guard/rules"

// The alternatives many decisions share are the rules' own, from the rule
// catalog (guard/rules), so the engine, the git hooks and the README say
// the same thing.
var (
	altForcePush = rules.ForcePush.Instead
	altProtected = rules.ProtectedBranch.Instead
	altTamper    = rules.GuardTamper.Instead
	altDelete    = rules.DeleteOutsideWorktree.Instead
	altWrite     = rules.WriteOutsideWorktree.Instead
	altSecret    = rules.SecretFile.Instead
	altExfil     = rules.SecretExfiltration.Instead
	altOversight = rules.Oversight.Instead
)
