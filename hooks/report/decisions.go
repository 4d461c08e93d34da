package report

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/audit"
)

// decisionSummary is what the hook decided over a time window: the numbers
// a platform engineer tunes a policy with.
type decisionSummary struct {
	Calls      int            `json:"calls"`
	ByAction   map[string]int `json:"by_action"` // allow (no decision), deny, ask, block, trusted
	ByRule     []countRow     `json:"by_rule"`   // denials, asks and blocks per rule
	ByAgent    []agentRow     `json:"by_agent"`
	ByTool     []countRow     `json:"by_tool"`
	ByClient   []countRow     `json:"by_client"`    // calls per agent client (claude for Claude Code)
	Triggers   []countRow     `json:"top_triggers"` // the commands and paths denied most often
	First      string         `json:"first,omitempty"`
	Last       string         `json:"last,omitempty"`
	Unreadable int            `json:"unreadable_lines,omitempty"`
}

type countRow struct {
	Key   string `json:"key"`
	Count int    `json:"count"`
}

type agentRow struct {
	Agent   string `json:"agent"`
	Calls   int    `json:"calls"`
	Denied  int    `json:"denied"`
	Asked   int    `json:"asked"`
	Blocked int    `json:"blocked"`
}

// readDecisions sums the hook's decision records of the audit log (not the
// run records), from the given time on; with task set, only the agents
// that ran that task.
func readDecisions(path string, from time.Time, agents map[string]bool) (*decisionSummary, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &decisionSummary{ByAction: map[string]int{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the audit log: %w", err)
	}
	defer f.Close()
	s := &decisionSummary{ByAction: map[string]int{}}
	rules, tools, triggers, clientCalls := map[string]int{}, map[string]int{}, map[string]int{}, map[string]int{}
	byAgent := map[string]*agentRow{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 || runMarkIn(line) {
			continue
		}
		var r audit.Record
		if json.Unmarshal(line, &r) != nil || r.Event == "" {
			s.Unreadable++
			continue
		}
		if !from.IsZero() {
			if t, err := time.Parse(time.RFC3339Nano, r.Time); err == nil && t.Before(from) {
				continue
			}
		}
		if agents != nil && !agents[r.AgentID] {
			continue
		}
		s.Calls++
		action := r.Action
		if action == "" {
			action = "allow"
		}
		s.ByAction[action]++
		if s.First == "" || r.Time < s.First {
			s.First = r.Time
		}
		if r.Time > s.Last {
			s.Last = r.Time
		}
		agent := r.AgentID
		if agent == "" {
			agent = "-"
		}
		a := byAgent[agent]
		if a == nil {
			a = &agentRow{Agent: agent}
			byAgent[agent] = a
		}
		a.Calls++
		if r.Tool != "" {
			tools[r.Tool]++
		}
		client := r.Client
		if client == "" {
			client = "claude"
		}
		clientCalls[client]++
		switch action {
		case "deny":
			a.Denied++
		case "ask":
			a.Asked++
		case "block":
			a.Blocked++
		case "warn", "log":
			// Shadow modes: what would have been stopped, counted apart
			// per rule so a rollout week shows its cost (docs/rollout.md).
		default:
			continue
		}
		rule := r.Rule
		if action == "warn" || action == "log" {
			rule += " (" + action + ")"
		}
		rules[rule]++
		trigger := r.Command
		if trigger == "" {
			trigger = r.Path
		}
		if trigger != "" {
			if len(trigger) > 80 {
				trigger = trigger[:77] + "..."
			}
			triggers[rule+": "+trigger]++
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read the audit log: %w", err)
	}
	s.ByRule, s.ByTool, s.Triggers = sortedCounts(rules, 0), sortedCounts(tools, 0), sortedCounts(triggers, 10)
	s.ByClient = sortedCounts(clientCalls, 0)
	for _, a := range byAgent {
		s.ByAgent = append(s.ByAgent, *a)
	}
	sort.Slice(s.ByAgent, func(i, j int) bool {
		if s.ByAgent[i].Calls != s.ByAgent[j].Calls {
			return s.ByAgent[i].Calls > s.ByAgent[j].Calls
		}
		return s.ByAgent[i].Agent < s.ByAgent[j].Agent
	})
	return s, nil
}

func runMarkIn(line []byte) bool { return strings.Contains(string(line), string(runMark)) }

// sortedCounts orders counts, most first, at most max (0: all).
func sortedCounts(m map[string]int, max int) []countRow {
	out := make([]countRow, 0, len(m))
	for k, n := range m {
		out = append(out, countRow{k, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Key < out[j].Key
	})
	if max > 0 && len(out) > max {
		out = out[:max]
	}
	return out
}

// writeDecisions prints the summary as text.
func writeDecisions(w io.Writer, s *decisionSummary) error {
	if s.Calls == 0 {
		_, err := fmt.Fprintln(w, "no hook decisions recorded")
		return err
	}
	fmt.Fprintf(w, "Hook decisions: %d tool calls from %s to %s: ", s.Calls, s.First, s.Last)
	var parts []string
	for _, a := range []string{"allow", "deny", "ask", "block", "warn", "log", "approved", "trusted"} {
		if n := s.ByAction[a]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, a))
		}
	}
	fmt.Fprintln(w, strings.Join(parts, ", "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if len(s.ByRule) > 0 {
		fmt.Fprintln(tw, "\nRULE\tDENIED, ASKED OR BLOCKED")
		for _, r := range s.ByRule {
			fmt.Fprintf(tw, "%s\t%d\n", r.Key, r.Count)
		}
	}
	if len(s.ByClient) > 1 || len(s.ByClient) == 1 && s.ByClient[0].Key != "claude" {
		fmt.Fprintln(tw, "\nCLIENT\tCALLS")
		for _, c := range s.ByClient {
			fmt.Fprintf(tw, "%s\t%d\n", c.Key, c.Count)
		}
	}
	fmt.Fprintln(tw, "\nAGENT\tCALLS\tDENIED\tASKED\tBLOCKED")
	for _, a := range s.ByAgent {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\n", a.Agent, a.Calls, a.Denied, a.Asked, a.Blocked)
	}
	if len(s.Triggers) > 0 {
		fmt.Fprintln(tw, "\nTOP TRIGGERS\tTIMES")
		for _, t := range s.Triggers {
			fmt.Fprintf(tw, "%s\t%d\n", strings.ReplaceAll(t.Key, "\t", " "), t.Count)
		}
	}
	return tw.Flush()
}
