package agentrun

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/swarm-guard/swarm-guard/hooks/internal/ledger"
)

// An unreachable remote is tried again with backoff, counted in due syncs
// (so it holds for sync_turns as for sync_seconds): attempts at the 1st,
// 3rd, 7th and 15th due sync; one warning per run; once the remote is
// back the next attempt pushes every record the run made meanwhile.
func TestSharedLedgerBackoff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(dir, "init", "-q", "--bare", "remote.git")
	git(dir, "clone", "-q", "remote.git", "a")
	if err := os.Rename(filepath.Join(dir, "remote.git"), filepath.Join(dir, "gone.git")); err != nil {
		t.Fatal(err)
	}
	l := &ledger.Ledger{Dir: filepath.Join(dir, "a"), Remote: "origin", Task: "T1", Agent: "agent-a"}
	s := &sharedLedger{l: l, ls: []*ledger.Ledger{l}, turns: 1, unpushed: true}
	var warn bytes.Buffer
	now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
	var attempts []int
	for turn := 1; turn <= 20; turn++ {
		before := s.failures
		if err := s.maybeSync(now, int64(turn)*300, int64(turn), &warn); err != nil {
			t.Fatal(err)
		}
		if s.failures != before {
			attempts = append(attempts, turn)
		}
	}
	if got := strings.Count(warn.String(), "out of reach"); got != 1 {
		t.Errorf("%d warnings, want 1:\n%s", got, warn.String())
	}
	if want := []int{1, 3, 7, 15}; !slices.Equal(attempts, want) {
		t.Errorf("the remote was tried at turns %v, want %v", attempts, want)
	}
	// The remote is back: the end of the run pushes everything.
	if err := os.Rename(filepath.Join(dir, "gone.git"), filepath.Join(dir, "remote.git")); err != nil {
		t.Fatal(err)
	}
	warn.Reset()
	if err := s.end(now, 21*300, 21, &warn); err != nil {
		t.Fatal(err)
	}
	if warn.Len() != 0 || s.unpushed || s.failures != 0 {
		t.Fatalf("after the remote came back: unpushed %v, failures %d, warned %q", s.unpushed, s.failures, warn.String())
	}
	rec := git(filepath.Join(dir, "remote.git"), "cat-file", "-p", l.OwnRef()+":usage.json")
	if !strings.Contains(rec, `"tokens": 6300`) || !strings.Contains(rec, `"turns": 21`) {
		t.Fatalf("the remote holds %s, want 6,300 tokens in 21 turns", rec)
	}
}
