package sessionbudget

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/event"
	"github.com/swarm-guard/swarm-guard/hooks/hookenv"
	"github.com/swarm-guard/swarm-guard/hooks/internal/state"
	"github.com/swarm-guard/swarm-guard/policy"
)

// HookCheck enforces [budget] max_tool_calls and max_tokens for the
// agent session of a PreToolUse call (package decide), whichever client
// runs it.
// With both limits at 0, the default, it returns before touching the
// disk: it runs on every tool call.
func HookCheck(in *event.Event, ctx *hookenv.Context, pol *policy.Policy) guard.Decision {
	lim := budget.HookLimits{ToolCalls: pol.Budget.MaxToolCalls, Tokens: pol.Budget.MaxTokens}
	if lim == (budget.HookLimits{}) || in.SessionID == "" {
		return guard.Decision{}
	}
	action := pol.RuleAction(policy.RuleBudget)
	if action == policy.Off {
		return guard.Decision{}
	}
	transcript := in.TranscriptPath
	if transcript == "" && in.Client == "copilot" && lim.Tokens > 0 {
		home := os.Getenv("COPILOT_HOME")
		if home == "" && ctx.Env != nil && ctx.Env.Home != "" {
			home = filepath.Join(ctx.Env.Home, ".copilot")
		}
		transcript = CopilotTranscript(home, in.SessionID)
	}
	v, err := Check(Request{
		StateDir: ctx.StateDir, SessionID: in.SessionID, TranscriptPath: transcript, Client: in.Client, Limits: lim, Now: time.Now(),
	})
	if err != nil {
		alt := "a human must look at the budget state (swarm-guard budget show)"
		var ce *state.CorruptError
		if errors.As(err, &ce) {
			alt = "a human must inspect " + ce.Path + " and delete it; the budget of this session then starts from zero"
		}
		return guard.Decision{Action: policy.Deny, Rule: policy.RuleInternalError,
			Reason: "the session budget could not be checked: " + err.Error(), Alternative: alt}
	}
	if v.Exceeded == nil {
		return guard.Decision{}
	}
	return guard.Decision{Action: action, Rule: policy.RuleBudget, Reason: hookBudgetReason(v.Exceeded),
		Alternative: "stop, and write down what is done and what is left; more work needs a new session or a higher limit in " + policy.FileName}
}

func hookBudgetReason(e *budget.Exceeded) string {
	if e.Budget == budget.ToolCalls {
		return fmt.Sprintf("this session has made %s tool calls and the policy allows %s per session ([budget] max_tool_calls)",
			budget.Exact(e.Used), budget.Exact(e.Limit))
	}
	return fmt.Sprintf("this session has used %s tokens (input, cache writes and output) and the policy allows %s per session ([budget] max_tokens)",
		budget.Exact(e.Used), budget.Exact(e.Limit))
}
