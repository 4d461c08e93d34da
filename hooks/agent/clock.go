package agent

import "time"

// Clock tells the time the limits are measured in: the timeout, the idle
// timeout and the grace period's SIGTERM and SIGKILL. Limits.Clock nil is
// the real clock; a test passes one it moves by hand, so that no assertion
// depends on how fast a loaded machine runs. The supervisor's own polling
// (is the process group gone yet) stays on the real clock: it decides
// nothing, it only notices.
type Clock interface {
	Now() time.Time
	NewTimer(d time.Duration) Timer
}

// Timer is the part of *time.Timer the supervisor uses.
type Timer interface {
	C() <-chan time.Time
	Stop() bool
	Reset(d time.Duration) bool
}

// realClock is the wall clock.
type realClock struct{}

func (realClock) Now() time.Time                 { return time.Now() }
func (realClock) NewTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

type realTimer struct{ t *time.Timer }

func (r realTimer) C() <-chan time.Time        { return r.t.C }
func (r realTimer) Stop() bool                 { return r.t.Stop() }
func (r realTimer) Reset(d time.Duration) bool { return r.t.Reset(d) }

// since is the time elapsed on c since t.
func since(c Clock, t time.Time) time.Duration { return c.Now().Sub(t) }
