package budget

import "fmt"

// Kind names a budget.
type Kind string

const (
	Turns         Kind = "turns"          // main-thread turns of one attempt (--max-turns)
	WorkerTokens  Kind = "worker_tokens"  // tokens of one run, all attempts (--tokens)
	TaskTokens    Kind = "task_tokens"    // tokens of every run of one task (--task-tokens)
	SessionTokens Kind = "session_tokens" // tokens of every run since the last reset (--session-tokens)
	ToolCalls     Kind = "tool_calls"     // hook: tool calls of one Claude Code session
	HookTokens    Kind = "tokens"         // hook: tokens of one Claude Code session
)

// Describe names the budget for people.
func (k Kind) Describe() string {
	switch k {
	case Turns:
		return "turn limit"
	case WorkerTokens:
		return "worker token budget"
	case TaskTokens:
		return "task token budget"
	case SessionTokens:
		return "session token budget"
	case ToolCalls:
		return "session tool-call budget"
	case HookTokens:
		return "session token budget of the policy"
	}
	return string(k)
}

func (k Kind) unit() string {
	switch k {
	case Turns:
		return "turns"
	case ToolCalls:
		return "tool calls"
	}
	return "tokens"
}

// Exceeded says which budget was passed and by how much.
type Exceeded struct {
	Budget Kind
	Limit  int64
	Used   int64
}

// Over is how far the use went past the limit.
func (e *Exceeded) Over() int64 { return e.Used - e.Limit }

// String is the one-line explanation: "worker token budget exceeded:
// 3,000 of 2,500 tokens used (500 over)".
func (e *Exceeded) String() string {
	if e.Over() <= 0 {
		return fmt.Sprintf("%s used up: %s of %s %s used", e.Budget.Describe(), Exact(e.Used), Exact(e.Limit), e.Budget.unit())
	}
	return fmt.Sprintf("%s exceeded: %s of %s %s used (%s over)", e.Budget.Describe(), Exact(e.Used), Exact(e.Limit), e.Budget.unit(), Exact(e.Over()))
}

// Limits are the wrapper's caps; 0 means no limit.
type Limits struct {
	Turns         int64
	WorkerTokens  int64
	TaskTokens    int64
	SessionTokens int64
}

// Spent is what was used so far, in budgeted tokens.
type Spent struct {
	Turns   int64 // turns of the current attempt
	Worker  int64
	Task    int64 // 0 when the run has no task
	Session int64
}

// Check returns the first budget the spending has passed, or nil. A budget
// is passed when the use is strictly over its limit: a turn limit of 3
// allows three turns and stops the agent when it starts a fourth.
func (l Limits) Check(s Spent) *Exceeded {
	for _, c := range []Exceeded{
		{Turns, l.Turns, s.Turns},
		{WorkerTokens, l.WorkerTokens, s.Worker},
		{TaskTokens, l.TaskTokens, s.Task},
		{SessionTokens, l.SessionTokens, s.Session},
	} {
		if c.Limit > 0 && c.Used > c.Limit {
			return &c
		}
	}
	return nil
}

// Reached returns the first token budget already used up: at or over its
// limit. A run checks it before starting an attempt, which could not do
// anything without spending more.
func (l Limits) Reached(s Spent) *Exceeded {
	for _, c := range []Exceeded{
		{WorkerTokens, l.WorkerTokens, s.Worker},
		{TaskTokens, l.TaskTokens, s.Task},
		{SessionTokens, l.SessionTokens, s.Session},
	} {
		if c.Limit > 0 && c.Used >= c.Limit {
			return &c
		}
	}
	return nil
}
