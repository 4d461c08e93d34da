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

// collect runs a helper and returns its lines.
func collect(t *testing.T, steps string, lim Limits, stopAt int) (Result, []string, string) {
	t.Helper()
	var lines []string
	var stderr bytes.Buffer
	c := helperCommand(steps)
	c.Stderr = &stderr
	res, err := Run(context.Background(), c, lim, func(line []byte) bool {
		lines = append(lines, string(line))
		return stopAt > 0 && len(lines) == stopAt
	})
	if err != nil {
		t.Fatal(err)
	}
	return res, lines, stderr.String()
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
	res, lines, _ := collect(t, "lines 1 ; spawn "+pidfile+" ; hang", Limits{IdleTimeout: 200 * time.Millisecond, Grace: 2 * time.Second}, 0)
	if res.Stopped != StopIdle || res.ExitCode != -1 || res.Signal != "SIGINT" {
		t.Fatalf("result %+v, want an idle stop that SIGINT ended", res)
	}
	if len(lines) != 1 {
		t.Fatalf("lines %q", lines)
	}
	requireGone(t, pidFrom(t, pidfile))
}

func TestOutputKeepsIdleAway(t *testing.T) {
	t.Parallel()
	// 8 lines 100ms apart: never 300ms without output.
	steps := strings.Repeat("lines 1 ; wait 100ms ; ", 8) + "exit 0"
	res, lines, _ := collect(t, steps, Limits{IdleTimeout: 300 * time.Millisecond}, 0)
	if res.Stopped != NotStopped || len(lines) != 8 {
		t.Fatalf("result %+v after %d lines", res, len(lines))
	}
}

func TestTimeoutEscalatesToSIGKILL(t *testing.T) {
	t.Parallel()
	pidfile := filepath.Join(t.TempDir(), "gc.pid")
	grace := 300 * time.Millisecond
	res, _, _ := collect(t, "ignore ; spawn "+pidfile+" stubborn ; lines 1 ; hang", Limits{Timeout: 300 * time.Millisecond, Grace: grace}, 0)
	if res.Stopped != StopTimeout || res.LastSignal != syscall.SIGKILL || res.Signal != "SIGKILL" {
		t.Fatalf("result %+v, want a timeout that needed SIGKILL", res)
	}
	if res.StopLatency < grace*9/10 || res.StopLatency > grace+3*time.Second {
		t.Fatalf("stop took %v with a grace of %v", res.StopLatency, grace)
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
	res, err := Run(ctx, helperCommand("lines 1 ; hang"), Limits{Grace: time.Second}, func([]byte) bool {
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
	// SIGTERM stops it; SIGKILL follows only on a machine too loaded to
	// let it die within half the grace period.
	if res.Stopped != NotStopped || res.ExitCode != 0 || !res.Orphans || (res.LastSignal != syscall.SIGTERM && res.LastSignal != syscall.SIGKILL) {
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
