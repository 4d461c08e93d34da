package agent

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a Clock the test moves by hand (Advance): a timer fires
// only when the test says the time has come, however loaded the machine.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
	armed  chan struct{} // a token each time a timer is armed
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Unix(1_000_000, 0), armed: make(chan struct{}, 64)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(d time.Duration) Timer {
	t := &fakeTimer{c: c, ch: make(chan time.Time, 1)}
	t.Reset(d)
	return t
}

// Advance moves the clock by d and fires every timer then due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	for _, t := range c.timers {
		if t.active && !t.at.After(c.now) {
			t.active = false
			select {
			case t.ch <- c.now:
			default:
			}
		}
	}
}

// waitArmed waits until n more timers have been armed. The real-time limit
// only keeps a broken supervisor from hanging the test; it decides nothing.
func (c *fakeClock) waitArmed(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-c.armed:
		case <-time.After(30 * time.Second):
			t.Fatal("the supervisor armed no timer")
		}
	}
}

type fakeTimer struct {
	c      *fakeClock
	ch     chan time.Time
	at     time.Time
	active bool
}

func (t *fakeTimer) C() <-chan time.Time { return t.ch }

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := t.active
	t.active = false
	return was
}

func (t *fakeTimer) Reset(d time.Duration) bool {
	t.c.mu.Lock()
	was := t.active
	t.at, t.active = t.c.now.Add(d), true
	if !was {
		t.c.timers = append(t.c.timers, t)
	}
	t.c.mu.Unlock()
	t.c.armed <- struct{}{}
	return was
}
