package replay

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard"
	"github.com/swarm-guard/swarm-guard/hooks/history"
	"github.com/swarm-guard/swarm-guard/policy"
)

// Decider judges one recorded call under a policy, as the hook would.
type Decider func(pol *policy.Policy, c *history.Call) guard.Decision

// Trigger is one call, as the report shows it.
type Trigger struct {
	Source string `json:"source"` // file:line
	Agent  string `json:"agent,omitempty"`
	Tool   string `json:"tool"`
	Call   string `json:"call"` // the command, the path, or the input
	Cwd    string `json:"cwd"`
	Time   string `json:"time,omitempty"`
}

// RuleCount sums one rule's decisions.
type RuleCount struct {
	Rule   string   `json:"rule"`
	Deny   int      `json:"deny"`
	Ask    int      `json:"ask"`
	Warn   int      `json:"warn"`
	Log    int      `json:"log"`
	Agents []string `json:"agents"`
	First  Trigger  `json:"first"`
	agents map[string]bool
}

// Total is the rule's decisions of every kind.
func (r *RuleCount) Total() int { return r.Deny + r.Ask + r.Warn + r.Log }

// Outcome is a decision as the report shows it.
type Outcome struct {
	Action string `json:"action"` // allow, deny, ask, warn, log
	Rule   string `json:"rule,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Change is a call the two policies decide differently.
type Change struct {
	Trigger
	Before Outcome `json:"before"`
	After  Outcome `json:"after"`
}

// Report is a replay's result.
type Report struct {
	Policy   string        `json:"policy"`
	Against  string        `json:"against,omitempty"`
	Calls    int           `json:"calls"`
	Allowed  int           `json:"allowed"`
	Sessions int           `json:"sessions"`
	Agents   int           `json:"agents"`
	Rules    []*RuleCount  `json:"rules"`
	Changes  []Change      `json:"changes,omitempty"`
	Read     history.Stats `json:"read"`
}

// Replayer accumulates decisions call by call.
type Replayer struct {
	Policy  *policy.Policy
	Against *policy.Policy // nil: no comparison
	Decide  Decider
	// KeepChanges bounds the changes kept in full (the counts are
	// always complete); 0 keeps them all.
	KeepChanges int

	rep      Report
	rules    map[string]*RuleCount
	sessions map[string]bool
	agents   map[string]bool
	changed  int
}

// Add judges one call.
func (r *Replayer) Add(c *history.Call) {
	if r.rules == nil {
		r.rules, r.sessions, r.agents = map[string]*RuleCount{}, map[string]bool{}, map[string]bool{}
	}
	r.rep.Calls++
	r.sessions[c.Session] = true
	r.agents[c.Agent] = true
	d := r.Decide(r.Policy, c)
	if r.Against != nil {
		d2 := r.Decide(r.Against, c)
		before, after := outcome(d), outcome(d2)
		if before.Action != after.Action || before.Rule != after.Rule {
			r.changed++
			if r.KeepChanges == 0 || len(r.rep.Changes) < r.KeepChanges {
				r.rep.Changes = append(r.rep.Changes, Change{Trigger: trigger(c), Before: before, After: after})
			}
		}
	}
	if d.Action == "" {
		r.rep.Allowed++
		return
	}
	rc := r.rules[d.Rule]
	if rc == nil {
		rc = &RuleCount{Rule: d.Rule, agents: map[string]bool{}, First: trigger(c)}
		r.rules[d.Rule] = rc
	}
	switch d.Action {
	case policy.Deny:
		rc.Deny++
	case policy.Ask:
		rc.Ask++
	case policy.Warn:
		rc.Warn++
	case policy.Log:
		rc.Log++
	}
	rc.agents[c.Agent] = true
}

// Changed is the number of calls whose decision changes (with Against).
func (r *Replayer) Changed() int { return r.changed }

// Report returns the sums, rules by count, most first.
func (r *Replayer) Report(read history.Stats) Report {
	rep := r.rep
	rep.Read = read
	if rep.Read.Problems == nil {
		rep.Read.Problems = []history.Problem{}
	}
	rep.Policy = r.Policy.Source
	if r.Against != nil {
		rep.Against = r.Against.Source
	}
	rep.Sessions, rep.Agents = len(r.sessions), len(r.agents)
	rep.Rules = []*RuleCount{}
	for _, rc := range r.rules {
		rc.Agents = rc.Agents[:0]
		for a := range rc.agents {
			rc.Agents = append(rc.Agents, a)
		}
		sort.Strings(rc.Agents)
		rep.Rules = append(rep.Rules, rc)
	}
	sort.Slice(rep.Rules, func(i, j int) bool {
		if a, b := rep.Rules[i].Total(), rep.Rules[j].Total(); a != b {
			return a > b
		}
		return rep.Rules[i].Rule < rep.Rules[j].Rule
	})
	return rep
}

func outcome(d guard.Decision) Outcome {
	if d.Action == "" {
		return Outcome{Action: "allow"}
	}
	return Outcome{Action: string(d.Action), Rule: d.Rule, Reason: d.Reason}
}

func trigger(c *history.Call) Trigger {
	return Trigger{Source: c.Source, Agent: c.Agent, Tool: c.Tool, Call: Shown(c), Cwd: c.Cwd, Time: c.Time}
}

// Shown is a call as one line: a Bash command, a file tool's path, a web
// tool's URL or query, else the input JSON; at most 200 characters.
func Shown(c *history.Call) string {
	var in map[string]any
	_ = json.Unmarshal(c.Input, &in)
	s := ""
	for _, k := range []string{"command", "file_path", "notebook_path", "url", "query", "path", "pattern"} {
		if v, ok := in[k].(string); ok && v != "" {
			s = v
			break
		}
	}
	if s == "" {
		s = string(c.Input)
	}
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:200]) + "…"
	}
	return s
}
