// Package e2e drives the real Claude Code client against swarm-guard.
//
// The tests start a scripted stand-in for the Anthropic Messages API on
// 127.0.0.1 (Server), point `claude -p` at it and play the scenarios in
// testdata/*.txtar in throwaway repositories where `swarm-guard install`
// ran: a bare remote, the agent's clone and another agent's worktree.
// They assert on what actually happened (files, remote refs, commits) and
// on what the model was told (the tool_result of the next request).
// What this suite shares with hooks/clients/e2e (loading the scenarios,
// the loopback stand-in's refusing and timing, the worlds) is
// hooks/internal/e2eharness; this package keeps the Messages API, the
// client's driver and its scenarios.
//
// The client tests run only under `make e2e`, which installs a pinned
// @anthropic-ai/claude-code with npm and sets SWARM_GUARD_E2E_CLAUDE,
// SWARM_GUARD_E2E_BIN and SWARM_GUARD_E2E_ROOT (where the repositories go:
// not under /tmp, which agents may write to). `go test ./...` compiles
// them, runs the stand-in's own tests and skips the rest.
// SWARM_GUARD_E2E_DEBUG=1 logs every result; SWARM_GUARD_E2E_DUMP=FILE
// writes the last conversation the stand-in received (where to look when
// the client changes its requests). SWARM_GUARD_E2E_TIMING_EARLIER=1 adds
// the earlier sh -c launcher to the timing scenario;
// SWARM_GUARD_E2E_ROUNDS sets TestTiming's rounds (default 6, 0 skips it)
// and SWARM_GUARD_E2E_COST_FILE the results file it writes (e2e.sh:
// bin/clients-cost.md, or COST_FILE). CLAUDE_CODE_VERSION
// picks another client: with 2.1.138 the hook-command scenarios
// (binary-missing-without-onfailure, hook-shell-env, earlier-launcher,
// delete-outside, force-push) pass, and write-outside fails because that
// client refuses a Write to an unread file before any hook runs.
package e2e
