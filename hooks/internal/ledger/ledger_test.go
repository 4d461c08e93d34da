package ledger

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

func run(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// Two clones share a task through the remote; an unreachable remote loses
// nothing (the record is pushed once it is back); a ref someone else wrote
// is never overwritten.
func TestSharedLedger(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q", "--bare", "remote.git")
	run(t, dir, "clone", "-q", "remote.git", "a")
	run(t, dir, "clone", "-q", "remote.git", "b")
	a := &Ledger{Dir: filepath.Join(dir, "a"), Remote: "origin", Task: "T1", Agent: "agent-a"}
	b := &Ledger{Dir: filepath.Join(dir, "b"), Remote: "origin", Task: "T1", Agent: "agent-b"}
	now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)

	if _, err := a.Add(300, 1, now); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Add(200, 1, now.Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := a.Push(); err != nil {
		t.Fatal(err)
	}
	if err := b.Fetch(); err != nil {
		t.Fatal(err)
	}
	others, all, err := b.Others()
	if err != nil || others != 500 || len(all) != 1 || all[0].Agent != "agent-a" || all[0].Turns != 2 {
		t.Fatalf("b sees %d %+v %v, want agent-a's 500 tokens in 2 turns", others, all, err)
	}

	// The remote goes away: the record stays local, and arrives later.
	if err := os.Rename(filepath.Join(dir, "remote.git"), filepath.Join(dir, "gone.git")); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Add(700, 1, now.Add(2*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := b.Push(); err == nil || errors.Is(err, ErrRejected) {
		t.Fatalf("push to a missing remote: %v, want an error that is not a rejection", err)
	}
	if err := os.Rename(filepath.Join(dir, "gone.git"), filepath.Join(dir, "remote.git")); err != nil {
		t.Fatal(err)
	}
	if err := b.Push(); err != nil {
		t.Fatal(err)
	}
	if err := a.Fetch(); err != nil {
		t.Fatal(err)
	}
	if others, _, _ := a.Others(); others != 700 {
		t.Fatalf("a sees %d from agent-b, want 700", others)
	}

	// Someone else writes agent-a's ref: a's next push is refused, never forced.
	imp := &Ledger{Dir: filepath.Join(dir, "b"), Remote: "origin", Task: "T1", Agent: "agent-a"}
	run(t, imp.Dir, "update-ref", "-d", imp.OwnRef())
	if _, err := imp.Add(1, 1, now); err != nil {
		t.Fatal(err)
	}
	run(t, imp.Dir, "push", "-q", "--force", "origin", imp.OwnRef()+":"+imp.OwnRef())
	if _, err := a.Add(50, 1, now.Add(3*time.Second)); err != nil {
		t.Fatal(err)
	}
	if err := a.Push(); !errors.Is(err, ErrRejected) {
		t.Fatalf("push over someone else's record: %v, want ErrRejected", err)
	}
}

func BenchmarkSync50Agents(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not found")
	}
	dir := b.TempDir()
	t := &testing.T{}
	run(t, dir, "init", "-q", "--bare", "remote.git")
	run(t, dir, "clone", "-q", "remote.git", "w")
	now := time.Now()
	for i := 0; i < 50; i++ {
		l := &Ledger{Dir: filepath.Join(dir, "w"), Remote: "origin", Task: "T1", Agent: "agent-" + string(rune('a'+i%26)) + string(rune('a'+i/26))}
		if _, err := l.Add(100, 1, now); err != nil {
			b.Fatal(err)
		}
		if err := l.Push(); err != nil {
			b.Fatal(err)
		}
	}
	run(t, dir, "clone", "-q", "remote.git", "r")
	r := &Ledger{Dir: filepath.Join(dir, "r"), Remote: "origin", Task: "T1", Agent: "reader"}
	b.ResetTimer()
	for b.Loop() {
		if err := r.Fetch(); err != nil {
			b.Fatal(err)
		}
		if others, _, err := r.Others(); err != nil || others != 5000 {
			b.Fatalf("%d %v", others, err)
		}
	}
}

// A session's ledger spans tasks: each agent's record splits its spend by
// task, and one push and one fetch carry the task's and the session's refs.
func TestSessionLedger(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	dir := t.TempDir()
	run(t, dir, "init", "-q", "--bare", "remote.git")
	run(t, dir, "clone", "-q", "remote.git", "a")
	run(t, dir, "clone", "-q", "remote.git", "b")
	now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC)
	at := &Ledger{Dir: filepath.Join(dir, "a"), Remote: "origin", Task: "T1", Session: "S1", Agent: "agent-a"}
	as := &Ledger{Dir: at.Dir, Remote: "origin", Task: "T1", Session: "S1", BySession: true, Agent: "agent-a"}
	for _, l := range []*Ledger{at, as} {
		if _, err := l.Add(300, 1, now); err != nil {
			t.Fatal(err)
		}
	}
	as2 := *as
	as2.Task = ""
	if _, err := as2.Add(100, 1, now); err != nil {
		t.Fatal(err)
	}
	if err := PushAll(at, as); err != nil {
		t.Fatal(err)
	}
	bt := &Ledger{Dir: filepath.Join(dir, "b"), Remote: "origin", Task: "T2", Session: "S1", Agent: "agent-b"}
	bs := &Ledger{Dir: bt.Dir, Remote: "origin", Task: "T2", Session: "S1", BySession: true, Agent: "agent-b"}
	if err := FetchAll(bt, bs); err != nil {
		t.Fatal(err)
	}
	if others, _, err := bt.Others(); err != nil || others != 0 {
		t.Fatalf("b's task T2 sees %d %v, want nothing of T1", others, err)
	}
	others, all, err := bs.Others()
	if err != nil || others != 400 || len(all) != 1 {
		t.Fatalf("b's session sees %d %+v %v, want agent-a's 400 tokens", others, all, err)
	}
	if r := all[0]; r.Session != "S1" || r.Tasks["T1"] != 300 || r.Tasks[NoTask] != 100 || r.Turns != 2 {
		t.Fatalf("agent-a's session record %+v, want 300 on T1 and 100 without a task in 2 turns", r)
	}
	if got := as.OwnRef(); got != "refs/swarm-guard/sessions/S1/agent-a" {
		t.Fatalf("session ref %s", got)
	}
	tr, err := at.Own()
	if err != nil || tr.Session != "S1" || tr.Tasks != nil || tr.Tokens != 300 {
		t.Fatalf("agent-a's task record %+v %v, want 300 tokens in session S1", tr, err)
	}
}

// One whole sync of a run with a task and a swarm session, 50 other
// agents' records on each: record, one push, one fetch, both totals.
func BenchmarkSyncTaskAndSession50Agents(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git not found")
	}
	dir := b.TempDir()
	t := &testing.T{}
	run(t, dir, "init", "-q", "--bare", "remote.git")
	run(t, dir, "clone", "-q", "remote.git", "w")
	now := time.Now()
	for i := 0; i < 50; i++ {
		agent := "agent-" + string(rune('a'+i%26)) + string(rune('a'+i/26))
		lt := &Ledger{Dir: filepath.Join(dir, "w"), Remote: "origin", Task: "T1", Session: "S1", Agent: agent}
		ls := &Ledger{Dir: lt.Dir, Remote: "origin", Task: "T1", Session: "S1", BySession: true, Agent: agent}
		for _, l := range []*Ledger{lt, ls} {
			if _, err := l.Add(100, 1, now); err != nil {
				b.Fatal(err)
			}
		}
		if err := PushAll(lt, ls); err != nil {
			b.Fatal(err)
		}
	}
	run(t, dir, "clone", "-q", "remote.git", "r")
	lt := &Ledger{Dir: filepath.Join(dir, "r"), Remote: "origin", Task: "T1", Session: "S1", Agent: "me"}
	ls := &Ledger{Dir: lt.Dir, Remote: "origin", Task: "T1", Session: "S1", BySession: true, Agent: "me"}
	b.ResetTimer()
	for b.Loop() {
		for _, l := range []*Ledger{lt, ls} {
			if _, err := l.Add(100, 1, now); err != nil {
				b.Fatal(err)
			}
		}
		if err := PushAll(lt, ls); err != nil {
			b.Fatal(err)
		}
		if err := FetchAll(lt, ls); err != nil {
			b.Fatal(err)
		}
		for _, l := range []*Ledger{lt, ls} {
			if others, _, err := l.Others(); err != nil || others != 5000 {
				b.Fatalf("%d %v", others, err)
			}
		}
	}
}
