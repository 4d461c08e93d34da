package e2e

import (
	"fmt"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
	"github.com/swarm-guard/swarm-guard/hooks/internal/machine"
)

// displayNames are the clients' names in the results file.
var displayNames = map[string]string{
	"codex": "Codex", "gemini": "Gemini CLI", "copilot": "Copilot CLI", "opencode": "opencode", "qwen": "Qwen Code", "droid": "Droid",
}

// TestTiming runs the same shell calls (e2eharness.TimingCommands) in each client with no-op hooks
// (`true` on the same events) and with swarm-guard's hooks, one run of
// each per round, the first in turn (e2eharness.Measure), and reports
// what swarm-guard adds per tool call over the no-op hook: the median and
// interquartile range of the differences of the same call in the same
// round. A call's cost is the stand-in's view: from the end of the
// response that made the call to the request carrying its result. The
// clients are timed one after the other, never two at once: on a 2-core
// machine a second client's start-up is what a hook's milliseconds drown
// in. It asserts that every call ran; the figures are reported, never
// asserted (machines differ), and written into
// $SWARM_GUARD_E2E_COST_FILE when it is set. SWARM_GUARD_E2E_ROUNDS sets
// the rounds (default 3; 0 skips the test).
func TestTiming(t *testing.T) {
	if os.Getenv(binEnv) == "" {
		t.Skipf("real-client test: run it with make e2e-clients (needs %s)", binEnv)
	}
	rounds := e2eharness.Rounds(3)
	if rounds == 0 {
		t.Skip(e2eharness.RoundsEnv + "=0")
	}
	started, loadBefore := time.Now(), machine.Load()
	var rows []e2eharness.CostRow
	for _, c := range clients {
		t.Run(c.name, func(t *testing.T) {
			path, why := clientPath(c)
			if path == "" {
				t.Skip(why)
			}
			rows = append(rows, timeClient(t, c, path, rounds))
		})
	}
	if file := os.Getenv(e2eharness.CostFileEnv); file != "" && len(rows) > 0 {
		must(t, e2eharness.WriteCostSection(file, e2eharness.CostSection{
			Key: "clients", Title: "Codex, Gemini CLI, Copilot CLI, opencode, Qwen Code, Droid (make e2e-clients)",
			Started: started, LoadBefore: loadBefore, Rounds: rounds, Variants: []string{"no-op hooks", "swarm-guard"},
			Calls: e2eharness.TimingCommands, Rows: rows,
		}))
		t.Logf("timing: wrote %s", file)
	}
}

func timeClient(t *testing.T, c client, path string, rounds int) e2eharness.CostRow {
	variant := func(name string, mode hookMode) e2eharness.Variant {
		return e2eharness.Variant{Name: name, Run: func(testing.TB) []time.Duration {
			w := newWorld(t, path)
			configure(t, w, c, mode)
			var calls []Call
			for _, cmd := range e2eharness.TimingCommands {
				calls = append(calls, c.shell(cmd))
			}
			res := runClient(t, w, c, calls, mode, nil, nil)
			results, arrived := res.server.Results()
			for k := range calls {
				if !arrived[k] {
					t.Fatalf("%s: call %d got no result\n%s", name, k+1, tail(res.output, 2000))
				}
			}
			gaps := res.server.Gaps()
			if len(gaps) != len(calls) {
				t.Fatalf("%s: %d call timings, want %d (results %q)", name, len(gaps), len(calls), results)
			}
			if os.Getenv("SWARM_GUARD_E2E_DEBUG") != "" {
				t.Logf("%-12s %v", name, gaps)
			}
			return gaps
		}}
	}
	m := e2eharness.Measure(t, rounds, []e2eharness.Variant{variant("no-op hooks", hooksNoop), variant("swarm-guard", hooksGuard)})
	added := m.Added(1, 0)
	line := fmt.Sprintf("shell call, %d rounds of %d calls: no-op hooks %s, swarm-guard %s; swarm-guard adds %s; median of each round %s",
		rounds, len(e2eharness.TimingCommands), e2eharness.Ms(m.Call(0)), e2eharness.Ms(m.Call(1)), added, added.Rounds())
	t.Logf("timing %s: %s", c.name, line)
	summaryMu.Lock()
	timings[c.name] = line
	summaryMu.Unlock()
	return e2eharness.CostRow{Client: displayNames[c.name], Version: installedVersion(path), NoopCall: m.Call(0), GuardCall: m.Call(1), Added: added}
}

var timings = map[string]string{} // client → its timing line, for the summary

// packageVersion finds the version in a path make e2e-clients installed,
// e.g. .../openai-codex@0.169.0/node_modules/.bin/codex.
var packageVersion = regexp.MustCompile(`@(\d+\.\d+\.\d+[\w.-]*)/`)

// installedVersion is the client's version as its install directory
// names it, "unknown" for a client installed elsewhere.
func installedVersion(path string) string {
	if m := packageVersion.FindStringSubmatch(path); m != nil {
		return m[1]
	}
	return "unknown"
}
