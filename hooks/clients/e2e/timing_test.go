package e2e

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"
)

// timingCalls are ordinary shell calls of an agent at work: reads, git
// queries and small writes inside the worktree, none denied.
var timingCalls = []string{
	`shell {"command": "ls"}`,
	`shell {"command": "git status --short"}`,
	`shell {"command": "cat README.md"}`,
	`shell {"command": "echo x >> notes.txt"}`,
	`shell {"command": "git diff --stat"}`,
	`shell {"command": "git log --oneline -1"}`,
}

// TestTiming runs the same shell calls in each client with no hooks, with
// no-op hooks (`true` on the same events) and with swarm-guard's hooks,
// interleaved in the same run, and reports what swarm-guard adds per tool
// call over a no-op hook, and that as a multiple of what the no-op hook
// itself costs. A call's cost is the stand-in's view: from the end of the
// response that made the call to the request carrying its result. It
// asserts that every call ran; the figures are reported, never asserted
// (machines differ). SWARM_GUARD_E2E_ROUNDS sets the rounds (default 2;
// 0 skips the test).
func TestTiming(t *testing.T) {
	if os.Getenv(binEnv) == "" {
		t.Skipf("real-client test: run it with make e2e-clients (needs %s)", binEnv)
	}
	rounds := 2
	if n, err := strconv.Atoi(os.Getenv("SWARM_GUARD_E2E_ROUNDS")); err == nil {
		rounds = n
	}
	if rounds <= 0 {
		t.Skip("SWARM_GUARD_E2E_ROUNDS=0")
	}
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			path, why := clientPath(c)
			if path == "" {
				t.Skip(why)
			}
			t.Parallel()
			timeClient(t, c, path, rounds)
		})
	}
}

func timeClient(t *testing.T, c client, path string, rounds int) {
	modes := []struct {
		name string
		mode hookMode
	}{{"no hooks", hooksNone}, {"no-op hooks", hooksNoop}, {"swarm-guard", hooksGuard}}
	// best[mode][call]: each call's best time over the rounds (other
	// processes only ever add time; calls differ in cost, so a call is
	// compared with the same call).
	best := make([][]time.Duration, len(modes))
	for round := range rounds {
		for i := range modes {
			m := (i + round) % len(modes) // no configuration always runs first
			w := newWorld(t, path)
			configure(t, w, c, modes[m].mode)
			calls := parseCalls(t, w, c, timingCalls)
			res := runClient(t, w, c, calls, modes[m].mode, nil, nil)
			results, arrived := res.server.Results()
			for k := range calls {
				if !arrived[k] {
					t.Fatalf("%s: call %d got no result\n%s", modes[m].name, k+1, tail(res.output, 2000))
				}
			}
			gaps := res.server.Gaps()
			if len(gaps) != len(calls) {
				t.Fatalf("%s: %d call timings, want %d (results %q)", modes[m].name, len(gaps), len(calls), results)
			}
			if best[m] == nil {
				best[m] = gaps
				continue
			}
			for k, g := range gaps {
				best[m][k] = min(best[m][k], g)
			}
		}
	}
	var noopDiffs, addedDiffs []time.Duration
	for k := range timingCalls {
		noopDiffs = append(noopDiffs, best[1][k]-best[0][k])
		addedDiffs = append(addedDiffs, best[2][k]-best[1][k])
	}
	noop, added := median(noopDiffs), median(addedDiffs)
	ratio := "no ratio: the no-op hook cost nothing measurable in this run"
	if noop > 0 {
		ratio = fmt.Sprintf("%.1fx the no-op hook's cost", float64(added)/float64(noop))
	}
	line := fmt.Sprintf("shell call, best of %d rounds, median of %d calls: no hooks %s, no-op hooks %s, swarm-guard %s; "+
		"the no-op hook costs %s, swarm-guard adds %s over it = %s",
		rounds, len(timingCalls), ms(median(best[0])), ms(median(best[1])), ms(median(best[2])), ms(noop), ms(added), ratio)
	t.Logf("timing %s: %s", c.name, line)
	summaryMu.Lock()
	timings[c.name] = line
	summaryMu.Unlock()
}

var timings = map[string]string{} // client → its timing line, for the summary

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
