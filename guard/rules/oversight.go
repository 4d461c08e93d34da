package rules

import (
	"github.com/swarm-guard/swarm-guard/guard/effect"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Oversight: merging, approving and repository settings are a human's
// under the default [swarm] oversight (pr-gated).
var Oversight = Rule{
	ID:      policy.RuleOversight,
	Reason:  "merging, approving and repository settings are reserved for humans",
	Instead: "open or update the pull request and leave merging, approving and repository settings to a human (a task may run with --oversight autonomous to allow gh pr merge --auto)",
	Deny: []string{
		"gh pr merge 12 --squash",
		"gh pr merge 12 --admin",
		"gh pr review 12 --approve",
		`mcp__github__merge_pull_request {"owner":"o","repo":"r","pullNumber":12,"merge_method":"squash"}`,
		"vercel --prod --yes",
		"fly deploy",
		"supabase db push",
	},
	Allow: []string{
		"gh pr create --fill",
		"gh pr view 12",
		"vercel deploy",
		"netlify deploy --dir dist",
		"wrangler dev",
		`mcp__github__get_pull_request {"owner":"o","repo":"r","pullNumber":12}`,
	},
	Judge: judgeOversight,
}

// Alternatives of the oversight verdicts besides the rule's own.
const (
	insteadIssueState = "comment on the issue with what you did (gh issue comment N -b ...) and write \"Fixes #N\" in your pull request: the issue closes when a human merges it"
	insteadMCPMerge   = "open or update the pull request and leave merging and approving to a human (or run the task with --oversight autonomous and enable auto-merge)"
	insteadMCPAdmin   = "ask a human: deleting, releasing and changing repository settings or protection is not an agent's job"
)

// judgeOversight decides a forge operation (effect.ForgeAction) by the
// oversight mode (oversightAction): under pr-gated merging, approving,
// closing others' work and administering are denied; autonomous also
// allows auto-merge on the agent's own pull request; checkpoint asks a
// human instead of denying. A call the guard cannot read is denied under
// every mode.
func judgeOversight(e effect.Effect, f *Facts) []Verdict {
	fa, ok := e.(effect.ForgeAction)
	if !ok {
		return nil
	}
	if fa.Op == effect.ForgeUnread {
		return []Verdict{{Reason: fa.By + " " + fa.Does, Instead: "write " + fa.Unread + " literally"}}
	}
	mode := f.Oversight
	act := oversightAction(mode, fa)
	if act == "" {
		return nil
	}
	does := fa.Does
	if fa.Op == effect.ForgeBypass {
		does += " merges past the branch protection and the required checks"
	}
	v := Verdict{Reason: fa.By + " " + does + ", which oversight " + mode + " leaves to a human", Ask: act == policy.Ask}
	switch {
	case mode == policy.OversightAutonomous && fa.Op == effect.ForgeAutoMerge:
		v.Reason = fa.By + " " + fa.Does + ": auto-merge on " + fa.Target + ", which may be another agent's pull request (autonomous allows it on your own: name none, from your branch, or name your branch)"
	case mode == policy.OversightAutonomous && fa.Op == effect.ForgeMerge:
		v.Reason = fa.By + " " + fa.Does + " at once, without the required checks auto-merge waits for"
	case v.Ask:
		v.Reason += " (checkpoint: a human approves this call)"
	}
	switch {
	case fa.Instead != "":
		v.Instead = fa.Instead
	case fa.Issue:
		v.Instead = insteadIssueState
	case fa.MCP && (fa.Op == effect.ForgeMerge || fa.Op == effect.ForgeApprove):
		v.Instead = insteadMCPMerge
	case fa.MCP && fa.Op == effect.ForgeAdmin:
		v.Instead = insteadMCPAdmin
	}
	return []Verdict{v}
}

// oversightAction is what the oversight mode does with a forge operation:
// "" (no objection), policy.Deny or policy.Ask. Every operation that
// reaches the rule (merging, approving, closing, administering, enabling
// auto-merge) is a human's; autonomous lets the agent enable auto-merge
// on its own pull request, since the forge then merges only once the
// required checks pass; checkpoint asks where the others deny.
func oversightAction(mode string, fa effect.ForgeAction) policy.Action {
	switch {
	case mode == policy.OversightAutonomous && fa.Op == effect.ForgeAutoMerge && fa.Own:
		return ""
	case mode == policy.OversightCheckpoint:
		return policy.Ask
	}
	return policy.Deny
}
