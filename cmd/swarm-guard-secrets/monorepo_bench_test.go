package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/secretscan/watch"
)

// Monorepo size for BenchmarkHookPostOpaqueMonorepo; SWARM_GUARD_BENCH_TRACKED
// and SWARM_GUARD_BENCH_UNTRACKED change it (to show how the cost grows).
var (
	monoTracked   = envInt("SWARM_GUARD_BENCH_TRACKED", 50000)
	monoUntracked = envInt("SWARM_GUARD_BENCH_UNTRACKED", 5000)
)

func envInt(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n >= 0 {
		return n
	}
	return def
}

// genMonorepo makes a repository of tracked files (20 a directory, 50
// directories a package) with one commit, then untracked files (10 a
// directory, in gen/ directories beside the tracked ones): a monorepo with
// generated output that is not ignored. Nothing of it is committed here:
// it is made at bench time.
func genMonorepo(b *testing.B, tracked, untracked int) string {
	b.Helper()
	dir := b.TempDir()
	git(b, dir, "init", "-q")
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < tracked; i++ {
		write(fmt.Sprintf("pkg%03d/mod%02d/file%02d.go", i/1000, i/20%50, i%20), fmt.Sprintf("package mod\n\n// %d\n", i))
	}
	git(b, dir, "add", "-A")
	git(b, dir, "commit", "-q", "-m", "monorepo")
	for i := 0; i < untracked; i++ {
		write(fmt.Sprintf("pkg%03d/mod%02d/gen/out%d.txt", i/500, i/10%50, i%10), "generated\n")
	}
	return dir
}

// BenchmarkHookPostOpaqueMonorepo is PostToolUse after a Bash command the
// shell analysis cannot see into (./tools/generate: it may have written
// anything), in a generated repository of 50,000 tracked and 5,000
// untracked files, as whole processes:
//
//   - worktree-scan: without the watcher (SWARM_GUARD_BACKGROUND=0), git status
//     over the whole worktree: grows with the number of files;
//   - watcher: the worktree's file watcher answers which files the call
//     wrote: one socket round trip, whatever the size;
//   - empty-go: an empty Go program, the floor.
func BenchmarkHookPostOpaqueMonorepo(b *testing.B) {
	if testing.Short() {
		b.Skip("generates a large repository")
	}
	tools := buildTools(b)
	repo := genMonorepo(b, monoTracked, monoUntracked)
	payload := []byte(`{"session_id":"bench","cwd":"` + repo + `","hook_event_name":"PostToolUse","tool_name":"Bash",` +
		`"tool_input":{"command":"./tools/generate"},"tool_response":{"stdout":""},"tool_use_id":"t","duration_ms":500}`)
	hook := filepath.Join(tools, "swarm-guard")
	b.Run("empty-go", func(b *testing.B) {
		timeRuns(b, repo, nil, []int{0}, emptyGo(b, tools))
	})
	b.Run("worktree-scan", func(b *testing.B) {
		b.Setenv("SWARM_GUARD_BACKGROUND", "0")
		timeRuns(b, repo, payload, []int{0}, hook, "hook")
	})
	b.Run("watcher", func(b *testing.B) {
		start := exec.Command(hook, "hook") // the first call starts the watcher
		start.Dir, start.Stdin = repo, bytes.NewReader(payload)
		if out, err := start.CombinedOutput(); err != nil {
			b.Fatalf("hook: %v\n%s", err, out)
		}
		waitWatcher(b, repo)
		timeRuns(b, repo, payload, []int{0}, hook, "hook")
	})
}

// waitWatcher waits until the watcher of repo vouches for a call that
// began three seconds ago (the payload's duration_ms plus the hook's clock
// slack), so that the timed calls are answered by it.
func waitWatcher(b *testing.B, repo string) {
	b.Helper()
	root, err := filepath.EvalSymlinks(repo)
	if err != nil {
		b.Fatal(err)
	}
	p := watch.For(root, filepath.Join(root, ".git", "swarm-guard"))
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, ok := watch.Changed(p, time.Now().Add(-3*time.Second), time.Second); ok {
			return
		}
		if time.Now().After(deadline) {
			b.Skip("no file watcher answered (not Linux, or inotify limits)")
		}
	}
}

// emptyGo builds `package main; func main() {}` like the tools.
func emptyGo(b *testing.B, tools string) string {
	b.Helper()
	bin := filepath.Join(tools, "empty-go")
	if _, err := os.Stat(bin); err == nil {
		return bin
	}
	src := b.TempDir()
	for name, content := range map[string]string{"go.mod": "module empty\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(content), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	cmd := exec.Command(goTool(), "build", "-trimpath", "-ldflags", "-s -w", "-o", bin, ".")
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("build: %v\n%s", err, out)
	}
	installCopy(b, bin)
	return bin
}
