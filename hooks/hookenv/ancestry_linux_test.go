package hookenv

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// A fake /proc: 40 (the agent's shell, CLAUDECODE=1) → 41 (python, which
// dropped it from its own environment later) → 42 (git) → 43 (the hook).
func TestAgentAncestorFindsTheSessionAbove(t *testing.T) {
	proc := t.TempDir()
	mk := func(pid, ppid int, comm, env string) {
		d := filepath.Join(proc, strconv.Itoa(pid))
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		stat := strconv.Itoa(pid) + " (" + comm + ") S " + strconv.Itoa(ppid) + " 1 1 0"
		os.WriteFile(filepath.Join(d, "stat"), []byte(stat), 0o644)
		os.WriteFile(filepath.Join(d, "environ"), []byte(env), 0o644)
	}
	mk(30, 1, "login shell", "HOME=/h\x00")
	mk(40, 30, "bash", "HOME=/h\x00CLAUDECODE=1\x00")
	mk(41, 40, "python3 (x)", "HOME=/h\x00")
	mk(42, 41, "git", "HOME=/h\x00")
	if got := agentAncestor(proc, 42, nil); got != 40 {
		t.Errorf("agentAncestor from git = %d, want the agent's shell 40", got)
	}
	if got := agentAncestor(proc, 30, nil); got != 0 {
		t.Errorf("agentAncestor from a human's shell = %d, want 0", got)
	}
	mk(50, 1, "swarm-guard", "SWARM_GUARD_RUN=r-1\x00")
	mk(51, 50, "claude", "X=1\x00")
	if got := agentAncestor(proc, 51, nil); got != 50 {
		t.Errorf("agentAncestor under swarm-guard run = %d, want 50", got)
	}
	mk(60, 1, "sh", "CLAUDECODE=0\x00SWARM_GUARD_RUN=\x00")
	if got := agentAncestor(proc, 60, nil); got != 0 {
		t.Errorf("CLAUDECODE=0 and an empty SWARM_GUARD_RUN mark no session, got %d", got)
	}
	mk(70, 70, "loop", "")
	if got := agentAncestor(proc, 70, nil); got != 0 {
		t.Errorf("a process that is its own parent: %d", got)
	}
	// Confined to marked processes, the walk stops below an unmarked one.
	mk(80, 40, "sh", "T=1\x00")
	mk(81, 80, "git", "T=1\x00")
	if got := agentAncestor(proc, 81, []byte("T=1")); got != 0 {
		t.Errorf("the walk left the marked processes: found %d", got)
	}
	mk(90, 1, "sh", "T=1\x00CLAUDECODE=1\x00")
	mk(91, 90, "git", "T=1\x00")
	if got := agentAncestor(proc, 91, []byte("T=1")); got != 90 {
		t.Errorf("a marked session above: found %d, want 90", got)
	}
}
