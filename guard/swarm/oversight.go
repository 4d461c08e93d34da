package swarm

import "github.com/swarm-guard/swarm-guard/policy"

// ForgeKind classifies one operation on the forge (GitHub, GitLab).
type ForgeKind int

const (
	// ForgeRead views, lists, diffs: always allowed.
	ForgeRead ForgeKind = iota
	// ForgeContribute creates, edits or comments on pull requests and
	// issues, the agent's normal work: always allowed.
	ForgeContribute
	// ForgeAutoMerge enables auto-merge on the agent's own pull request:
	// the forge merges once the required checks pass. Allowed under
	// autonomous.
	ForgeAutoMerge
	// ForgeMerge merges now, approves, closes or reopens others' pull
	// requests: a human's decision under every mode (checkpoint asks).
	ForgeMerge
	// ForgeAdmin deletes repositories, releases, environments, branches or
	// tags, changes branch protection, settings or secrets, or bypasses
	// checks (--admin): never an agent's, asked under checkpoint.
	ForgeAdmin
)

// ForgeAction is what the oversight mode does with an operation of a kind:
// "" (no objection), policy.Deny or policy.Ask.
func ForgeAction(mode string, kind ForgeKind) policy.Action {
	switch kind {
	case ForgeRead, ForgeContribute:
		return ""
	case ForgeAutoMerge:
		if mode == policy.OversightAutonomous {
			return ""
		}
	}
	if mode == policy.OversightCheckpoint {
		return policy.Ask
	}
	return policy.Deny
}

// ForgeAlternative says what to do instead of a denied operation.
func ForgeAlternative(mode string, kind ForgeKind) string {
	switch {
	case kind == ForgeAutoMerge:
		return "leave the merge to a human: say in the pull request that it is ready (oversight " + mode + " reserves merging for humans; autonomous allows gh pr merge --auto on your own PR)"
	case kind == ForgeMerge:
		return "leave merging, approving and closing to a human: comment on the pull request that it is ready for review"
	}
	return "ask a human: deleting, releasing and changing repository settings or protection is not an agent's job"
}
