package budget

// Outcome is how one attempt of a wrapped agent ended.
type Outcome string

const (
	OutcomeSuccess       Outcome = "success"        // a success result (or exit 0 for agents without stream-json)
	OutcomeFailed        Outcome = "failed"         // non-zero exit, an error result, or no result at all
	OutcomeTimeout       Outcome = "timeout"        // the wall-clock limit was reached
	OutcomeIdle          Outcome = "idle"           // no output for the idle timeout
	OutcomeMaxTurns      Outcome = "max_turns"      // the turn limit (the wrapper's or claude's own)
	OutcomeWorkerTokens  Outcome = "worker_tokens"  // the run's token budget
	OutcomeTaskTokens    Outcome = "task_tokens"    // the task's token budget
	OutcomeSessionTokens Outcome = "session_tokens" // the budget session's token budget
	OutcomeToolBudget    Outcome = "tool_budget"    // the policy's per-session budget, enforced by the hook
	OutcomeCostBudget    Outcome = "cost_budget"    // claude's own --max-budget-usd
	OutcomeInterrupted   Outcome = "interrupted"    // the wrapper itself was interrupted
	OutcomeStateError    Outcome = "state_error"    // the budget state could not be read or written
	OutcomeUnguarded     Outcome = "unguarded"      // the agent ran a tool, and swarm-guard's hook never ran
)

// Retryable reports whether another attempt may follow. Only a plain
// failure is retried: a stop for a budget or a timeout would repeat, and
// spend, the same way.
func (o Outcome) Retryable() bool { return o == OutcomeFailed }

// ForBudget is the outcome of a stop for an exceeded budget.
func ForBudget(k Kind) Outcome {
	switch k {
	case Turns:
		return OutcomeMaxTurns
	case WorkerTokens:
		return OutcomeWorkerTokens
	case TaskTokens:
		return OutcomeTaskTokens
	case SessionTokens:
		return OutcomeSessionTokens
	case ToolCalls, HookTokens:
		return OutcomeToolBudget
	}
	return OutcomeFailed
}

// Ending is what is known when an attempt's process is gone.
type Ending struct {
	Stopped    Outcome // why the wrapper stopped the agent; "" if it ended by itself
	ExitCode   int     // -1 when a signal ended it
	Result     *Result // the last result line, nil when there was none
	NeedResult bool    // the agent speaks stream-json: exit 0 alone is not success
}

// Judge decides the outcome of an attempt. A stop by the wrapper wins over
// anything the agent printed after it; otherwise the result line decides,
// and success needs both a success result and exit status 0.
func Judge(e Ending) Outcome {
	if e.Stopped != "" {
		return e.Stopped
	}
	if r := e.Result; r != nil {
		switch {
		case r.Success() && e.ExitCode == 0:
			return OutcomeSuccess
		case r.Subtype == "error_max_turns" || r.TerminalReason == "max_turns":
			return OutcomeMaxTurns
		case r.Subtype == "error_max_budget_usd" || r.TerminalReason == "budget_exhausted":
			return OutcomeCostBudget
		}
		return OutcomeFailed
	}
	if !e.NeedResult && e.ExitCode == 0 {
		return OutcomeSuccess
	}
	return OutcomeFailed
}
