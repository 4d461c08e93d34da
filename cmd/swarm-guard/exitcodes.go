package main

import (
	"errors"
	"fmt"

	"github.com/swarm-guard/swarm-guard/hooks/agentrun"
	"github.com/swarm-guard/swarm-guard/hooks/claude"
)

// Exit codes: the one table. Claude Code treats 2 as "block" and any other
// non-zero code as a non-blocking error, so 2 is also what every usage
// error and every crash returns: nothing that goes wrong can allow a call.
// The hook's two codes are the protocol's, defined by hooks/claude.
const (
	exitOK      = claude.ExitNoDecision // 0: success; hook: no decision; check: allowed; scan/verify: clean
	exitFailure = 1                     // check: denied or ask; scan: findings; verify: violations; doctor: a check failed; git hooks: blocked
	exitBlock   = claude.ExitDeny       // 2: hook: the tool call is blocked; every command: usage error or internal failure

	// swarm-guard run: why the wrapped agent stopped.
	exitAgentFailed   = 3   // the agent failed on every attempt (non-zero exit, an error result, or no result)
	exitTimeout       = 4   // --timeout (wall clock) reached
	exitIdle          = 5   // --idle-timeout reached: no output for too long
	exitMaxTurns      = 6   // the turn limit: --max-turns, or claude ended with error_max_turns
	exitWorkerTokens  = 7   // the worker token budget (this run) is used up
	exitTaskTokens    = 8   // the task token budget (all runs of --task) is used up
	exitSessionTokens = 9   // the session token budget is used up
	exitToolBudget    = 10  // the policy's per-session budget ([budget] max_tool_calls, max_tokens) stopped the agent's tool calls
	exitCostBudget    = 11  // claude's own --max-budget-usd was reached
	exitUnguarded     = 12  // run refused to start an agent without the guard's hooks, or stopped one whose hooks did not run
	exitInterrupted   = 130 // swarm-guard run got SIGINT, SIGTERM or SIGHUP and stopped the agent (128 + SIGINT)
)

// exitError ends a command with a specific exit code. An empty message
// means the command already printed what it had to say.
type exitError struct {
	code  int
	msg   string
	usage bool // a mistake in how the command was called (usageErrorf)
}

func (e *exitError) Error() string { return e.msg }

// exitCode turns a command's error into the process exit code.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitBlock
}

// usageErrorf reports a mistake in how a command was called.
func usageErrorf(format string, args ...any) error {
	return &exitError{code: exitBlock, msg: fmt.Sprintf(format, args...), usage: true}
}

// isUsage reports whether err is a mistake in how a command was called:
// a usageErrorf, or agentrun's ErrUsage that ends the command as it is.
func isUsage(err error) bool {
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.usage
	}
	return errors.Is(err, agentrun.ErrUsage)
}

// failed ends a command with exitFailure after it printed its own report.
func failed() error { return &exitError{code: exitFailure} }

// silentExit ends with code after the command printed everything itself.
func silentExit(code int) error { return &exitError{code: code} }
