package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// timingCalls are ten ordinary Bash calls of an agent at work: reads,
// git queries and small writes inside the worktree, none denied.
var timingCalls = []string{
	`Bash {"command": "ls"}`,
	`Bash {"command": "git status --short"}`,
	`Bash {"command": "cat README.md"}`,
	`Bash {"command": "echo x >> notes.txt"}`,
	`Bash {"command": "grep -n demo README.md"}`,
	`Bash {"command": "git diff --stat"}`,
	`Bash {"command": "wc -l README.md notes.txt"}`,
	`Bash {"command": "printf 'a\\n' > out.txt"}`,
	`Bash {"command": "git log --oneline -1"}`,
	`Bash {"command": "ls -la"}`,
}

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

// TestTiming runs the same ten Bash calls through the client with no hooks,
// with no-op hooks and with swarm-guard's installed hooks, interleaved in
// the same run, and reports what swarm-guard adds per tool call over a
// no-op hook as a ratio to what the no-op hook itself costs (goal: ≤ 1).
// A call's cost is the stand-in's view: from the end of the tool_use
// response to the request that carries the result, i.e. the client's
// whole handling of the call, hooks included. It asserts that every call
// ran; the numbers are reported, never asserted (machines differ).
// SWARM_GUARD_E2E_ROUNDS sets the rounds (default 6).
func TestTiming(t *testing.T) {
	claude := clientPath(t)
	rounds := 6
	if n, err := strconv.Atoi(os.Getenv("SWARM_GUARD_E2E_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	w := newWorld(t, claude)
	w.install(t)
	settings := filepath.Join(w.Work, ".claude", "settings.json")
	installed, err := os.ReadFile(settings)
	must(t, err)
	configs := []struct {
		name     string
		settings string
	}{
		{"no hooks", "{}\n"},
		{"no-op hooks", noopHooks},
		{"swarm-guard", string(installed)},
		// The binary by absolute path in exec form, no shell: what the
		// lookup's one shell costs.
		{"swarm-guard direct", directHooks(w.Vars["SG"])},
	}
	if os.Getenv("SWARM_GUARD_E2E_TIMING_EARLIER") != "" {
		configs = append(configs, struct {
			name     string
			settings string
		}{"earlier launcher", earlierLauncher(string(installed))})
	}
	calls := w.parseCalls(t, timingCalls)
	// gaps[round][config][call]
	gaps := make([][][]time.Duration, rounds)
	// The client's own timing of each hook process, from its debug log:
	// hookTimes[config][event].
	hookTimes := make([]map[string][]time.Duration, len(configs))
	for c := range hookTimes {
		hookTimes[c] = map[string][]time.Duration{}
	}
	debugLog := filepath.Join(w.Root, "client-debug.log")
	for round := range rounds {
		gaps[round] = make([][]time.Duration, len(configs))
		for i := range configs {
			// Rotate the order so that no configuration always runs first.
			c := (i + round) % len(configs)
			must(t, os.WriteFile(settings, []byte(configs[c].settings), 0o644))
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
					t.Fatalf("%s: call %d did not run cleanly (arrived=%v): %q\n%s", configs[c].name, k+1, arrived[k], results[k].Told(), tail(res.output, 2000))
				}
			}
			if res.exitCode != 0 {
				t.Fatalf("%s: client exit %d\n%s", configs[c].name, res.exitCode, tail(res.output, 2000))
			}
			if g := res.server.Gaps(); len(g) != len(calls) {
				t.Fatalf("%s: %d call timings, want %d", configs[c].name, len(g), len(calls))
			}
			gaps[round][c] = res.server.Gaps()
		}
	}
	if os.Getenv("SWARM_GUARD_E2E_DEBUG") != "" {
		for r, g := range gaps {
			for c := range configs {
				t.Logf("round %d %-12s %v", r+1, configs[c].name, g[c])
			}
		}
	}
	// Other processes on the machine only ever add time, and calls differ
	// in cost (git status is not ls): take each call's best time over the
	// rounds, per configuration, and compare a call with the same call.
	best := make([][]time.Duration, len(configs))
	for c := range configs {
		for k := range calls {
			b := gaps[0][c][k]
			for _, g := range gaps[1:] {
				b = min(b, g[c][k])
			}
			best[c] = append(best[c], b)
		}
	}
	var noopDiffs, addedDiffs []time.Duration
	for k := range calls {
		noopDiffs = append(noopDiffs, best[1][k]-best[0][k])
		addedDiffs = append(addedDiffs, best[2][k]-best[1][k])
	}
	noop, added := median(noopDiffs), median(addedDiffs)
	ratio := "no ratio: the no-op hook cost nothing measurable in this run"
	if noop > 0 {
		ratio = fmt.Sprintf("%.1f× the no-op hook's cost (goal ≤ 1×)", float64(added)/float64(noop))
	}
	t.Logf("timing: Bash tool call in claude %s, best of %d rounds per call, median over %d calls: no hooks %s, no-op hooks %s, swarm-guard %s; "+
		"no-op hook cost %s; swarm-guard adds %s over no-op = %s",
		clientVersion(claude), rounds, len(calls), ms(median(best[0])), ms(median(best[1])), ms(median(best[2])),
		ms(noop), ms(added), ratio)
	var directDiffs []time.Duration
	for k := range calls {
		directDiffs = append(directDiffs, best[3][k]-best[1][k])
	}
	if direct := median(directDiffs); noop > 0 {
		t.Logf("timing: swarm-guard by absolute path in exec form (no shell, no lookup): %s per call, adds %s over no-op = %.1f× the no-op hook's cost",
			ms(median(best[3])), ms(direct), float64(direct)/float64(noop))
	}
	if len(configs) > 4 && noop > 0 {
		var diffs []time.Duration
		for k := range calls {
			diffs = append(diffs, best[4][k]-best[1][k])
		}
		t.Logf("timing: the earlier launcher (a second sh -c): %s per call, adds %s over no-op = %.1f× the no-op hook's cost",
			ms(median(best[4])), ms(median(diffs)), float64(median(diffs))/float64(noop))
	}
	var byHook []string
	sum := make([]time.Duration, len(configs)) // Pre + Post medians
	for c := 1; c < len(configs); c++ {
		for _, ev := range []string{"PreToolUse", "PostToolUse"} {
			if d := hookTimes[c][ev]; len(d) > 0 {
				byHook = append(byHook, fmt.Sprintf("%s %s %s", configs[c].name, ev, ms(median(d))))
				sum[c] += median(d)
			}
		}
	}
	if len(byHook) > 0 {
		// The same ratio by the client's own clock of the hook processes:
		// steadier under load than the whole call, blind to the client's
		// work around a hook.
		logRatio := ""
		if sum[1] > 0 && sum[2] > 0 {
			logRatio = fmt.Sprintf("; by these, swarm-guard adds %s over no-op = %.1f× the no-op hooks' %s",
				ms(sum[2]-sum[1]), float64(sum[2]-sum[1])/float64(sum[1]), ms(sum[1]))
		}
		t.Logf("timing: the client's own timing of each hook process (debug log, median): %s%s", strings.Join(byHook, ", "), logRatio)
	}
}

// hookFinished is the client's debug-log line for a finished command hook,
// e.g. "Hooks: PreToolUse:Bash [true] finished with status 0 (7ms)"; the
// command may itself hold brackets (the installed lookup's [ -x ... ]).
var hookFinished = regexp.MustCompile(`Hooks: (PreToolUse|PostToolUse):Bash \[.*\] finished with status \d+ \((\d+)ms\)`)

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond)) }
