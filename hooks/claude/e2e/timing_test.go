package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/e2eharness"
	"github.com/swarm-guard/swarm-guard/hooks/internal/machine"
)

// noopHooks registers `true` for the same events and matcher as
// swarm-guard: the client's own cost of running a hook.
const noopHooks = `{"hooks": {
  "PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "true", "timeout": 30}]}],
  "PostToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "true", "timeout": 60}]}]
}}
`

// directHooks registers swarm-guard by absolute path in exec form
// ("command" plus "args": the client starts the binary itself, no shell)
// for the same events: the floor a machine-independent command can only
// approach, since finding the binary by the lookup rule takes a shell.
func directHooks(binary string) string {
	arg, _ := json.Marshal(binary)
	return strings.ReplaceAll(noopHooks, `"command": "true"`, `"command": `+string(arg)+`, "args": ["hook"]`)
}

// earlierLauncher is the hook command installs wrote before the launcher
// lost its second shell (the same script inside sh -c '...'), measured
// beside the current one when SWARM_GUARD_E2E_TIMING_EARLIER is set.
func earlierLauncher(installed string) string {
	var doc struct {
		Hooks map[string][]struct {
			Hooks []struct{ Command string }
		}
	}
	if json.Unmarshal([]byte(installed), &doc) != nil || len(doc.Hooks["PreToolUse"]) == 0 {
		return installed
	}
	current := doc.Hooks["PreToolUse"][0].Hooks[0].Command
	old, _ := json.Marshal("sh -c '" + current + "'")
	cur, _ := json.Marshal(current)
	return strings.ReplaceAll(installed, string(cur), string(old))
}

// TestTiming runs the same ten Bash calls (e2eharness.TimingCommands) through the client with no hooks,
// with no-op hooks, with swarm-guard's installed hooks and with
// swarm-guard by absolute path, one run of each per round, the first in
// turn (e2eharness.Measure), and reports what swarm-guard adds per tool
// call over a no-op hook: the median and interquartile range of the
// differences of the same call in the same round, and that median as a
// ratio to what the no-op hook itself costs over no hooks (goal: ≤ 1).
// A call's cost is the stand-in's view: from the end of the tool_use
// response to the request that carries the result, i.e. the client's
// whole handling of the call, hooks included. It asserts that every call
// ran; the numbers are reported, never asserted (machines differ), and
// written into $SWARM_GUARD_E2E_COST_FILE when it is set.
// SWARM_GUARD_E2E_ROUNDS sets the rounds (default 6; 0 skips it).
func TestTiming(t *testing.T) {
	claude := clientPath(t)
	rounds := e2eharness.Rounds(6)
	if rounds == 0 {
		t.Skip(e2eharness.RoundsEnv + "=0")
	}
	started, loadBefore := time.Now(), machine.Load()
	w := newWorld(t, claude)
	w.install(t)
	settings := filepath.Join(w.Work, ".claude", "settings.json")
	installed, err := os.ReadFile(settings)
	must(t, err)
	const (
		none = iota
		noop
		guard
		direct
		earlier
	)
	configs := []struct{ name, settings string }{
		none:  {"no hooks", "{}\n"},
		noop:  {"no-op hooks", noopHooks},
		guard: {"swarm-guard", string(installed)},
		// The binary by absolute path in exec form, no shell: what the
		// lookup's one shell costs.
		direct: {"swarm-guard direct", directHooks(w.Vars["SG"])},
	}
	if os.Getenv("SWARM_GUARD_E2E_TIMING_EARLIER") != "" {
		configs = append(configs, struct{ name, settings string }{"earlier launcher", earlierLauncher(string(installed))})
	}
	var calls []Call
	for _, cmd := range e2eharness.TimingCommands {
		input, _ := json.Marshal(map[string]string{"command": cmd})
		calls = append(calls, Call{Tool: "Bash", Input: input})
	}
	// The client's own timing of each hook process, from its debug log:
	// hookTimes[config][event].
	hookTimes := make([]map[string][]time.Duration, len(configs))
	debugLog := filepath.Join(w.Root, "client-debug.log")
	var variants []e2eharness.Variant
	for c, cfg := range configs {
		hookTimes[c] = map[string][]time.Duration{}
		variants = append(variants, e2eharness.Variant{Name: cfg.name, Run: func(testing.TB) []time.Duration {
			must(t, os.WriteFile(settings, []byte(cfg.settings), 0o644))
			os.Remove(debugLog)
			res := w.runClient(t, w.Work, calls, nil, []string{"--dangerously-skip-permissions", "--debug-file", debugLog}, nil)
			if log, err := os.ReadFile(debugLog); err == nil {
				for _, m := range hookFinished.FindAllStringSubmatch(string(log), -1) {
					d, _ := strconv.Atoi(m[2])
					hookTimes[c][m[1]] = append(hookTimes[c][m[1]], time.Duration(d)*time.Millisecond)
				}
			}
			results, arrived := res.server.Results()
			for k := range calls {
				if !arrived[k] || results[k].IsError {
					t.Fatalf("%s: call %d did not run cleanly (arrived=%v): %q\n%s", cfg.name, k+1, arrived[k], results[k].Told(), tail(res.output, 2000))
				}
			}
			if res.exitCode != 0 {
				t.Fatalf("%s: client exit %d\n%s", cfg.name, res.exitCode, tail(res.output, 2000))
			}
			gaps := res.server.Gaps()
			if len(gaps) != len(calls) {
				t.Fatalf("%s: %d call timings, want %d", cfg.name, len(gaps), len(calls))
			}
			if os.Getenv("SWARM_GUARD_E2E_DEBUG") != "" {
				t.Logf("%-18s %v", cfg.name, gaps)
			}
			return gaps
		}})
	}
	m := e2eharness.Measure(t, rounds, variants)
	added, noopCost := m.Added(guard, noop), m.Added(noop, none)
	ratio := "no ratio: the no-op hook cost nothing measurable in this run"
	if noopCost.Median > 0 {
		ratio = fmt.Sprintf("%.1f× the no-op hook's cost (goal ≤ 1×)", float64(added.Median)/float64(noopCost.Median))
	}
	version := clientVersion(claude)
	var notes []string
	note := func(format string, args ...any) {
		line := fmt.Sprintf(format, args...)
		t.Log("timing: " + line)
		notes = append(notes, line)
	}
	note("Bash tool call in claude %s, %d rounds, %d calls a run: no hooks %s, no-op hooks %s, swarm-guard %s; "+
		"the no-op hook costs %s over no hooks; swarm-guard adds %s over the no-op hook = %s",
		version, rounds, len(calls), e2eharness.Ms(m.Call(none)), e2eharness.Ms(m.Call(noop)), e2eharness.Ms(m.Call(guard)),
		noopCost, added, ratio)
	if d := m.Added(direct, noop); noopCost.Median > 0 {
		note("swarm-guard by absolute path in exec form (no shell, no lookup): %s per call, adds %s over the no-op hook = %.1f× the no-op hook's cost",
			e2eharness.Ms(m.Call(direct)), d, float64(d.Median)/float64(noopCost.Median))
	}
	if len(configs) > earlier && noopCost.Median > 0 {
		d := m.Added(earlier, noop)
		note("the earlier launcher (a second sh -c): %s per call, adds %s over the no-op hook = %.1f× the no-op hook's cost",
			e2eharness.Ms(m.Call(earlier)), d, float64(d.Median)/float64(noopCost.Median))
	}
	var byHook []string
	sum := make([]time.Duration, len(configs)) // Pre + Post medians
	for c := noop; c < len(configs); c++ {
		for _, ev := range []string{"PreToolUse", "PostToolUse"} {
			if d := hookTimes[c][ev]; len(d) > 0 {
				byHook = append(byHook, fmt.Sprintf("%s %s %s", configs[c].name, ev, e2eharness.Ms(e2eharness.Median(d))))
				sum[c] += e2eharness.Median(d)
			}
		}
	}
	if len(byHook) > 0 {
		// The same ratio by the client's own clock of the hook processes:
		// steadier under load than the whole call, blind to the client's
		// work around a hook.
		logRatio := ""
		if sum[noop] > 0 && sum[guard] > 0 {
			logRatio = fmt.Sprintf("; by these, swarm-guard adds %s over no-op = %.1f× the no-op hooks' %s",
				e2eharness.Ms(sum[guard]-sum[noop]), float64(sum[guard]-sum[noop])/float64(sum[noop]), e2eharness.Ms(sum[noop]))
		}
		note("the client's own timing of each hook process (debug log, median): %s%s", strings.Join(byHook, ", "), logRatio)
	}
	if path := os.Getenv(e2eharness.CostFileEnv); path != "" {
		sec := e2eharness.CostSection{
			Key: "claude-code", Title: "Claude Code (make e2e)", Started: started, LoadBefore: loadBefore, Rounds: rounds, Variants: m.Variants, Calls: e2eharness.TimingCommands,
			Rows:  []e2eharness.CostRow{{Client: "Claude Code", Version: version, NoopCall: m.Call(noop), GuardCall: m.Call(guard), Added: added}},
			Notes: notes,
		}
		must(t, e2eharness.WriteCostSection(path, sec))
		t.Logf("timing: wrote %s", path)
	}
}

// hookFinished is the client's debug-log line for a finished command hook,
// e.g. "Hooks: PreToolUse:Bash [true] finished with status 0 (7ms)"; the
// command may itself hold brackets (the installed lookup's [ -x ... ]).
var hookFinished = regexp.MustCompile(`Hooks: (PreToolUse|PostToolUse):Bash \[.*\] finished with status \d+ \((\d+)ms\)`)
