package budget

import (
	"fmt"
	"sort"
	"time"
)

// LedgerVersion is the format version of the ledger file.
const LedgerVersion = 1

// Ledger is the wrapper's budget state on one machine: the tokens of the
// current budget session and of every task. It lives in one JSON file
// under the git common dir; hooks/internal/state serialises the updates.
type Ledger struct {
	Version int                   `json:"version"`
	Session LedgerSession         `json:"session"`
	Tasks   map[string]*TaskTally `json:"tasks,omitempty"`
	// Swarm holds the spend of named swarm sessions (run --session, or
	// [budget] session), which clones share through the git remote.
	Swarm map[string]*TaskTally `json:"swarm_sessions,omitempty"`
}

// LedgerSession is everything spent since the last `swarm-guard budget
// reset`.
type LedgerSession struct {
	ID      string    `json:"id"`
	Started time.Time `json:"started"`
	Usage   Usage     `json:"usage"`
	Runs    int64     `json:"runs"`
}

// TaskTally is everything spent on one task.
type TaskTally struct {
	Usage   Usage     `json:"usage"`
	Runs    int64     `json:"runs"`
	Updated time.Time `json:"updated"`
}

// Check reports a ledger this version cannot use.
func (l *Ledger) Check() error {
	if l.Version > LedgerVersion {
		return fmt.Errorf("format version %d is newer than this swarm-guard understands (%d); upgrade swarm-guard", l.Version, LedgerVersion)
	}
	return nil
}

// EnsureSession starts a session with the given id if there is none.
func (l *Ledger) EnsureSession(id string, now time.Time) {
	l.Version = LedgerVersion
	if l.Session.ID == "" {
		l.Session = LedgerSession{ID: id, Started: now}
	}
}

// ResetSession starts a new session and returns the one it ended.
func (l *Ledger) ResetSession(id string, now time.Time) LedgerSession {
	old := l.Session
	l.Version = LedgerVersion
	l.Session = LedgerSession{ID: id, Started: now}
	return old
}

// StartRun counts one run of task (which may be "").
func (l *Ledger) StartRun(task string, now time.Time) {
	l.Session.Runs++
	if task != "" {
		t := l.task(task)
		t.Runs++
		t.Updated = now
	}
}

// Charge adds u to the session and to task, and returns the budgeted
// totals after the charge.
func (l *Ledger) Charge(task string, u Usage, now time.Time) (taskTokens, sessionTokens int64) {
	l.Version = LedgerVersion
	l.Session.Usage = l.Session.Usage.Add(u)
	if task != "" {
		t := l.task(task)
		t.Usage = t.Usage.Add(u)
		t.Updated = now
		taskTokens = t.Usage.Budgeted()
	}
	return taskTokens, l.Session.Usage.Budgeted()
}

// ChargeSwarm adds u to the named swarm session and returns its budgeted
// total after the charge.
func (l *Ledger) ChargeSwarm(session string, u Usage, now time.Time) int64 {
	if l.Swarm == nil {
		l.Swarm = map[string]*TaskTally{}
	}
	t := l.Swarm[session]
	if t == nil {
		t = &TaskTally{}
		l.Swarm[session] = t
	}
	t.Usage = t.Usage.Add(u)
	t.Updated = now
	return t.Usage.Budgeted()
}

// SwarmSpent returns the budgeted total of a named swarm session in this
// ledger.
func (l *Ledger) SwarmSpent(session string) int64 {
	if t := l.Swarm[session]; t != nil {
		return t.Usage.Budgeted()
	}
	return 0
}

// Spent returns the budgeted totals of task and of the session.
func (l *Ledger) Spent(task string) (taskTokens, sessionTokens int64) {
	if t := l.Tasks[task]; t != nil && task != "" {
		taskTokens = t.Usage.Budgeted()
	}
	return taskTokens, l.Session.Usage.Budgeted()
}

// TaskNames lists the tasks in name order.
func (l *Ledger) TaskNames() []string {
	names := make([]string, 0, len(l.Tasks))
	for n := range l.Tasks {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func (l *Ledger) task(name string) *TaskTally {
	if l.Tasks == nil {
		l.Tasks = map[string]*TaskTally{}
	}
	t := l.Tasks[name]
	if t == nil {
		t = &TaskTally{}
		l.Tasks[name] = t
	}
	return t
}

// SessionTallyVersion is the format version of a hook session file.
const SessionTallyVersion = 1

// SessionTally is the hook's budget state of one Claude Code session: its
// tool calls and the tokens read from its transcripts so far.
type SessionTally struct {
	Version   int                   `json:"version"`
	SessionID string                `json:"session_id"`
	ToolCalls int64                 `json:"tool_calls"`
	Files     map[string]*FileTally `json:"files,omitempty"` // transcript path -> tally
	Exhausted Kind                  `json:"exhausted,omitempty"`
	Updated   time.Time             `json:"updated"`
}

// Check reports a session file this version cannot use.
func (s *SessionTally) Check() error {
	if s.Version > SessionTallyVersion {
		return fmt.Errorf("format version %d is newer than this swarm-guard understands (%d); upgrade swarm-guard", s.Version, SessionTallyVersion)
	}
	return nil
}

// File returns the tally of one transcript file, creating it.
func (s *SessionTally) File(path string) *FileTally {
	if s.Files == nil {
		s.Files = map[string]*FileTally{}
	}
	f := s.Files[path]
	if f == nil {
		f = &FileTally{}
		s.Files[path] = f
	}
	return f
}

// Usage is the session's tokens over all its transcript files.
func (s *SessionTally) Usage() Usage {
	var u Usage
	for _, f := range s.Files {
		u = u.Add(f.Usage)
	}
	return u
}

// HookLimits are the policy's per-session limits; 0 means no limit.
type HookLimits struct {
	ToolCalls int64
	Tokens    int64
}

// Check returns the first limit the session has passed, or nil.
func (h HookLimits) Check(s *SessionTally) *Exceeded {
	if h.ToolCalls > 0 && s.ToolCalls > h.ToolCalls {
		return &Exceeded{Budget: ToolCalls, Limit: h.ToolCalls, Used: s.ToolCalls}
	}
	if h.Tokens > 0 {
		if used := s.Usage().Budgeted(); used > h.Tokens {
			return &Exceeded{Budget: HookTokens, Limit: h.Tokens, Used: used}
		}
	}
	return nil
}
