package agent

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// collect runs a helper and returns its lines. Its limits run on a clock
// the test moves by hand (fakeClock), unless lim names one.
func collect(t *testing.T, steps string, lim Limits, stopAt int) (Result, []string, string) {
	t.Helper()
	if lim.Clock == nil {
		lim.Clock = newFakeClock()
	}
	r := start(t, steps, lim, func(lines []string) bool { return stopAt > 0 && len(lines) == stopAt })
	res := <-r.done
	return res, r.lines, r.stderr.String()
}

// running is a helper under Run in the background.
type running struct {
	lines  []string // safe to read once done delivered
	stderr bytes.Buffer
	line   chan int // the number of lines so far, after each line
	done   chan Result
}

// start runs a helper in the background; stop is asked after each line.
func start(t *testing.T, steps string, lim Limits, stop func(lines []string) bool) *running {
	t.Helper()
	r := &running{line: make(chan int, 1024), done: make(chan Result, 1)}
	c := helperCommand(steps)
	c.Stderr = &r.stderr
	go func() {
		res, err := Run(context.Background(), c, lim, func(line []byte) bool {
			r.lines = append(r.lines, string(line))
			r.line <- len(r.lines)
			return stop(r.lines)
		})
		if err != nil {
			t.Error(err)
		}
		r.done <- res
	}()
	return r
}

// waitLines waits until the helper has printed n lines; the real-time
// limit only keeps a broken helper from hanging the test.
func (r *running) waitLines(t *testing.T, n int) {
	t.Helper()
	for {
		select {
		case got := <-r.line:
			if got >= n {
				return
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("the helper printed fewer than %d lines", n)
		}
	}
}

func TestRunDeliversLinesAndExitCode(t *testing.T) {
	t.Parallel()
	res, lines, stderr := collect(t, "lines 3 ; long 200000 ; err oops ; partial ; exit 7", Limits{}, 0)
	if res.ExitCode != 7 || res.Stopped != NotStopped || res.LastSignal != 0 || res.Orphans {
		t.Fatalf("result %+v", res)
	}
	if len(lines) != 5 || lines[0] != "line 1\n" || lines[2] != "line 3\n" || len(lines[3]) != 200001 || lines[4] != "no newline" {
		t.Fatalf("got %d lines: %q...", len(lines), lines[:min(3, len(lines))])
	}
	if stderr != "oops\n" {
		t.Fatalf("stderr %q", stderr)
	}
}

func TestIdleTimeoutStopsTheWholeGroup(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "gc.pid")
	clock := newFakeClock()
	r := start(t, "spawn "+pidfile+" ; lines 1 ; hang", Limits{IdleTimeout: 200 * time.Millisecond, Grace: 2 * time.Second, Clock: clock}, func([]string) bool { return false })
	r.waitLines(t, 1)     // the grandchild is ready
	clock.waitArmed(t, 1) // the idle timer
	pid := pidFrom(t, pidfile)
	clock.Advance(199 * time.Millisecond)
	clock.Advance(time.Millisecond)
	res := <-r.done
	if res.Stopped != StopIdle || res.ExitCode != -1 || res.Signal != "SIGINT" || res.LastSignal != syscall.SIGINT {
		t.Fatalf("result %+v, want an idle stop that SIGINT ended", res)
	}
	if len(r.lines) != 1 {
		t.Fatalf("lines %q", r.lines)
	}
	requireGone(t, pid)
}

// Output keeps the idle timeout away: 8 lines 100 ms apart on the clock
// the limits run on are never 300 ms without output.
func TestOutputKeepsIdleAway(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	var lines []string
	c := helperCommand("lines 8 ; exit 0")
	res, err := Run(context.Background(), c, Limits{IdleTimeout: 300 * time.Millisecond, Clock: clock}, func(line []byte) bool {
		lines = append(lines, string(line))
		clock.Advance(100 * time.Millisecond) // the next line comes 100 ms later
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Stopped != NotStopped || len(lines) != 8 || res.Duration != 800*time.Millisecond {
		t.Fatalf("result %+v after %d lines, want no stop after 8 lines and 800 ms", res, len(lines))
	}
	// The same helper silent for 300 ms after its first line is stopped.
	clock = newFakeClock()
	r := start(t, "lines 1 ; hang", Limits{IdleTimeout: 300 * time.Millisecond, Grace: time.Second, Clock: clock}, func([]string) bool { return false })
	r.waitLines(t, 1)
	clock.waitArmed(t, 1)
	clock.Advance(300 * time.Millisecond)
	if res := <-r.done; res.Stopped != StopIdle {
		t.Fatalf("result %+v, want an idle stop", res)
	}
}

func TestTimeoutEscalatesToSIGKILL(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "gc.pid")
	grace := 300 * time.Millisecond
	clock := newFakeClock()
	r := start(t, "ignore ; spawn "+pidfile+" stubborn ; lines 1 ; hang", Limits{Timeout: 300 * time.Millisecond, Grace: grace, Clock: clock}, func([]string) bool { return false })
	r.waitLines(t, 1) // signals are ignored and the grandchild is ready
	clock.waitArmed(t, 1)
	clock.Advance(300 * time.Millisecond) // the timeout: SIGINT, ignored
	clock.waitArmed(t, 2)                 // the grace period's SIGTERM and SIGKILL
	clock.Advance(grace / 2)              // SIGTERM, ignored
	clock.Advance(grace / 2)              // SIGKILL
	res := <-r.done
	if res.Stopped != StopTimeout || res.LastSignal != syscall.SIGKILL || res.Signal != "SIGKILL" {
		t.Fatalf("result %+v, want a timeout that needed SIGKILL", res)
	}
	if res.StopLatency != grace {
		t.Fatalf("stop took %v with a grace of %v: SIGKILL comes at its end", res.StopLatency, grace)
	}
	requireGone(t, pidFrom(t, pidfile))
}

func TestStopRequestedByTheLineFunc(t *testing.T) {
	t.Parallel()
	res, lines, _ := collect(t, "lines 3 ; hang", Limits{Grace: time.Second}, 2)
	if res.Stopped != StopRequested || len(lines) < 2 {
		t.Fatalf("result %+v after %q", res, lines)
	}
}

func TestCancel(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	var once sync.Once
	res, err := Run(ctx, helperCommand("lines 1 ; hang"), Limits{Grace: time.Second, Clock: newFakeClock()}, func([]byte) bool {
		once.Do(cancel)
		return false
	})
	if err != nil || res.Stopped != StopCanceled {
		t.Fatalf("result %+v, %v", res, err)
	}
}

func TestOrphansAreStopped(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "gc.pid")
	res, _, _ := collect(t, "spawn "+pidfile+" ; lines 1 ; exit 0", Limits{Grace: time.Second}, 0)
	// SIGTERM stops it; the clock the grace period runs on stands still,
	// so SIGKILL never comes.
	if res.Stopped != NotStopped || res.ExitCode != 0 || !res.Orphans || res.LastSignal != syscall.SIGTERM {
		t.Fatalf("result %+v, want a normal exit and its orphan stopped", res)
	}
	requireGone(t, pidFrom(t, pidfile))
}

func TestStartFailure(t *testing.T) {
	t.Parallel()
	_, err := Run(context.Background(), Command{Path: "/nonexistent/agent"}, Limits{}, func([]byte) bool { return false })
	if err == nil || !strings.Contains(err.Error(), "/nonexistent/agent") {
		t.Fatalf("err = %v", err)
	}
}

func TestScrubEnv(t *testing.T) {
	env := []string{"PATH=/bin", "HOME=/h", "PWD=/w", "GITHUB_TOKEN=x", "AWS_REGION=eu", "DB_PASSWORD=p", "PGPASSWORD=p",
		"STRIPE_SECRET_KEY=s", "ANTHROPIC_API_KEY=k", "SSH_AUTH_SOCK=/s", "GIT_ASKPASS=/a", "npm_token=t", "MYSQL_PWD=p", "KEEP=1"}
	kept, removed := ScrubEnv(env, []string{"ANTHROPIC_API_KEY"})
	if got := strings.Join(kept, " "); got != "PATH=/bin HOME=/h PWD=/w ANTHROPIC_API_KEY=k SSH_AUTH_SOCK=/s GIT_ASKPASS=/a KEEP=1" {
		t.Errorf("kept %s", got)
	}
	if got := strings.Join(removed, " "); got != "GITHUB_TOKEN AWS_REGION DB_PASSWORD PGPASSWORD STRIPE_SECRET_KEY npm_token MYSQL_PWD" {
		t.Errorf("removed %s", got)
	}
	env = SetEnv([]string{"A=1", "B=2", "A=3"}, "A", "9")
	if strings.Join(env, " ") != "B=2 A=9" {
		t.Errorf("SetEnv: %q", env)
	}
}
