package rules

import "github.com/swarm-guard/swarm-guard/policy"

// Budget: the session used up [budget] max_tool_calls or max_tokens. It
// judges usage, not a tool call.
var Budget = Rule{
	ID:       policy.RuleBudget,
	Reason:   "the session used up its tool-call or token budget",
	Instead:  "stop and report what is done and what is left; a human raises [budget] if the task needs more",
	TestedBy: "hooks/sessionbudget and guard/budget",
}
