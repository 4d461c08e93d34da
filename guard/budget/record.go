package budget

import (
	"sort"
	"time"
)

// RecordEvent marks run records in the audit log, next to the hook's
// decision records.
const RecordEvent = "run"

// Attempt is the audit record of one attempt of `swarm-guard run`.
type Attempt struct {
	Time          time.Time `json:"time"`  // when the attempt started
	Event         string    `json:"event"` // RecordEvent
	Run           string    `json:"run"`   // the run id (SWARM_GUARD_RUN)
	Attempt       int       `json:"attempt"`
	Agent         string    `json:"agent_id"`
	Task          string    `json:"task,omitempty"`
	BudgetSession string    `json:"budget_session,omitempty"` // SWARM_GUARD_SESSION
	SessionID     string    `json:"session_id,omitempty"`     // Claude Code's session id
	Command       string    `json:"command"`                  // the program's base name
	Turns         int64     `json:"turns"`
	Tokens        Usage     `json:"tokens"`
	Budgeted      int64     `json:"budgeted_tokens"`
	CostUSD       *float64  `json:"cost_usd,omitempty"` // only when the agent reported it
	DurationMS    int64     `json:"duration_ms"`
	Outcome       Outcome   `json:"outcome"`
	Detail        string    `json:"detail,omitempty"` // which budget and by how much, or the error
	ExitCode      int       `json:"exit_code"`
	Signal        string    `json:"signal,omitempty"` // the last signal the wrapper sent
	ResultSubtype string    `json:"result_subtype,omitempty"`
	HeadBefore    string    `json:"head_before,omitempty"` // HEAD when the attempt started
	HeadAfter     string    `json:"head_after,omitempty"`  // HEAD when it ended
}

// Group sums the attempts of one agent on one task.
type Group struct {
	Task       string          `json:"task"`
	Agent      string          `json:"agent_id"`
	Runs       int             `json:"runs"`
	Attempts   int             `json:"attempts"`
	Outcomes   map[Outcome]int `json:"outcomes"`
	Turns      int64           `json:"turns"`
	Tokens     Usage           `json:"tokens"`
	Budgeted   int64           `json:"budgeted_tokens"`
	CostUSD    *float64        `json:"cost_usd,omitempty"`
	DurationMS int64           `json:"duration_ms"`
	// ChangedLines are the lines added and deleted between HEAD before and
	// after the attempts git could tell about; TokensPerLine divides the
	// budgeted tokens of those same attempts by them.
	ChangedLines  *int64   `json:"changed_lines,omitempty"`
	TokensPerLine *float64 `json:"tokens_per_changed_line,omitempty"`

	linedTokens int64
}

// Aggregate groups attempts by task and agent, in task then agent order.
// lines returns the changed lines of an attempt when git can tell.
func Aggregate(attempts []Attempt, lines func(Attempt) (int64, bool)) []Group {
	type key struct{ task, agent string }
	groups := map[key]*Group{}
	runs := map[key]map[string]bool{}
	for _, a := range attempts {
		k := key{a.Task, a.Agent}
		g := groups[k]
		if g == nil {
			g = &Group{Task: a.Task, Agent: a.Agent, Outcomes: map[Outcome]int{}}
			groups[k] = g
			runs[k] = map[string]bool{}
		}
		if !runs[k][a.Run] {
			runs[k][a.Run] = true
			g.Runs++
		}
		g.Attempts++
		g.Outcomes[a.Outcome]++
		g.Turns += a.Turns
		g.Tokens = g.Tokens.Add(a.Tokens)
		g.Budgeted += a.Budgeted
		g.DurationMS += a.DurationMS
		if a.CostUSD != nil {
			c := *a.CostUSD
			if g.CostUSD != nil {
				c += *g.CostUSD
			}
			g.CostUSD = &c
		}
		if lines != nil {
			if n, ok := lines(a); ok {
				total := n
				if g.ChangedLines != nil {
					total += *g.ChangedLines
				}
				g.ChangedLines = &total
				g.linedTokens += a.Budgeted
			}
		}
	}
	out := make([]Group, 0, len(groups))
	for _, g := range groups {
		if g.ChangedLines != nil && *g.ChangedLines > 0 {
			r := float64(g.linedTokens) / float64(*g.ChangedLines)
			g.TokensPerLine = &r
		}
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Task != out[j].Task {
			return out[i].Task < out[j].Task
		}
		return out[i].Agent < out[j].Agent
	})
	return out
}
