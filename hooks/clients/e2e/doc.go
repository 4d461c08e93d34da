// Package e2e drives the real agent clients other than Claude Code
// (Codex, Gemini CLI, Copilot CLI, opencode, Qwen Code and Droid) against
// swarm-guard, offline.
//
// The tests start a scripted stand-in model on 127.0.0.1 (Server) that
// speaks each client's wire API (the OpenAI Responses API, Chat
// Completions, Gemini's streamGenerateContent) and is also the clients'
// HTTP(S) proxy, refusing and counting every request for another host.
// Each client runs headless in a throwaway repository with its own HOME,
// its hooks installed for it, and plays the scenarios in testdata/*.txtar:
// the same abstract calls (shell, write) in each client's own tool names.
// The tests assert on what happened (files, the remote's refs) and on what
// the model was told (the tool result of the next request). What this
// suite shares with hooks/claude/e2e (loading the scenarios, the loopback
// stand-in's refusing and timing, the worlds) is hooks/internal/e2eharness;
// this package keeps the wire APIs, the client table and its scenarios.
//
// The client tests run only under make e2e-clients
// (hooks/clients/e2e/e2e-clients.sh), which installs the pinned clients
// with npm into a cache directory and sets SWARM_GUARD_E2E_BIN,
// SWARM_GUARD_E2E_ROOT and one SWARM_GUARD_E2E_<CLIENT> per client;
// `go test ./...` runs the stand-in's own tests and the scenario parser and
// skips the rest. SWARM_GUARD_E2E_DEBUG=1 logs every result;
// SWARM_GUARD_E2E_DUMP=FILE writes the first request that offered tools;
// SWARM_GUARD_E2E_HOOKLOG=DIR records every hook call's stdin, answer and
// exit code (a shell in front of the binaries) and writes a failed run's
// record to DIR; SWARM_GUARD_E2E_WRAP="strace -f -o FILE" starts each
// client under that command; SWARM_GUARD_E2E_ROUNDS sets TestTiming's
// rounds (default 3, 0 skips it) and SWARM_GUARD_E2E_COST_FILE the results
// file it writes (the script: bin/clients-cost.md, or COST_FILE).
package e2e
