package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/gitx"
	"github.com/swarm-guard/swarm-guard/hooks/internal/ledger"
	"github.com/swarm-guard/swarm-guard/policy"
)

// sharedReport is a task's or a swarm session's spend across every clone,
// from the remote ledger (hooks/internal/ledger).
type sharedReport struct {
	Task    string           `json:"task,omitempty"`
	Session string           `json:"session,omitempty"`
	Remote  string           `json:"remote"`
	Agents  []ledger.Record  `json:"agents"`
	Tasks   map[string]int64 `json:"tasks,omitempty"` // a session's tokens per task, over every agent ("-": no task)
	Total   int64            `json:"total_tokens"`
	Budget  int64            `json:"budget_tokens"` // [budget] task_tokens or session_tokens; 0: none
	Left    int64            `json:"left_tokens"`
	Problem string           `json:"problem,omitempty"` // the remote could not be read: the last fetched records
	Broken  string           `json:"broken,omitempty"`  // records that could not be read, not counted
}

// readSharedLedger reads the ledger of a task, or with session set of a
// swarm session; nil without the policy's remote.
func readSharedLedger(root, task, session string) *sharedReport {
	pol, err := policy.Load(root)
	if err != nil {
		pol = policy.Default()
	}
	remote := pol.Budget.SyncRemote
	if remote == "" || !ledger.HasRemote(root, remote) {
		return nil
	}
	l := &ledger.Ledger{Dir: root, Remote: remote, Task: task, Agent: "report"}
	s := &sharedReport{Task: task, Remote: remote, Budget: pol.Budget.TaskTokens}
	if session != "" {
		l.Session, l.BySession = session, true
		s.Session, s.Budget = session, pol.Budget.SessionTokens
	}
	if err := l.Fetch(); err != nil {
		s.Problem = oneLineErr(err)
	}
	_, all, err := l.Others()
	switch {
	case errors.Is(err, ledger.ErrBroken):
		s.Broken = oneLineErr(err)
	case err != nil:
		s.Problem = oneLineErr(err)
	}
	s.Agents = all
	for _, r := range all {
		s.Total += r.Tokens
		for t, n := range r.Tasks {
			if s.Tasks == nil {
				s.Tasks = map[string]int64{}
			}
			s.Tasks[t] += n
		}
	}
	if s.Budget > 0 {
		s.Left = max(s.Budget-s.Total, 0)
	}
	return s
}

func writeShared(w io.Writer, s *sharedReport) {
	what := "Task " + s.Task
	if s.Session != "" {
		what = "Session " + s.Session
	}
	fmt.Fprintf(w, "\n%s across clones (the ledger in %s):\n", what, s.Remote)
	if s.Problem != "" {
		fmt.Fprintf(w, "  (the remote could not be read: %s; showing the last fetched records)\n", s.Problem)
	}
	if s.Broken != "" {
		fmt.Fprintf(w, "  (%s)\n", s.Broken)
	}
	for _, r := range s.Agents {
		fmt.Fprintf(w, "  %-20s %s tokens%s\n", r.Agent, budget.Count(r.Tokens), taskSplit(r.Tasks))
	}
	if s.Session != "" && len(s.Tasks) > 0 {
		fmt.Fprintf(w, "  per task: %s\n", strings.TrimSuffix(strings.TrimPrefix(taskSplit(s.Tasks), " ("), ")"))
	}
	if s.Budget > 0 {
		fmt.Fprintf(w, "  total %s of %s tokens; %s left\n", budget.Count(s.Total), budget.Count(s.Budget), budget.Count(s.Left))
	} else {
		fmt.Fprintf(w, "  total %s tokens\n", budget.Count(s.Total))
	}
}

// taskSplit is " (T1 2.4k, T2 300)" for a session record; "" otherwise.
func taskSplit(tasks map[string]int64) string {
	if len(tasks) == 0 {
		return ""
	}
	names := make([]string, 0, len(tasks))
	for t := range tasks {
		names = append(names, t)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, t := range names {
		parts[i] = t + " " + budget.Count(tasks[t])
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// rangeReport is the shared spend of a pull request: the tasks its
// commits' agents recorded spend on, and the swarm sessions its commits
// name, from the remote's ledger.
type rangeReport struct {
	Range    string          `json:"range"`
	Agents   []string        `json:"agents"`   // the commits' agent trailers
	Sessions []string        `json:"sessions"` // the commits' session trailers
	Tasks    []*sharedReport `json:"tasks"`
	Swarm    []*sharedReport `json:"swarm_sessions"`
	Problem  string          `json:"problem,omitempty"`
}

// Range prints the budgets of a pull request's tasks and sessions:
// report --range BASE..HEAD, the step install --ci github writes. A task
// belongs to the pull request when one of its commits' agents (Agent-Id)
// recorded spend on it in a budget session its commits name
// (Agent-Session; any session when they name none).
func Range(w io.Writer, root, rng string, asJSON bool) error {
	pol, err := policy.Load(root)
	if err != nil {
		return fmt.Errorf("%v (swarm-guard policy check shows the problem)", err)
	}
	agentKey, sessionKey := pol.Trailers.AgentKey, pol.Trailers.SessionKey
	out, err := gitx.Runner{Dir: root}.Output("log", "--format=%(trailers:key="+agentKey+",key="+sessionKey+",unfold)", rng, "--")
	if err != nil {
		stderr := "" // git's message; none when git did not run
		if ge := new(gitx.Error); errors.As(err, &ge) {
			stderr = ge.Stderr
		}
		return fmt.Errorf("cannot read the commits of %s: %s (fetch the full history: git fetch --unshallow, or actions/checkout with fetch-depth: 0)", rng, oneLineErr(errors.New(stderr)))
	}
	rr := &rangeReport{Range: rng, Agents: []string{}, Sessions: []string{}, Tasks: []*sharedReport{}, Swarm: []*sharedReport{}}
	agents, sessions := map[string]bool{}, map[string]bool{}
	for _, line := range strings.Split(string(out), "\n") {
		k, v, ok := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		switch {
		case !ok || v == "":
		case strings.EqualFold(k, agentKey):
			agents[v] = true
		case strings.EqualFold(k, sessionKey):
			sessions[v] = true
		}
	}
	rr.Agents, rr.Sessions = sortedKeys(agents), sortedKeys(sessions)
	remote := pol.Budget.SyncRemote
	if remote != "" && ledger.HasRemote(root, remote) && len(agents) > 0 {
		recs, err := ledger.AllTasks(root, remote)
		if err != nil {
			rr.Problem = oneLineErr(err)
		}
		seen := map[string]bool{}
		for _, r := range recs {
			inSession := len(sessions) == 0 || slices.ContainsFunc(r.Sessions, func(s string) bool { return sessions[s] })
			if agents[r.Agent] && inSession && !seen[r.Task] {
				seen[r.Task] = true
				rr.Tasks = append(rr.Tasks, readSharedLedger(root, r.Task, ""))
			}
		}
		for _, s := range rr.Sessions {
			if sr := readSharedLedger(root, "", s); sr != nil && len(sr.Agents) > 0 {
				rr.Swarm = append(rr.Swarm, sr)
			}
		}
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(rr)
	}
	if rr.Problem != "" {
		fmt.Fprintf(w, "(the remote could not be read: %s; showing the last fetched records)\n", rr.Problem)
	}
	if len(rr.Tasks)+len(rr.Swarm) == 0 {
		who := "no agent trailers"
		if len(rr.Agents) > 0 {
			who = "agents " + strings.Join(rr.Agents, ", ")
		}
		fmt.Fprintf(w, "no token spend recorded in the remote's ledger for the commits of %s (%s)\n", rng, who)
		return nil
	}
	fmt.Fprintf(w, "Token spend of the tasks and sessions of %s (agents %s):\n", rng, strings.Join(rr.Agents, ", "))
	for _, s := range append(rr.Tasks, rr.Swarm...) {
		writeShared(w, s)
	}
	return nil
}

// sortedKeys lists a set's members in order; an empty set is an empty
// list, not null, in the JSON.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// oneLineErr is the first line of an error.
func oneLineErr(err error) string {
	s := err.Error()
	for i, c := range s {
		if c == '\n' {
			return s[:i]
		}
	}
	return s
}
