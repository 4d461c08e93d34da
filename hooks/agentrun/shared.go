package agentrun

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/ledger"
)

// sharedLedger is run's side of the task's and the swarm session's
// ledgers in the git remote (hooks/internal/ledger): it records this run's spend
// under the agent's own refs, fetches every other agent's, and adds theirs
// to the task's and the session's totals. A nil *sharedLedger is sharing
// switched off; every method is then a no-op.
type sharedLedger struct {
	l         *ledger.Ledger // the task's; nil without --task
	sl        *ledger.Ledger // the session's; nil without --session
	ls        []*ledger.Ledger
	interval  time.Duration // sync when this much time has passed (0: never for time)
	turns     int64         // sync when this many turns have passed (0: never for turns)
	others    int64         // the latest known spend on the task of agents that did not run in this clone
	othersS   int64         // the same for the session
	recorded  int64         // this run's tokens already in the agent's ref
	turnsRec  int64         // this run's turns already in the agent's ref
	unpushed  bool          // records not on the remote yet
	lastSync  time.Time
	lastTurns int64 // the run's turns at the last sync
	syncs     int64 // syncs this run performed
	failures  int   // syncs in a row that could not reach the remote
	skip      int   // due syncs still to skip: the backoff after failures
	warned    bool
	rejected  bool // the remote refused the agent's own ref: sharing stopped, reported once
	// warnedBroken: a broken record (not counted) was reported.
	warnedBroken bool
}

// maxBackoffSyncs caps the backoff: after failures, every 2nd, 4th, ...
// and at most every 32nd due sync tries the remote.
const maxBackoffSyncs = 32

// openShared starts sharing when the run has a task or a swarm session
// and the clone has the policy's remote, and syncs once before anything
// starts: records an earlier run could not push go first. Only a remote
// that refuses this agent's own ref stops the run here.
func (r *runner) openShared(root string) error {
	secs, turns := r.pol.Budget.SyncSeconds, r.pol.Budget.SyncTurns
	remote := r.pol.Budget.SyncRemote
	if r.f.Task == "" && r.f.Session == "" || r.repo == nil || secs <= 0 && turns <= 0 || remote == "" || !ledger.HasRemote(root, remote) {
		return nil
	}
	s := &sharedLedger{interval: time.Duration(secs) * time.Second, turns: turns, unpushed: true}
	if r.f.Task != "" {
		s.l = &ledger.Ledger{Dir: root, Remote: remote, Task: r.f.Task, Session: r.f.Session, Agent: r.agentID}
		s.ls = append(s.ls, s.l)
	}
	if r.f.Session != "" {
		s.sl = &ledger.Ledger{Dir: root, Remote: remote, Task: r.f.Task, Session: r.f.Session, BySession: true, Agent: r.agentID}
		s.ls = append(s.ls, s.sl)
	}
	r.shared = s
	return s.sync(r.c.Now(), 0, 0, r.c.Stderr)
}

// setSession names the budget session in the task's records, once run
// knows it (the machine's session, when the run names no swarm session).
func (s *sharedLedger) setSession(id string) {
	if s != nil && s.l != nil {
		s.l.Session = id
	}
}

func (s *sharedLedger) othersSpent() int64 {
	if s == nil {
		return 0
	}
	return s.others
}

func (s *sharedLedger) othersSessionSpent() int64 {
	if s == nil {
		return 0
	}
	return s.othersS
}

// maybeSync syncs when the interval has passed: sync_seconds since the
// last sync, or sync_turns turns of this run. spent and turns are the
// run's totals so far.
func (s *sharedLedger) maybeSync(now time.Time, spent, turns int64, warn io.Writer) error {
	if s == nil {
		return nil
	}
	due := s.interval > 0 && now.Sub(s.lastSync) >= s.interval || s.turns > 0 && turns-s.lastTurns >= s.turns
	if !due {
		return nil
	}
	if s.skip > 0 { // backing off from an unreachable remote
		s.skip--
		s.lastSync, s.lastTurns = now, turns
		return nil
	}
	return s.sync(now, spent, turns, warn)
}

// end is the last sync of a run; it says so when records stay behind.
func (s *sharedLedger) end(now time.Time, spent, turns int64, warn io.Writer) error {
	if s == nil {
		return nil
	}
	err := s.sync(now, spent, turns, warn)
	if err == nil && s.unpushed {
		fmt.Fprintf(warn, "swarm-guard run: this run's usage records are not on %s yet; the next swarm-guard run of this agent in this clone pushes them\n", s.ls[0].Remote)
	}
	return err
}

// syncNow records and pushes what is left, at the end of the run, and
// before another attempt starts.
func (s *sharedLedger) syncNow(now time.Time, spent, turns int64, warn io.Writer) error {
	if s == nil {
		return nil
	}
	return s.sync(now, spent, turns, warn)
}

// sync records this run's new spend, pushes the agent's ref and fetches
// the others'. An unreachable remote is a warning, once per run: the
// budget is enforced from the local ledger and the last-known totals, and
// the records are pushed at the next sync that reaches it. A refused push
// of the agent's own ref stops the run: someone else wrote it.
func (s *sharedLedger) sync(now time.Time, spent, turns int64, warn io.Writer) error {
	if s.rejected {
		return nil
	}
	s.lastSync, s.lastTurns = now, turns
	s.syncs++
	if delta := spent - s.recorded; delta > 0 || turns > s.turnsRec {
		for _, l := range s.ls {
			if _, err := l.Add(max(delta, 0), max(turns-s.turnsRec, 0), now); err != nil {
				return fmt.Errorf("cannot record the spend in %s: %v", l.OwnRef(), err)
			}
		}
		s.recorded, s.turnsRec, s.unpushed = spent, turns, true
	}
	var problem error
	if s.unpushed {
		if err := ledger.PushAll(s.ls...); err != nil {
			if errors.Is(err, ledger.ErrRejected) {
				s.rejected = true
				return fmt.Errorf("stopped sharing the budgets: %v; another clone runs an agent with this id (%s): give each agent its own SWARM_GUARD_AGENT_ID", err, s.ls[0].Agent)
			}
			problem = err
		} else {
			s.unpushed = false
		}
	}
	if problem != nil {
		// The remote is out of reach: no second try in this sync.
	} else if err := ledger.FetchAll(s.ls...); err != nil {
		problem = err
	} else {
		for _, l := range s.ls {
			others, _, err := l.Others()
			if err != nil && !errors.Is(err, ledger.ErrBroken) {
				problem = err
				break
			}
			if err != nil && !s.warnedBroken {
				s.warnedBroken = true
				fmt.Fprintf(warn, "swarm-guard run: %v\n", err)
			}
			if l.BySession {
				s.othersS = others
			} else {
				s.others = others
			}
		}
	}
	if problem == nil {
		s.failures, s.skip = 0, 0
		return nil
	}
	s.failures++
	s.skip = min(1<<min(s.failures, 5), maxBackoffSyncs) - 1
	if !s.warned {
		s.warned = true
		msg, _, _ := strings.Cut(problem.Error(), "\n")
		fmt.Fprintf(warn, "swarm-guard run: the shared ledger is out of reach (%v); enforcing from this clone's ledger and the last known totals, and retrying with backoff\n", msg)
	}
	return nil
}
