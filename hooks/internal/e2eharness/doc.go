// Package e2eharness is what the real-client end-to-end suites share:
// hooks/claude/e2e (Claude Code, make e2e) and hooks/clients/e2e (Codex,
// Gemini CLI, Copilot CLI, opencode, Qwen Code and Droid, make
// e2e-clients).
//
// Each suite drives a real client headless against a scripted model on
// 127.0.0.1 and keeps only what is its client's own: the wire formats its
// stand-in speaks, how the client is started and configured, and its
// scenario files. This package holds the rest:
//
//   - LoadScenarios reads a suite's testdata/*.txtar scenarios (options,
//     setup.sh, calls, expect, check.sh); each suite names its options and
//     reads its calls and expectations itself.
//   - Standin is the part of a stand-in that does not depend on the wire
//     API: it listens on 127.0.0.1 only, refuses and counts every request
//     for another host (it is also the clients' HTTP(S) proxy), and times
//     each scripted call from the end of the response that made it to the
//     request carrying its result. Told keeps what the model was told
//     about each call, listed in call order.
//   - NewWorld sets up one throwaway world with real git: a bare remote,
//     the agent's clone (and optionally another agent's worktree), a
//     directory outside them, a HOME of its own and copies of the built
//     binaries, with the variables scenarios expand ($WORK, $SECRET ...).
//   - Measure times the same calls (TimingCommands) in hook configurations
//     in interleaved rounds and compares two configurations by the
//     differences of the same call in the same round (median and
//     interquartile range); WriteCostSection puts a suite's figures into
//     the results file (docs/clients-cost.md under make e2e-cost).
//
// It is a test helper: only test binaries import it.
package e2eharness
