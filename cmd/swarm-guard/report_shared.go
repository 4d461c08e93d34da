package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/ledger"
	"github.com/swarm-guard/swarm-guard/policy"
)

// sharedReport is a task's or a swarm session's spend across every clone,
// from the remote ledger (hooks/ledger).
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
}

// readSharedLedger reads the ledger of a task, or with session set of a
// swarm session; nil without the policy's remote.
func readSharedLedger(c *cli, root, task, session string) *sharedReport {
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
	if err != nil {
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
