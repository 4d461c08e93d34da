package main

import (
	"testing"

	"github.com/swarm-guard/swarm-guard/guard/budget"
)

func TestOutcomeExitCodes(t *testing.T) {
	seen := map[int]budget.Outcome{}
	for _, o := range []budget.Outcome{budget.OutcomeSuccess, budget.OutcomeFailed, budget.OutcomeTimeout, budget.OutcomeIdle,
		budget.OutcomeMaxTurns, budget.OutcomeWorkerTokens, budget.OutcomeTaskTokens, budget.OutcomeSessionTokens,
		budget.OutcomeToolBudget, budget.OutcomeCostBudget, budget.OutcomeInterrupted} {
		code := outcomeExit(o)
		if other, dup := seen[code]; dup || code == exitBlock || code == exitFailure {
			t.Errorf("%s exits %d, like %s", o, code, other)
		}
		seen[code] = o
	}
	if outcomeExit(budget.OutcomeStateError) != exitBlock {
		t.Error("a state error is an internal failure, exit 2")
	}
}
