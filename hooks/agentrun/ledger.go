package agentrun

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/swarm-guard/swarm-guard/guard/budget"
	"github.com/swarm-guard/swarm-guard/hooks/internal/state"
	"github.com/swarm-guard/swarm-guard/policy"
)

// budgetView is what budget show prints.
type budgetView struct {
	File    string     `json:"file"`
	Session budgetLine `json:"session"`
	Tasks   []taskLine `json:"tasks"`
	// Swarm is this clone's part of the named swarm sessions; their
	// totals over every clone are in the remote (report --session).
	Swarm []swarmLine `json:"swarm_sessions"`
}

type swarmLine struct {
	Session string       `json:"session"`
	Usage   budget.Usage `json:"usage"`
	Tokens  int64        `json:"budgeted_tokens"`
}

type budgetLine struct {
	ID      string       `json:"id,omitempty"`
	Started *time.Time   `json:"started,omitempty"`
	Runs    int64        `json:"runs"`
	Usage   budget.Usage `json:"usage"`
	Tokens  int64        `json:"budgeted_tokens"`
	Limit   int64        `json:"limit"`
}

type taskLine struct {
	Task string `json:"task"`
	budgetLine
}

// ShowLedger prints the budget ledger at path (LedgerFile in the state
// directory) for swarm-guard budget show, as text or json, with the
// policy's limits.
func ShowLedger(w io.Writer, path string, pol *policy.Policy, format string) error {
	l, err := state.Read[budget.Ledger](path)
	if err != nil {
		return stateError(err)
	}
	v := budgetView{File: path, Tasks: []taskLine{}, Swarm: []swarmLine{}}
	v.Session = budgetLine{ID: l.Session.ID, Runs: l.Session.Runs, Usage: l.Session.Usage, Tokens: l.Session.Usage.Budgeted(), Limit: pol.Budget.SessionTokens}
	if !l.Session.Started.IsZero() {
		t := l.Session.Started
		v.Session.Started = &t
	}
	for _, name := range l.TaskNames() {
		t := l.Tasks[name]
		v.Tasks = append(v.Tasks, taskLine{Task: name, budgetLine: budgetLine{Runs: t.Runs, Usage: t.Usage, Tokens: t.Usage.Budgeted(), Limit: pol.Budget.TaskTokens}})
	}
	names := make([]string, 0, len(l.Swarm))
	for name := range l.Swarm {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		u := l.Swarm[name].Usage
		v.Swarm = append(v.Swarm, swarmLine{Session: name, Usage: u, Tokens: u.Budgeted()})
	}
	switch format {
	case "json":
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	case "text":
	default:
		return fmt.Errorf("%w: --format must be text or json, not %q", ErrUsage, format)
	}
	if v.Session.ID == "" {
		fmt.Fprintf(w, "no runs yet (%s does not exist)\n", path)
		return nil
	}
	fmt.Fprintf(w, "session %s since %s: %d runs, %s\n", v.Session.ID, v.Session.Started.Local().Format(time.DateTime), v.Session.Runs, ofLimit(v.Session.Tokens, v.Session.Limit))
	fmt.Fprintf(w, "  %s\n", v.Session.Usage)
	if len(v.Tasks) == 0 {
		fmt.Fprintln(w, "no tasks")
	}
	for _, t := range v.Tasks {
		fmt.Fprintf(w, "task %s: %d runs, %s\n", t.Task, t.Runs, ofLimit(t.Tokens, t.Limit))
	}
	for _, sw := range v.Swarm {
		fmt.Fprintf(w, "swarm session %s: %s tokens in this clone; swarm-guard report --session %s shows every clone's\n", sw.Session, budget.Exact(sw.Tokens), sw.Session)
	}
	return nil
}

func ofLimit(used, limit int64) string {
	if limit <= 0 {
		return budget.Exact(used) + " tokens (no limit)"
	}
	return fmt.Sprintf("%s of %s tokens (%.0f%%)", budget.Exact(used), budget.Exact(limit), 100*float64(used)/float64(limit))
}

// ResetLedger is swarm-guard budget reset: it starts a new budget session
// (with all, and forgets every task), or with task forgets that task's
// use. force moves a corrupt ledger aside first.
func ResetLedger(w io.Writer, path, task string, all, force bool, now time.Time) error {
	var old budget.LedgerSession
	var oldTask *budget.TaskTally
	reset := func(l *budget.Ledger) error {
		switch {
		case task != "":
			oldTask = l.Tasks[task]
			delete(l.Tasks, task)
			if l.Session.ID == "" {
				l.EnsureSession(newID("s", now), now.UTC())
			}
		case all:
			old = l.ResetSession(newID("s", now), now.UTC())
			l.Tasks, l.Swarm = nil, nil
		default:
			old = l.ResetSession(newID("s", now), now.UTC())
		}
		return nil
	}
	err := state.Update(path, reset)
	var ce *state.CorruptError
	if errors.As(err, &ce) && force {
		aside, merr := state.MoveAside(path, now)
		if merr != nil {
			return merr
		}
		fmt.Fprintf(w, "moved the corrupt %s to %s\n", path, aside)
		err = state.Update(path, reset)
	}
	if err != nil {
		return stateError(err)
	}
	l, err := state.Read[budget.Ledger](path)
	if err != nil {
		return stateError(err)
	}
	switch {
	case task != "" && oldTask == nil:
		fmt.Fprintf(w, "task %s had no budget use; nothing to reset\n", task)
	case task != "":
		fmt.Fprintf(w, "task %s reset (it had used %s tokens in %d runs)\n", task, budget.Exact(oldTask.Usage.Budgeted()), oldTask.Runs)
	default:
		what := "budget session"
		if all {
			what = "budget session and every task"
		}
		fmt.Fprintf(w, "%s reset: new session %s", what, l.Session.ID)
		if old.ID != "" {
			fmt.Fprintf(w, " (the previous one, %s, used %s tokens in %d runs)", old.ID, budget.Exact(old.Usage.Budgeted()), old.Runs)
		}
		fmt.Fprintln(w)
	}
	return nil
}
