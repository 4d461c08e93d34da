package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The git-hook benchmarks run a swarm-guard built the way `make build`
// builds it, not this test binary, which links test-only packages that
// slow down every start.

// benchBinary builds swarm-guard into a temporary directory (the build
// cache makes the second build a link only).
func benchBinary(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), "swarm-guard")
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags=-s -w", "-o", path, ".")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return path
}

// benchRepo makes a repository with the hooks installed for binary.
func benchRepo(b *testing.B, binary string) (dir string, env []string) {
	b.Helper()
	dir = b.TempDir()
	home := b.TempDir()
	env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"), "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=b", "GIT_AUTHOR_EMAIL=b@example.com",
		"GIT_COMMITTER_NAME=b", "GIT_COMMITTER_EMAIL=b@example.com", "SWARM_GUARD_AGENT_ID=bench-agent")
	benchRun(b, dir, env, nil, "git", "init", "-q", "-b", "feature")
	benchRun(b, dir, env, nil, binary, "install", "--on-failure", "omit")
	return dir, env
}

func benchRun(b *testing.B, dir string, env []string, stdin []byte, name string, args ...string) []byte {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		b.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.String())
	}
	return out
}

// BenchmarkCommitMessageHooks measures what prepare-commit-msg and
// commit-msg add to a commit: both installed hook scripts (sh, then
// swarm-guard) run on a fresh message file, as git runs them. "noop" runs
// two hooks that do nothing, for the cost of starting any hook at all.
// Budget: ≤ 10 ms for both together.
func BenchmarkCommitMessageHooks(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	binary := benchBinary(b)
	dir, env := benchRepo(b, binary)
	msgFile := filepath.Join(dir, ".git", "COMMIT_EDITMSG")
	msg := []byte("feat: benchmark the hooks\n\nA body paragraph that explains why.\n")
	hooks := filepath.Join(dir, ".git", "hooks")
	noop := filepath.Join(b.TempDir(), "noop")
	if err := os.WriteFile(noop, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name           string
		prepare, check string
	}{
		{"noop", noop, noop},
		{"swarm-guard", filepath.Join(hooks, "prepare-commit-msg"), filepath.Join(hooks, "commit-msg")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if err := os.WriteFile(msgFile, msg, 0o644); err != nil {
					b.Fatal(err)
				}
				benchRun(b, dir, env, nil, bc.prepare, msgFile, "message")
				benchRun(b, dir, env, nil, bc.check, msgFile)
			}
			b.StopTimer()
			if got, _ := os.ReadFile(msgFile); bc.name == "swarm-guard" && !bytes.Contains(got, []byte("\nAgent-Id: bench-agent\n")) {
				b.Fatalf("the hooks did not add the trailer: %q", got)
			}
		})
	}
}

// BenchmarkPrePush1000 measures the installed pre-push hook over a push
// of 1,000 new commits, all checked for their agent trailer by one git
// log. Budget: ≤ 200 ms.
func BenchmarkPrePush1000(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("no git")
	}
	binary := benchBinary(b)
	dir, env := benchRepo(b, binary)
	// refs/remotes/origin/main is what the remote has; feature adds 1,000
	// commits on top, every one with a trailer.
	var stream bytes.Buffer
	stream.WriteString("commit refs/remotes/origin/main\nmark :1\ncommitter b <b@example.com> 1700000000 +0000\ndata 5\nbase\n\n")
	for i := 2; i <= 1001; i++ {
		msg := fmt.Sprintf("feat: change %d\n\nWhy it was needed.\n\nAgent-Id: agent-%d\nCo-authored-by: x <x@example.com>\n", i, i%7)
		fmt.Fprintf(&stream, "commit refs/heads/feature\nmark :%d\ncommitter b <b@example.com> %d +0000\ndata %d\n%s\nfrom :%d\nM 644 inline f%d.txt\ndata 2\n%d\n\n",
			i, 1700000000+i, len(msg), msg, i-1, i%50, i%10)
	}
	benchRun(b, dir, env, stream.Bytes(), "git", "fast-import", "--quiet")
	tip := strings.TrimSpace(string(benchRun(b, dir, env, nil, "git", "rev-parse", "refs/heads/feature")))
	base := strings.TrimSpace(string(benchRun(b, dir, env, nil, "git", "rev-parse", "refs/remotes/origin/main")))
	count := strings.TrimSpace(string(benchRun(b, dir, env, nil, "git", "rev-list", "--count", base+".."+tip)))
	if count != "1000" {
		b.Fatalf("%s new commits, want 1000", count)
	}
	hook := filepath.Join(dir, ".git", "hooks", "pre-push")
	for _, bc := range []struct{ name, remoteOID string }{
		{"new-branch", strings.Repeat("0", 40)},
		{"fast-forward", base},
	} {
		b.Run(bc.name, func(b *testing.B) {
			stdin := []byte(fmt.Sprintf("refs/heads/feature %s refs/heads/feature %s\n", tip, bc.remoteOID))
			for b.Loop() {
				benchRun(b, dir, env, stdin, hook, "origin", "../remote.git")
			}
		})
	}
	// The hook must really check: one commit without a trailer fails it.
	untrailed := strings.TrimSpace(string(benchRun(b, dir, env, nil, "git", "commit-tree", "-p", tip, "-m", "no trailer", tip+"^{tree}")))
	bad := exec.Command(hook, "origin", "../remote.git")
	bad.Dir, bad.Env = dir, env
	bad.Stdin = strings.NewReader(fmt.Sprintf("refs/heads/feature %s refs/heads/feature %s\n", untrailed, strings.Repeat("0", 40)))
	if out, err := bad.CombinedOutput(); err == nil || !strings.Contains(string(out), "has no Agent-Id trailer") {
		b.Fatalf("pushing the base commit without a trailer: %v\n%s", err, out)
	}
}
