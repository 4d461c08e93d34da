package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/keywords"
)

// BenchmarkHookPaths times every path of the Claude Code hook as the
// client runs it, one whole `swarm-guard hook` process per call, next to
// an empty Go program measured in the same run: `make bench` prints each
// path's median, and the median of its ratios to the empty program run
// in turn with it (docs/benchmarks.md, written by make bench). The background helpers (scan server, worktree
// watcher) are started and warm before a path that uses them is timed;
// the "-cold" paths run without them (SWARM_GUARD_BACKGROUND=0), as every
// session's first call does. post-bash-writes-nothing runs what install
// registers for PostToolUse, swarm-guard-post, after the PreToolUse of the
// same call (untimed) left its record; -full is the same event through
// the full `swarm-guard hook`, as every PostToolUse ran before.
func BenchmarkHookPaths(b *testing.B) {
	tools := buildTools(b)
	hook := filepath.Join(tools, "swarm-guard")
	post := filepath.Join(tools, "swarm-guard-post")
	repo := gitRepo(b)
	if err := os.WriteFile(filepath.Join(repo, "notes.txt"), []byte("notes\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	git(b, repo, "add", "notes.txt")
	git(b, repo, "commit", "-q", "-m", "notes")
	ev := func(event, tool string, input, response any) []byte {
		m := map[string]any{"session_id": "bench", "cwd": repo, "hook_event_name": event, "tool_name": tool, "tool_input": input, "tool_use_id": "t"}
		if response != nil {
			m["tool_response"], m["duration_ms"] = response, 500
		}
		p, err := json.Marshal(m)
		if err != nil {
			b.Fatal(err)
		}
		return p
	}
	bashOut := func(stdout string) map[string]any {
		return map[string]any{"stdout": stdout, "stderr": "", "interrupted": false, "isImage": false, "noOutputExpected": false}
	}
	write10k := ev("PreToolUse", "Write", map[string]any{"file_path": filepath.Join(repo, "server.go"), "content": string(goSource(b, 10<<10))}, nil)
	// The same file with one line the generic rule matches and gitleaks
	// then drops (its allowlist knows apiVersion), so the scanner must
	// look: a clean file that keywords.Clean cannot prove clean.
	scanned := string(goSource(b, 10<<10)) + "\nconst apiVersion = \"2024-06-01.preview7\"\n"
	if !keywords.Clean("server.go", string(goSource(b, 10<<10))) || keywords.Clean("server.go", scanned) {
		b.Fatal("pre-write-10kb must be a file keywords.Clean proves clean, pre-write-10kb-scanned one it cannot")
	}
	write10kScanned := ev("PreToolUse", "Write", map[string]any{"file_path": filepath.Join(repo, "server.go"), "content": scanned}, nil)
	opaque := ev("PostToolUse", "Bash", map[string]any{"command": "./tools/generate"}, bashOut(""))
	paths := []struct {
		name    string
		payload []byte
		cold    bool   // without the background helpers
		pre     []byte // when set: run swarm-guard-post, after this PreToolUse (untimed)
	}{
		{"pre-bash-allow", ev("PreToolUse", "Bash", map[string]any{"command": "go test ./... && git add -A && git commit -m wip"}, nil), false, nil},
		{"pre-bash-writes-nothing", ev("PreToolUse", "Bash", map[string]any{"command": "ls -la"}, nil), false, nil},
		{"pre-bash-deny", ev("PreToolUse", "Bash", map[string]any{"command": "git push --force origin main"}, nil), false, nil},
		{"pre-write-10kb", write10k, false, nil},
		{"pre-write-10kb-cold", write10k, true, nil},
		{"pre-write-10kb-scanned", write10kScanned, false, nil},
		{"pre-write-10kb-scanned-cold", write10kScanned, true, nil},
		{"pre-mcp", ev("PreToolUse", "mcp__github__get_issue", map[string]any{"owner": "o", "repo": "r", "issue_number": 1}, nil), false, nil},
		{"post-bash-writes-nothing", ev("PostToolUse", "Bash", map[string]any{"command": "ls -la"}, bashOut("README.md\nmain.go\n")), false, ev("PreToolUse", "Bash", map[string]any{"command": "ls -la"}, nil)},
		{"post-bash-writes-nothing-full", ev("PostToolUse", "Bash", map[string]any{"command": "ls -la"}, bashOut("README.md\nmain.go\n")), false, nil},
		{"post-bash-redirect", ev("PostToolUse", "Bash", map[string]any{"command": "echo note >> notes.txt"}, bashOut("")), false, nil},
		{"post-bash-opaque", opaque, false, nil},
		{"post-bash-opaque-cold", opaque, true, nil},
		{"post-bash-output-keywords", ev("PostToolUse", "Bash", map[string]any{"command": "go test ./auth"}, bashOut("ok  \tauth/token\t0.012s\n--- PASS: TestAPIKeyRotation (0.00s)\n")), false, nil},
		{"post-write", ev("PostToolUse", "Write", map[string]any{"file_path": filepath.Join(repo, "notes.txt"), "content": "notes\n"}, map[string]any{"type": "update", "filePath": filepath.Join(repo, "notes.txt")}), false, nil},
		{"post-mcp-result", ev("PostToolUse", "mcp__github__get_issue", map[string]any{"issue_number": 1}, []map[string]any{{"type": "text", "text": "title: flaky test in auth token refresh"}}), false, nil},
	}
	// Warm the helpers: the first scan starts the scan server, the first
	// opaque PostToolUse the watcher.
	for _, p := range [][]byte{write10kScanned, opaque, write10kScanned} {
		runHook(b, hook, repo, p, nil)
		time.Sleep(200 * time.Millisecond)
	}
	waitWatcher(b, repo)
	empty := emptyGo(b, tools)
	b.Run("empty-go", func(b *testing.B) {
		timeRuns(b, repo, nil, []int{0}, empty)
	})
	for _, p := range paths {
		b.Run(p.name, func(b *testing.B) {
			if p.cold {
				b.Setenv("SWARM_GUARD_BACKGROUND", "0")
			}
			record := filepath.Join(repo, ".git", "swarm-guard", "post", "t")
			if p.name == "pre-bash-writes-nothing" {
				// It leaves the record for swarm-guard-post, which
				// would take it.
				pairedRunsAround(b, repo, p.payload, empty, nil, func() {
					if err := os.Remove(record); err != nil {
						b.Fatalf("PreToolUse of ls left no record: %v", err)
					}
				}, hook, "hook")
				return
			}
			if p.pre == nil {
				pairedRuns(b, repo, p.payload, empty, hook, "hook")
				return
			}
			pairedRunsAround(b, repo, p.payload, empty, func() {
				runHook(b, hook, repo, p.pre, nil)
				if _, err := os.Stat(record); err != nil {
					b.Fatalf("PreToolUse of ls left no record: %v", err)
				}
			}, func() {
				if _, err := os.Stat(record); err == nil {
					b.Fatal("swarm-guard-post left the record: it did not answer itself")
				}
			}, post)
		})
	}
}

// pairedRuns runs the hook and the empty Go program in turn, b.N times
// each, and reports the hook's median wall time and the median of the
// per-pair ratios ("x-empty"): a ratio taken pair by pair holds when the
// machine's speed drifts during the run.
func pairedRuns(b *testing.B, dir string, payload []byte, empty string, hook ...string) {
	b.Helper()
	pairedRunsAround(b, dir, payload, empty, nil, nil, hook...)
}

// pairedRunsAround is pairedRuns with before and after (when set) run
// around each timed run of the hook, untimed.
func pairedRunsAround(b *testing.B, dir string, payload []byte, empty string, before, after func(), hook ...string) {
	b.Helper()
	run := func(name string, stdin []byte, args ...string) time.Duration {
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, gitEnv(), bytes.NewReader(stdin)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		err := cmd.Run()
		d := time.Since(start)
		if code := cmd.ProcessState.ExitCode(); err != nil && code != 2 {
			b.Fatalf("%s: %v: %s", filepath.Base(name), err, stderr.String())
		}
		return d
	}
	var times, ratios []float64
	b.ResetTimer()
	for b.Loop() {
		if before != nil {
			before()
		}
		h := run(hook[0], payload, hook[1:]...)
		if after != nil {
			after()
		}
		e := run(empty, nil)
		times = append(times, float64(h.Microseconds())/1000)
		ratios = append(ratios, float64(h)/float64(max(e, time.Microsecond)))
	}
	b.StopTimer()
	slices.Sort(times)
	slices.Sort(ratios)
	b.ReportMetric(times[len(times)/2], "median-ms")
	b.ReportMetric(ratios[len(ratios)/2], "x-empty")
}

func runHook(b *testing.B, hook, dir string, payload []byte, env []string) {
	b.Helper()
	cmd := exec.Command(hook, "hook")
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(payload)
	cmd.Env = append(gitEnv(), env...)
	if out, err := cmd.CombinedOutput(); err != nil && cmd.ProcessState.ExitCode() != 2 {
		b.Fatalf("hook: %v\n%s", err, out)
	}
}
