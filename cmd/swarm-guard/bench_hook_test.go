package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// buildStatic builds the swarm-guard binary the way `make build` does
// (static, stripped) once per test process.
var buildStatic = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "swarm-guard-bench-*")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "swarm-guard")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", bin, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", &exec.ExitError{ProcessState: nil, Stderr: out}
	}
	return bin, nil
})

// benchProcess runs the hook binary b.N times on a payload and reports the
// median and 90th percentile wall time per call and the peak RSS: what
// Claude Code pays on every tool call.
func benchProcess(b *testing.B, payload string) {
	if testing.Short() {
		b.Skip("builds a binary")
	}
	bin, err := buildStatic()
	if err != nil {
		b.Fatalf("build: %v", err)
	}
	repo := b.TempDir()
	if out, err := exec.Command("git", "init", "-q", "-b", "agent-1", repo).CombinedOutput(); err != nil {
		b.Fatalf("git init: %v %s", err, out)
	}
	in := filepath.Join(repo, "payload.json")
	if err := os.WriteFile(in, []byte(payloadFor(repo, payload)), 0o644); err != nil {
		b.Fatal(err)
	}
	run := func() time.Duration {
		f, err := os.Open(in)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		cmd := exec.Command(bin, "hook")
		cmd.Stdin, cmd.Dir = f, repo
		start := time.Now()
		err = cmd.Run()
		d := time.Since(start)
		if err != nil && cmd.ProcessState.ExitCode() != 2 {
			b.Fatalf("hook: %v", err)
		}
		return d
	}
	for i := 0; i < 5; i++ {
		run() // warm the page cache
	}
	var times []time.Duration
	b.ResetTimer()
	for b.Loop() {
		d := run()
		times = append(times, d)
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(times[len(times)*9/10].Microseconds())/1000, "ms-p90")
	if rss, ok := peakRSS(bin, in, repo); ok {
		b.ReportMetric(rss, "MB-peak-rss")
	}
}

// peakRSS measures the hook's own peak RSS with GNU time. The rusage of a
// child of this test process would include the test binary's pages from
// before exec.
func peakRSS(bin, in, dir string) (float64, bool) {
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		return 0, false
	}
	f, err := os.Open(in)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	out := filepath.Join(dir, "rss.txt")
	cmd := exec.Command("/usr/bin/time", "-f", "%M", "-o", out, bin, "hook")
	cmd.Stdin, cmd.Dir = f, dir
	_ = cmd.Run()
	data, err := os.ReadFile(out)
	if err != nil {
		return 0, false
	}
	// On a non-zero exit GNU time writes a status line first; the figure is last.
	lines := strings.Fields(strings.TrimSpace(string(data)))
	if len(lines) == 0 {
		return 0, false
	}
	var kb float64
	if _, err := fmt.Sscan(lines[len(lines)-1], &kb); err != nil {
		return 0, false
	}
	return kb / 1024, true
}

func payloadFor(repo, command string) string {
	return `{"session_id":"bench","transcript_path":"","cwd":"` + repo + `","hook_event_name":"PreToolUse",` +
		`"tool_name":"Bash","tool_input":{"command":` + jsonString(command) + `,"description":"bench"},"tool_use_id":"t"}`
}

func jsonString(s string) string {
	out := []byte{'"'}
	for _, c := range []byte(s) {
		switch c {
		case '"', '\\':
			out = append(out, '\\', c)
		default:
			out = append(out, c)
		}
	}
	return string(append(out, '"'))
}

// A typical agent command: allowed.
func BenchmarkHookProcessBashAllow(b *testing.B) {
	benchProcess(b, `go test ./... 2>&1 | tail -20 && git add -A && git commit -m "feat: parser" && git push origin HEAD:agent-1`)
}

// A denied command: the denial path formats a message and writes the log.
func BenchmarkHookProcessBashDeny(b *testing.B) {
	benchProcess(b, `git push --force origin agent-1`)
}

// Baseline: the cheapest possible Go process on this machine.
func BenchmarkProcessBaselineTrue(b *testing.B) {
	bin, err := buildStatic()
	if err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		_ = exec.Command(bin, "version").Run()
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-median")
}
