package main

import (
	"fmt"
	"io"

	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/ledger"
	"github.com/swarm-guard/swarm-guard/policy"
)

// sharedReport is a task's spend across every clone, from the remote
// ledger (hooks/ledger).
type sharedReport struct {
	Task    string          `json:"task"`
	Remote  string          `json:"remote"`
	Agents  []ledger.Record `json:"agents"`
	Total   int64           `json:"total_tokens"`
	Budget  int64           `json:"budget_tokens"` // [budget] task_tokens; 0: none
	Left    int64           `json:"left_tokens"`
	Problem string          `json:"problem,omitempty"` // the remote could not be read: the last fetched records
}

func readSharedLedger(c *cli, root, task string) *sharedReport {
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
	}
	if s.Budget > 0 {
		s.Left = max(s.Budget-s.Total, 0)
	}
	return s
}

func writeShared(w io.Writer, s *sharedReport) {
	fmt.Fprintf(w, "\nTask %s across clones (the ledger in %s):\n", s.Task, s.Remote)
	if s.Problem != "" {
		fmt.Fprintf(w, "  (the remote could not be read: %s; showing the last fetched records)\n", s.Problem)
	}
	for _, r := range s.Agents {
		fmt.Fprintf(w, "  %-20s %s tokens\n", r.Agent, budget.Count(r.Tokens))
	}
	if s.Budget > 0 {
		fmt.Fprintf(w, "  total %s of %s tokens; %s left\n", budget.Count(s.Total), budget.Count(s.Budget), budget.Count(s.Left))
	} else {
		fmt.Fprintf(w, "  total %s tokens\n", budget.Count(s.Total))
	}
}
