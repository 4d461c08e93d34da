package budget

import (
	"testing"
	"time"
)

func TestLimitsCheck(t *testing.T) {
	lim := Limits{Turns: 3, WorkerTokens: 2500, TaskTokens: 10_000, SessionTokens: 20_000}
	for _, tc := range []struct {
		spent Spent
		want  Kind
		over  int64
	}{
		{Spent{Turns: 3, Worker: 2500, Task: 10_000, Session: 20_000}, "", 0}, // at the limits: not passed
		{Spent{Turns: 4}, Turns, 1},
		{Spent{Worker: 3000}, WorkerTokens, 500},
		{Spent{Task: 10_001}, TaskTokens, 1},
		{Spent{Session: 25_000}, SessionTokens, 5000},
		{Spent{Turns: 9, Worker: 9999}, Turns, 6}, // the first in order wins
	} {
		ex := lim.Check(tc.spent)
		switch {
		case tc.want == "" && ex != nil:
			t.Errorf("%+v: got %v, want nothing", tc.spent, ex)
		case tc.want != "" && (ex == nil || ex.Budget != tc.want || ex.Over() != tc.over):
			t.Errorf("%+v: got %+v, want %s over by %d", tc.spent, ex, tc.want, tc.over)
		}
	}
	if ex := (Limits{}).Check(Spent{Turns: 1e9, Worker: 1e9}); ex != nil {
		t.Errorf("zero limits are no limits, got %v", ex)
	}
	if ex := lim.Reached(Spent{Task: 10_000}); ex == nil || ex.Budget != TaskTokens {
		t.Errorf("Reached at the limit: %v", ex)
	}
	got := (&Exceeded{Budget: WorkerTokens, Limit: 2500, Used: 3000}).String()
	if want := "worker token budget exceeded: 3,000 of 2,500 tokens used (500 over)"; got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
}

func TestJudge(t *testing.T) {
	ok := &Result{Subtype: "success"}
	for _, tc := range []struct {
		e    Ending
		want Outcome
	}{
		{Ending{ExitCode: 0, Result: ok, NeedResult: true}, OutcomeSuccess},
		{Ending{ExitCode: 1, Result: ok, NeedResult: true}, OutcomeFailed},
		{Ending{ExitCode: 0, Result: &Result{Subtype: "success", IsError: true}, NeedResult: true}, OutcomeFailed},
		{Ending{ExitCode: 0, NeedResult: true}, OutcomeFailed},
		{Ending{ExitCode: 0}, OutcomeSuccess},
		{Ending{ExitCode: 2}, OutcomeFailed},
		{Ending{ExitCode: 1, Result: &Result{Subtype: "error_max_turns", IsError: true}}, OutcomeMaxTurns},
		{Ending{ExitCode: 1, Result: &Result{Subtype: "error_max_budget_usd", IsError: true}}, OutcomeCostBudget},
		{Ending{Stopped: OutcomeIdle, ExitCode: 0, Result: ok}, OutcomeIdle},
	} {
		if got := Judge(tc.e); got != tc.want {
			t.Errorf("Judge(%+v) = %s, want %s", tc.e, got, tc.want)
		}
	}
	for o, retry := range map[Outcome]bool{OutcomeFailed: true, OutcomeTimeout: false, OutcomeWorkerTokens: false, OutcomeSuccess: false} {
		if o.Retryable() != retry {
			t.Errorf("%s.Retryable() = %v", o, !retry)
		}
	}
}

func TestLedger(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var l Ledger
	l.EnsureSession("s-1", now)
	l.StartRun("t", now)
	task, session := l.Charge("t", Usage{Input: 10, Output: 5, CacheRead: 1000}, now)
	if task != 15 || session != 15 {
		t.Fatalf("after a charge: task %d session %d, want 15 (cache reads are not budgeted)", task, session)
	}
	l.Charge("", Usage{Input: 5}, now)
	if task, session := l.Spent("t"); task != 15 || session != 20 {
		t.Fatalf("Spent = %d, %d", task, session)
	}
	old := l.ResetSession("s-2", now)
	if old.ID != "s-1" || old.Runs != 1 || l.Session.ID != "s-2" || !l.Session.Usage.IsZero() || l.Tasks["t"].Usage.Budgeted() != 15 {
		t.Fatalf("reset: old %+v, ledger %+v", old, l)
	}
	l.Version = LedgerVersion + 1
	if l.Check() == nil {
		t.Fatal("a newer format must be refused")
	}
}

func TestAggregate(t *testing.T) {
	cost := 0.5
	at := func(task, agent, run string, o Outcome, tokens int64, before, after string) Attempt {
		return Attempt{Task: task, Agent: agent, Run: run, Outcome: o, Turns: 2, Budgeted: tokens, Tokens: Usage{Input: tokens},
			CostUSD: &cost, HeadBefore: before, HeadAfter: after}
	}
	groups := Aggregate([]Attempt{
		at("t1", "a", "r1", OutcomeFailed, 100, "c0", "c0"),
		at("t1", "a", "r1", OutcomeSuccess, 300, "c0", "c1"),
		at("t1", "b", "r2", OutcomeTimeout, 50, "", ""),
		at("t0", "a", "r3", OutcomeSuccess, 10, "c1", "c2"),
	}, func(a Attempt) (int64, bool) {
		switch {
		case a.HeadBefore == "":
			return 0, false
		case a.HeadBefore == a.HeadAfter:
			return 0, true
		}
		return 20, true
	})
	if len(groups) != 3 || groups[0].Task != "t0" || groups[1].Agent != "a" || groups[2].Agent != "b" {
		t.Fatalf("groups: %+v", groups)
	}
	g := groups[1]
	if g.Runs != 1 || g.Attempts != 2 || g.Outcomes[OutcomeSuccess] != 1 || g.Outcomes[OutcomeFailed] != 1 || g.Turns != 4 ||
		g.Budgeted != 400 || *g.CostUSD != 1 || *g.ChangedLines != 20 || *g.TokensPerLine != 20 {
		t.Fatalf("group t1/a: %+v", g)
	}
	if groups[2].ChangedLines != nil || groups[2].TokensPerLine != nil {
		t.Fatalf("no git data, no lines: %+v", groups[2])
	}
}

func TestCount(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1k", 1500: "1.5k", 12345: "12.3k", 2_000_000: "2M", -1500: "-1.5k"} {
		if got := Count(n); got != want {
			t.Errorf("Count(%d) = %q, want %q", n, got, want)
		}
	}
	if got := Exact(-1234567); got != "-1,234,567" {
		t.Errorf("Exact = %q", got)
	}
}
